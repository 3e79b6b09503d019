// The Verify tab says the accuracy verdict with both errors against float64, the worst values,
// what verification skipped to stay within its budget, and each judged value's figures.
#include "ui/report/VerifyView.h"
#include "ui/run/RunDocument.h"

#include <QTreeWidget>

#include <gtest/gtest.h>

namespace {

std::shared_ptr<const ps::ui::RunDocument> driftRun()
{
    const nlohmann::json tensor = {{"name", "model.layer3.1.bn2.bias"}, {"kind", "grads"}, {"verdict", "drift"},
        {"eager_error", 2.7e-6}, {"artifact_error", 0.022}, {"ratio", 8100.0}};
    const nlohmann::json grad = {{"name", "model.layer3.1.bn2.bias"},
        {"result", {{"ok", false}, {"max_abs_diff", 1e-3}, {"rms_rel_diff", 0.02}, {"mismatched", 3}}}};
    const nlohmann::json verify
        = {{"ran", true}, {"status", "drift"}, {"matches_eager", false}, {"calls", 2}, {"grads", {grad}},
            {"accuracy",
                {{"verdict", "numerics drift"}, {"reference", "float64"}, {"eager_error", 2.7e-6},
                    {"artifact_error", 0.022}, {"ratio", 8100.0}, {"worst", {"model.layer3.1.bn2.bias"}},
                    {"tensors", {tensor}}, {"message", "numerics drift in 1 of 1 gradient"}}},
            {"budget", {{"deep", false}, {"skipped", {"perturbed trial small"}}}},
            {"load_no_cache", {{"ran", false}, {"reason", "only with --deep-verify"}}}};
    const nlohmann::json report = {{"schema", 1}, {"script", "/s.py"}, {"status", "ok"}, {"message", "m"},
        {"captures",
            {{{"name", "step"}, {"backend", "inductor"}, {"tracer", "make_fx"}, {"status", "ok"},
                {"violation", nullptr}, {"outcome", nullptr}, {"warnings", nlohmann::json::array()},
                {"artifact", nullptr}, {"verify", verify},
                {"timings_s", {{"load", 0.2}, {"call", 0.1}, {"call_eager", 0.1}}}}}}};
    auto run = std::make_shared<ps::ui::RunDocument>();
    run->report = ps::model::Report::fromJson(report);
    return run;
}

}  // namespace

TEST(UiVerifyView, ShowsTheVerdictBothErrorsAndWhatWasSkipped)
{
    ps::ui::VerifyView view;
    view.setCapture(driftRun(), 0);
    const QString s = view.summaryText();
    EXPECT_TRUE(s.contains("accuracy: numerics drift")) << s.toStdString();
    EXPECT_TRUE(s.contains("artifact 0.022, eager 2.7e-06 (8.1e+03×)")) << s.toStdString();
    EXPECT_TRUE(s.contains("worst: model.layer3.1.bn2.bias")) << s.toStdString();
    EXPECT_TRUE(s.contains("perturbed trial small, load without cache")) << s.toStdString();
    // the verdict, said once: drift, not a red cross
    EXPECT_TRUE(s.contains("Verdict: numerics drift")) << s.toStdString();
    EXPECT_TRUE(s.contains("gradients: ≈ numerics drift")) << s.toStdString();
    ASSERT_EQ(view.comparisonCount(), 1);
    auto* rows = view.findChild<QTreeWidget*>();
    ASSERT_NE(rows, nullptr);
    const QString note = rows->topLevelItem(0)->text(8);
    EXPECT_TRUE(note.contains("drift; against float64: artifact 0.022, eager 2.7e-06")) << note.toStdString();
    EXPECT_EQ(rows->topLevelItem(0)->text(4), "0.02");  // the RMS relative difference
    EXPECT_EQ(rows->topLevelItem(0)->text(2), "~ drift");
    // Without load_no_cache the load chart has one bar: load, call, call_eager.
    EXPECT_EQ(view.chartValues().size(), 3u);
}

