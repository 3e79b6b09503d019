// The human-readable output of `run` and `lessons run` is terminal-safe: text that came from a
// script (a message, a name, a path, a violation) cannot retitle or clear the terminal, while
// the JSON report keeps it exactly.
#include "commands/ReportPrinter.h"
#include "commands/LessonTable.h"
#include "model/Report.h"

#include <gtest/gtest.h>

#include <sstream>

using ps::commands::LessonTable;
using ps::commands::ReportPrinter;
using ps::model::Report;

namespace {

const std::string kTitle = "\x1b]0;pwned\x07";  // OSC 0: sets the terminal's title
const std::string kClear = "\x1b[2J";           // CSI 2 J: clears the screen

bool hasControl(const std::string& text)
{
    for (unsigned char c : text)
        if ((c < 0x20 && c != '\n') || c == 0x7f)
            return true;
    return false;
}

nlohmann::json hostileReport()
{
    const nlohmann::json violation = {{"invariant", 1}, {"kind", "PrecompileError"}, {"rule", "rule" + kClear},
        {"message", "bad" + kTitle + "\nsecond"}, {"fix", "fix" + kClear},
        {"location", {{"file", "/s" + kTitle + ".py"}, {"line", 7}}}};
    return {{"schema", 1}, {"script", "/tmp/" + kTitle + "s.py"}, {"status", "violation"},
        {"message", "raised " + kTitle + " then " + kClear + " done"},
        {"violation", {{"rule", "top" + kClear}, {"fix", "top fix" + kTitle}}},
        {"captures",
            {{{"name", "fn" + kClear}, {"backend", "eager" + kTitle}, {"tracer", "make_fx"}, {"status", "violation"},
                {"violation", violation}, {"warnings", {violation}}, {"artifact", nullptr}}}}};
}

}  // namespace

TEST(ReportPrinter, ScriptTextInTheSummaryIsEscaped)
{
    const nlohmann::json j = hostileReport();
    Report report = Report::fromJson(j);
    report.storeError = "cannot store in /lib" + kClear;
    const std::string summary = ReportPrinter::summary(report);
    EXPECT_FALSE(hasControl(summary)) << summary;
    EXPECT_NE(summary.find("raised \\x1b]0;pwned\\x07 then \\x1b[2J done"), std::string::npos) << summary;
    EXPECT_NE(summary.find("/tmp/\\x1b]0;pwned\\x07s.py: violation"), std::string::npos) << summary;
    EXPECT_NE(summary.find("fn\\x1b[2J  [eager\\x1b]0;pwned\\x07, make_fx]  violation"), std::string::npos) << summary;
    EXPECT_NE(summary.find("not stored: cannot store in /lib\\x1b[2J"), std::string::npos) << summary;
    EXPECT_NE(summary.find("rule: rule\\x1b[2J"), std::string::npos) << summary;
    // The JSON report stays exact.
    EXPECT_EQ(report.toJson()["message"], j["message"]);
    EXPECT_EQ(report.toJson()["captures"][0]["name"], "fn" + kClear);
}

TEST(ReportPrinter, PrintableTextIsKept)
{
    nlohmann::json j = hostileReport();
    j["message"] = "Größe ≠ 形状 🙂\nline two";
    const std::string summary = ReportPrinter::summary(Report::fromJson(j));
    EXPECT_NE(summary.find(": Größe ≠ 形状 🙂\nline two\n"), std::string::npos) << summary;
}

TEST(ReportPrinter, InternalErrorsAreOneLineAfterTheFirstAndNotTheExitCode)
{
    nlohmann::json j = {{"schema", 1}, {"script", "/tmp/s.py"}, {"status", "ok"}, {"message", "1 capture ok"},
        {"captures", nlohmann::json::array()}, {"internal_errors", nlohmann::json::array()}};
    EXPECT_EQ(ReportPrinter::summary(Report::fromJson(j)).find("internal errors"), std::string::npos);
    j["internal_errors"] = {{{"where", "checker: closed-over scalars"}, {"error", "RuntimeError: x"},
                                {"at", "precompile_studio/contract/checker.py:9"}, {"count", 2}},
        {{"where", "probe: placing a traced node"}, {"error", "KeyError: 'a'"}, {"at", ""}, {"count", 1}}};
    const Report report = Report::fromJson(j);
    const std::string summary = ReportPrinter::summary(report);
    const auto at
        = summary.find("\n  internal errors: 3 (a studio bug, not your script: see internal_errors in the report)\n");
    EXPECT_NE(at, std::string::npos) << summary;
    EXPECT_EQ(summary.substr(0, summary.find('\n')).find("internal"), std::string::npos) << summary;
    EXPECT_EQ(report.exitCode(), 0);
}

