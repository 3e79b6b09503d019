// The Violations tab speaks in the user's names: our one-line summary in the list (torch's words
// kept whole under Message), the chain from the user's line through the package frame to the
// torch op, and the run's own warnings when the script made no capture.
#include "ui/report/ViolationsView.h"
#include "ui/run/RunDocument.h"

#include <gtest/gtest.h>

namespace {

std::shared_ptr<const ps::ui::RunDocument> violationsRunOf(const nlohmann::json& report)
{
    auto run = std::make_shared<ps::ui::RunDocument>();
    run->report = ps::model::Report::fromJson(report);
    return run;
}

}  // namespace

TEST(UiViolationsView, AViolationInAPackageShowsOurSummaryAndItsChain)
{
    const nlohmann::json violation = {{"invariant", 3}, {"kind", "RuntimeError"}, {"rule", "data-dependent-value"},
        {"message",
            "It appears that you're trying to get value out of a tracing tensor; try setting "
            "tracing_mode='symbolic' in your make_fx call."},
        {"summary", "fn reads a traced tensor's value into Python inside tinylib 1.2.3"},
        {"fix", "Change what you control."}, {"location", {{"file", "/w/s.py"}, {"line", 9}}},
        {"chain",
            {{{"role", "user"}, {"file", "/w/s.py"}, {"line", 9}, {"code", "return model(x)"}},
                {{"role", "library"}, {"file", "/p/tinylib/ops.py"}, {"line", 4}, {"function", "normalise"},
                    {"code", "if x.sum() > 0:"}, {"package", "tinylib"}, {"version", "1.2.3"}},
                {{"role", "torch"}, {"op", "aten._local_scalar_dense.default"}}}}};
    ps::ui::ViolationsView view;
    view.setRun(violationsRunOf({{"schema", 1}, {"script", "/w/s.py"}, {"status", "violation"}, {"message", "m"},
        {"captures",
            {{{"name", "fn"}, {"backend", "eager"}, {"tracer", "make_fx"}, {"status", "violation"},
                {"violation", violation}, {"artifact", nullptr}}}}}));
    ASSERT_EQ(view.count(), 1);
    const QString details = view.detailsText();
    EXPECT_TRUE(details.contains("fn reads a traced tensor's value into Python inside tinylib 1.2.3"))
        << details.toStdString();
    EXPECT_TRUE(details.contains("s.py:9: return model(x)")) << details.toStdString();
    EXPECT_TRUE(details.contains("tinylib 1.2.3 · ops.py:4 in normalise: if x.sum() > 0:")) << details.toStdString();
    EXPECT_TRUE(details.contains("aten._local_scalar_dense.default")) << details.toStdString();
    // torch's advice is kept, whole, under Message, and only there.
    EXPECT_TRUE(details.contains("make_fx call")) << details.toStdString();
    EXPECT_EQ(view.listText(0, 4), QStringLiteral("fn reads a traced tensor's value into Python inside tinylib 1.2.3"));
}

TEST(UiViolationsView, TheRunsOwnWarningsAreListedWhenItHasNoCapture)
{
    ps::ui::ViolationsView view;
    view.setRun(violationsRunOf({{"schema", 1}, {"script", "/w/load_only.py"}, {"status", "ok"}, {"message", ""},
        {"captures", nlohmann::json::array()},
        {"warnings",
            {{{"invariant", 7}, {"rule", "cache-fallback-to-jit"}, {"where", "script"},
                {"message", "the cache could not be read; running without it"},
                {"location", {{"file", "/w/load_only.py"}, {"line", 12}}}}}}}));
    ASSERT_EQ(view.count(), 1);
    EXPECT_EQ(view.entries()[0].severity, ps::model::Severity::Warning);
    EXPECT_EQ(view.entries()[0].line, 12);
    EXPECT_EQ(view.listText(0, 3), QStringLiteral("cache-fallback-to-jit"));
}