TEST(UiVerifyView, AValueJudgedRoundingIsNoRedCrossBesideAVerdictOfMatches)
{
    // resnet18's training step: conv1.weight's gradient is outside the tight tolerance (max rel
    // diff 64 on near-zero elements) and the float64 judge calls it rounding.
    const nlohmann::json tensor = {{"name", "model.conv1.weight"}, {"kind", "grads"}, {"verdict", "matches"},
        {"eager_error", 0.021}, {"artifact_error", 0.021}, {"ratio", 1.0}};
    const nlohmann::json grad = {{"name", "model.conv1.weight"},
        {"result",
            {{"ok", false}, {"max_abs_diff", 3.5e-5}, {"max_rel_diff", 64.0}, {"rms_rel_diff", 1e-5},
                {"mismatched", 2}}}};
    const nlohmann::json out = {{"name", "call1.out[0]"}, {"result", {{"ok", true}, {"max_abs_diff", 0.0}}}};
    const nlohmann::json verify
        = {{"ran", true}, {"status", "ok"}, {"matches_eager", true}, {"within_tolerance", false}, {"grads_match", true},
            {"max_abs_diff", 3.5e-5}, {"max_rel_diff", 64.0}, {"calls", 1}, {"outputs", {out}}, {"grads", {grad}},
            {"accuracy",
                {{"verdict", "matches"}, {"reference", "float64"}, {"eager_error", 0.021}, {"artifact_error", 0.021},
                    {"ratio", 1.0}, {"worst", nlohmann::json::array()}, {"tensors", {tensor}},
                    {"message", "matches: ..."}}}};
    const nlohmann::json report = {{"schema", 1}, {"script", "/s.py"}, {"status", "ok"}, {"message", "m"},
        {"captures",
            {{{"name", "step"}, {"backend", "inductor"}, {"tracer", "make_fx"}, {"status", "ok"},
                {"violation", nullptr}, {"outcome", nullptr}, {"warnings", nlohmann::json::array()},
                {"artifact", nullptr}, {"verify", verify}, {"timings_s", {{"load", 0.2}}}}}}};
    auto run = std::make_shared<ps::ui::RunDocument>();
    run->report = ps::model::Report::fromJson(report);
    ps::ui::VerifyView view;
    view.setCapture(run, 0);
    const QString s = view.summaryText();
    EXPECT_TRUE(s.contains("Verdict: matches")) << s.toStdString();
    EXPECT_TRUE(s.contains("gradients: ✓ yes")) << s.toStdString();
    EXPECT_FALSE(s.contains("✗")) << s.toStdString();
    EXPECT_TRUE(s.contains("bit-for-bit: no, max |Δ| 3.5e-05, max rel Δ 64 at elements near zero")) << s.toStdString();
    EXPECT_TRUE(s.contains("rounding against float64")) << s.toStdString();
    // The judge's figure comes before the alarming-looking ratio.
    EXPECT_LT(s.indexOf("accuracy: matches"), s.indexOf("max rel Δ 64")) << s.toStdString();
    EXPECT_GE(s.indexOf("accuracy: matches"), 0) << s.toStdString();
    auto* rows = view.findChild<QTreeWidget*>();
    ASSERT_NE(rows, nullptr);
    ASSERT_EQ(rows->topLevelItemCount(), 2);
    EXPECT_EQ(rows->topLevelItem(0)->text(2), "✓");
    EXPECT_EQ(rows->topLevelItem(1)->text(2), "≈ rounding");
}

TEST(UiVerifyView, MarkedDimsAtOtherSizesSayEachTrialWithTheAcceptedOnesNote)
{
    const nlohmann::json resized = {{"ran", true}, {"diverged", true}, {"marks", nlohmann::json::array()},
        {"trials",
            {{{"kind", "other-sizes"}, {"sizes", "a dim 0 = 5, b dim 0 = 5"}, {"status", "ok"}},
                {{"kind", "unequal-sizes"}, {"sizes", "a dim 0 = 4, b dim 0 = 5"}, {"status", "accepted"},
                    {"note", "the artifact returned (4, 3) without an error, where eager fn raised RuntimeError"}}}}};
    const nlohmann::json report = {{"schema", 1}, {"script", "/s.py"}, {"status", "mismatch"}, {"message", "m"},
        {"captures",
            {{{"name", "fn"}, {"backend", "inductor"}, {"tracer", "make_fx"}, {"status", "mismatch"},
                {"violation", nullptr}, {"warnings", nlohmann::json::array()}, {"artifact", nullptr},
                {"verify", {{"ran", true}, {"status", "ok"}, {"matches_eager", true}, {"resized", resized}}},
                {"timings_s", {{"load", 0.2}}}}}}};
    auto run = std::make_shared<ps::ui::RunDocument>();
    run->report = ps::model::Report::fromJson(report);
    ps::ui::VerifyView view;
    view.setCapture(run, 0);
    const QString s = view.summaryText();
    EXPECT_TRUE(s.contains("marked dims at other sizes: other-sizes ok (a dim 0 = 5, b dim 0 = 5), unequal-sizes "
                           "accepted (a dim 0 = 4, b dim 0 = 5) — the artifact returned (4, 3) without an error"))
        << s.toStdString();
    ASSERT_TRUE(run->report.captures[0].verify->resized.has_value());
    EXPECT_TRUE(run->report.captures[0].verify->resized->diverged());
}
