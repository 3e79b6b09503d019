// The cold-start ledger in the window (Run > Measure Cold Start): the Verify tab's bars, one per
// step on one scale, each with its time and kernels, a failed step said in its row, the run's
// text never markup; hidden for a capture whose start-up was not measured.
#include "ui/report/ColdStartBars.h"
#include "UiTestSupport.h"
#include "ui/report/VerifyView.h"
#include "ui/run/RunDocument.h"

#include <QApplication>

#include <gtest/gtest.h>

using ps::model::ColdStart;
using ps::ui::ColdStartBars;
using ps::ui::RunDocument;
using ps::ui::VerifyView;

namespace {

std::shared_ptr<const RunDocument> runWith(const nlohmann::json& coldStart)
{
    nlohmann::json c = {{"name", "mlp"}, {"backend", "inductor"}, {"tracer", "make_fx"}, {"status", "ok"},
        {"violation", nullptr}, {"outcome", nullptr}, {"warnings", nlohmann::json::array()}, {"artifact", nullptr},
        {"verify", {{"ran", true}, {"status", "ok"}, {"matches_eager", true}}}, {"timings_s", {{"precompile", 5.9}}}};
    if (!coldStart.is_null())
        c["cold_start"] = coldStart;
    auto run = std::make_shared<RunDocument>();
    run->report = ps::model::Report::fromJson(
        {{"schema", 1}, {"script", "/s/mlp.py"}, {"status", "ok"}, {"message", ""}, {"captures", {c}}});
    return run;
}

nlohmann::json ledger()
{
    return {{"ran", true}, {"import_s", 2.5}, {"saving", 4.0},
        {"message", "first call 5.0 s, against 20 s for torch.compile cold and 6.0 s warm"},
        {"steps",
            {{{"step", "eager"}, {"first_call_s", 0.02}, {"kernels_compiled", nullptr}, {"error", nullptr}},
                {{"step", "compile_cold"}, {"first_call_s", 20.0}, {"kernels_compiled", 3}, {"error", nullptr}},
                {{"step", "compile_warm"}, {"first_call_s", 6.0}, {"kernels_compiled", 0}, {"error", nullptr}},
                {{"step", "precompiled"}, {"first_call_s", 5.0}, {"kernels_compiled", 1}, {"error", nullptr}},
                {{"step", "precompiled_no_cache"}, {"first_call_s", nullptr},
                    {"error", {{"stage", "load"}, {"message", "<b>boom</b>\x1b[0m"}}}}}}};
}

}  // namespace

TEST(UiColdStartBars, TheVerifyTabShowsTheLedgerStepByStep)
{
    VerifyView view;
    view.resize(1000, 700);
    view.show();
    view.setCapture(runWith(ledger()), 0);
    const ColdStartBars* bars = view.coldStartBars();
    ASSERT_TRUE(bars->isVisible());
    EXPECT_EQ(bars->titleText(),
        "Cold start, each in a fresh process: first call 5.0 s, against 20 s for "
        "torch.compile cold and 6.0 s warm (import torch 2.5 s apart)");
    const auto& rows = bars->rows();
    ASSERT_EQ(rows.size(), 5u);
    EXPECT_EQ(rows[1].label, "torch.compile, cold cache");
    EXPECT_EQ(rows[1].note, "3 kernels compiled");
    EXPECT_EQ(rows[2].note, "");  // none compiled: the warm cache served it
    EXPECT_EQ(rows[3].note, "1 kernel compiled");
    EXPECT_FALSE(rows[4].seconds);
    EXPECT_EQ(rows[4].note, "failed: <b>boom</b>\\x1b[0m");  // shown as text, its control escaped
    EXPECT_NE(ColdStartBars::colour(ColdStart::Step::Precompiled), ColdStartBars::colour(ColdStart::Step::CompileCold));
    QApplication::processEvents();  // the layout, as the window's event loop runs it
    EXPECT_GE(bars->height(), 5 * 18) << "every row has room";
    if (const QString shots = qEnvironmentVariable("PS_SHOT_DIR"); !shots.isEmpty())
        ps::uitest::savePicture(view, shots + QStringLiteral("/cold_start.png"));

    // Not measured: its reason only. Not asked for: hidden.
    view.setCapture(runWith({{"ran", false}, {"reason", "not measured: the script makes its own precompile calls"},
                        {"steps", nlohmann::json::array()}, {"message", "not measured"}}),
        0);
    EXPECT_TRUE(bars->isVisible());
    EXPECT_TRUE(bars->rows().empty());
    EXPECT_EQ(bars->titleText(), "Cold start: not measured: the script makes its own precompile calls");
    view.setCapture(runWith(nullptr), 0);
    EXPECT_FALSE(bars->isVisible());
}