TEST(LessonTable, CellsAreEscapedBeforeTheyAreWrapped)
{
    LessonTable::Row row{"status", {{"ok" + kTitle}, {"violation: " + kClear + " cleared"}}};
    std::ostringstream out;
    const double seconds[2] = {1.0, 2.0};
    LessonTable::print(out, {row}, seconds);
    const std::string table = out.str();
    EXPECT_FALSE(hasControl(table)) << table;
    EXPECT_NE(table.find("ok\\x1b]0;pwned\\x07"), std::string::npos) << table;
    EXPECT_NE(table.find("violation: \\x1b[2J cleared"), std::string::npos) << table;
}

TEST(ReportPrinter, TheRunsOwnWarningsArePrintedWhenItHasNoCapture)
{
    // A script that only loads a pair (no precompile of its own): torch._precompile's warning
    // that it fell back to JIT is the run's, at the script's line.
    const nlohmann::json j = {{"schema", 1}, {"script", "/w/load_only.py"}, {"status", "ok"}, {"message", ""},
        {"captures", nlohmann::json::array()},
        {"warnings",
            {{{"invariant", 7}, {"rule", "cache-fallback-to-jit"}, {"where", "script"},
                {"message", "the cache could not be read; running without it\nmore"},
                {"fix", "Precompile again with this torch."},
                {"location", {{"file", "/w/load_only.py"}, {"line", 12}}}}}}};
    const std::string summary = ReportPrinter::summary(Report::fromJson(j));
    EXPECT_NE(summary.find("  warning (invariant 7) cache-fallback-to-jit: /w/load_only.py:12: the cache could "
                           "not be read; running without it\n"),
        std::string::npos)
        << summary;
    EXPECT_NE(summary.find("    fix: Precompile again with this torch.\n"), std::string::npos) << summary;
}

TEST(ReportPrinter, AViolationInAPackageReadsInOurWordsWithItsChain)
{
    const nlohmann::json violation = {{"invariant", 3}, {"kind", "RuntimeError"}, {"rule", "data-dependent-value"},
        {"message",
            "It appears that you're trying to get value out of a tracing tensor; try setting "
            "tracing_mode='symbolic' in your make_fx call."},
        {"summary", "fn reads a traced tensor's value into Python inside tinylib 1.2.3"},
        {"location", {{"file", "/w/s.py"}, {"line", 9}}},
        {"chain",
            {{{"role", "user"}, {"file", "/w/s.py"}, {"line", 9}, {"code", "return model(x)"}},
                {{"role", "library"}, {"file", "/p/tinylib/ops.py"}, {"line", 4}, {"function", "normalise"},
                    {"code", "if x.sum() > 0:"}, {"package", "tinylib"}, {"version", "1.2.3"}},
                {{"role", "torch"}, {"op", "aten._local_scalar_dense.default"}}}}};
    const nlohmann::json j = {{"schema", 1}, {"script", "/w/s.py"}, {"status", "violation"}, {"message", "m"},
        {"captures",
            {{{"name", "fn"}, {"backend", "eager"}, {"tracer", "make_fx"}, {"status", "violation"},
                {"violation", violation}, {"artifact", nullptr}}}}};
    const std::string summary = ReportPrinter::summary(Report::fromJson(j));
    EXPECT_NE(summary.find("/w/s.py:9: invariant 3: RuntimeError: fn reads a traced tensor's value into Python "
                           "inside tinylib 1.2.3\n"),
        std::string::npos)
        << summary;
    EXPECT_EQ(summary.find("make_fx call"), std::string::npos) << summary;
    EXPECT_NE(summary.find("    via: /w/s.py:9: return model(x)\n"
                           "         tinylib 1.2.3 /p/tinylib/ops.py:4 in normalise: if x.sum() > 0:\n"
                           "         aten._local_scalar_dense.default\n"),
        std::string::npos)
        << summary;
}

TEST(ReportPrinter, MarkedDimsAtOtherSizesArePrintedTrialByTrial)
{
    const nlohmann::json resized = {{"ran", true}, {"diverged", false}, {"marks", nlohmann::json::array()},
        {"trials",
            {{{"kind", "other-sizes"}, {"sizes", "x dim 0 = 7"}, {"status", "ok"}},
                {{"kind", "shared-unequal"}, {"sizes", "a dim 0 = 4, b dim 0 = 5"}, {"status", "ok"}}}}};
    const nlohmann::json j = {{"schema", 1}, {"script", "/w/s.py"}, {"status", "ok"}, {"message", "1 capture ok"},
        {"captures",
            {{{"name", "fn"}, {"backend", "inductor"}, {"tracer", "make_fx"}, {"status", "ok"}, {"violation", nullptr},
                {"warnings", nlohmann::json::array()},
                {"verify", {{"ran", true}, {"status", "ok"}, {"matches_eager", true}, {"resized", resized}}}}}}};
    const std::string summary = ReportPrinter::summary(Report::fromJson(j));
    EXPECT_NE(
        summary.find("    marked dims: other-sizes ok (x dim 0 = 7), shared-unequal ok (a dim 0 = 4, b dim 0 = 5)\n"),
        std::string::npos)
        << summary;
}
