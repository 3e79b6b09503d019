#include "share/JunitReport.h"

#include <gtest/gtest.h>
#include <nlohmann/json.hpp>

#include <filesystem>
#include <fstream>
#include <regex>
#include <set>
#include <unistd.h>

using nlohmann::json;
using ps::model::Report;
using ps::share::JunitReport;

namespace {

// Reports as the worker writes them (the schema-1 JSON), read by the model as `run` reads them.
Report report(json j)
{
    j["schema"] = 1;
    return Report::fromJson(j);
}

json violationCapture()
{
    return {{"name", "head"}, {"status", "violation"}, {"backend", "eager"}, {"tracer", "make_fx"},
        {"timings_s", {{"script", 0.5}, {"precompile", 0.25}}},
        {"violation",
            {{"invariant", 1}, {"rule", "constant-tensor"}, {"kind", "PrecompileError"},
                {"summary", "fn reads the global `offset`"}, {"message", "precompile traced a tensor"},
                {"fix", "Pass `offset` to fn as an argument."},
                {"location", {{"file", "/no/such/dir/v.py"}, {"line", 21}}}}}};
}

json okCapture(const std::string& name)
{
    return {{"name", name}, {"status", "ok"}, {"backend", "eager"}, {"tracer", "make_fx"},
        {"timings_s", {{"script", 9.0}, {"precompile", 0.1}, {"load", 0.02}, {"call", 0.003}, {"call_eager", 0.004}}},
        {"verify", {{"ran", true}, {"status", "ok"}}}};
}

// The elements of one kind in a document (the writer's own layout: one element a line).
int occurrences(const std::string& xml, const std::string& what)
{
    int n = 0;
    for (auto at = xml.find(what); at != std::string::npos; at = xml.find(what, at + 1))
        ++n;
    return n;
}

// A file of the test's own, removed at the end.
struct TempFile {
    std::filesystem::path path;
    explicit TempFile(const std::string& text)
        : path(std::filesystem::temp_directory_path() / ("junit-test-" + std::to_string(::getpid()) + ".py"))
    {
        std::ofstream(path) << text;
    }
    ~TempFile() { std::filesystem::remove(path); }
};

}  // namespace

TEST(JunitReport, AViolationIsAFailureWithItsSourceLineAndFix)
{
    TempFile script(
        "import torch\n\n\nclass Head:\n    def forward(self, x):\n        return self.lin(x) + offset   \n");
    json capture = violationCapture();
    capture["violation"]["location"]["file"] = script.path.string();
    capture["violation"]["location"]["line"] = 6;
    JunitReport junit;
    junit.add("examples/v.py",
        report({{"script", script.path.string()}, {"status", "violation"}, {"message", "a violation"},
            {"captures", {capture}}}));
    const std::string xml = junit.xml();
    EXPECT_EQ(junit.tests(), 1);
    EXPECT_EQ(junit.failures(), 1);
    EXPECT_EQ(junit.errors(), 0);
    EXPECT_EQ(occurrences(xml, "<failure "), 1);
    EXPECT_EQ(occurrences(xml, "<error "), 0);
    EXPECT_NE(xml.find(R"(<testcase name="head" classname="examples/v.py" time="0.250">)"), std::string::npos) << xml;
    // the message: where and what, one line; the text: the line with its code, the finding, the fix
    EXPECT_NE(xml.find("message=\"" + script.path.string()
                  + ":6: invariant 1: PrecompileError: fn reads the global "
                    "`offset`\""),
        std::string::npos)
        << xml;
    EXPECT_NE(xml.find(script.path.string() + ":6  return self.lin(x) + offset\n"), std::string::npos) << xml;
    EXPECT_NE(xml.find("invariant 1, rule constant-tensor, PrecompileError, at capture"), std::string::npos) << xml;
    EXPECT_NE(xml.find("fix: Pass `offset` to fn as an argument."), std::string::npos) << xml;
    EXPECT_NE(xml.find("torch: precompile traced a tensor"), std::string::npos) << xml;
    // totals on testsuites and the suite
    EXPECT_NE(xml.find(R"(<testsuites name="precompile-studio run" tests="1" failures="1" errors="0" time="0.250">)"),
        std::string::npos)
        << xml;
    EXPECT_NE(xml.find(R"(<testsuite name="examples/v.py" tests="1" failures="1" errors="0" skipped="0" time="0.250")"),
        std::string::npos)
        << xml;
    EXPECT_NE(xml.find(R"(<property name="exit_code" value="1"/>)"), std::string::npos) << xml;
}

TEST(JunitReport, AnUnreadableSourceLineIsLeftOutNotInvented)
{
    JunitReport junit;
    junit.add(
        "v.py", report({{"script", "/no/such/dir/v.py"}, {"status", "violation"}, {"captures", {violationCapture()}}}));
    const std::string xml = junit.xml();
    EXPECT_NE(xml.find(">/no/such/dir/v.py:21\nfn reads the global"), std::string::npos) << xml;
}

TEST(JunitReport, TheSourceLineComesFromTheViolationsChainFirst)
{
    json capture = violationCapture();
    capture["violation"]["chain"]
        = json::array({{{"role", "user"}, {"file", "/no/such/dir/v.py"}, {"line", 21}, {"code", "return x + offset"}}});
    int asked = 0;
    JunitReport junit([&](const std::string&, int) -> std::optional<std::string> {
        ++asked;
        return "not this";
    });
    junit.add("v.py", report({{"script", "/no/such/dir/v.py"}, {"status", "violation"}, {"captures", {capture}}}));
    EXPECT_NE(junit.xml().find("/no/such/dir/v.py:21  return x + offset\n"), std::string::npos) << junit.xml();
    EXPECT_EQ(asked, 0);
}

TEST(JunitReport, OkCapturesPassWithTheirTimeInSeconds)
{
    JunitReport junit;
    junit.add("ok.py",
        report(
            {{"script", "/w/ok.py"}, {"status", "ok"}, {"captures", {okCapture("forward"), okCapture("backward")}}}));
    const std::string xml = junit.xml();
    EXPECT_EQ(junit.tests(), 2);
    EXPECT_EQ(junit.failures() + junit.errors(), 0);
    // precompile + load + call + call_eager; the script's import (shared by its captures) is not counted
    EXPECT_NE(xml.find(R"(<testcase name="forward" classname="ok.py" time="0.127"/>)"), std::string::npos) << xml;
    EXPECT_NE(xml.find(R"(<testcase name="backward" classname="ok.py" time="0.127"/>)"), std::string::npos) << xml;
    EXPECT_NE(
        xml.find(R"(tests="2" failures="0" errors="0" skipped="0" time="0.254" file="/w/ok.py">)"), std::string::npos)
        << xml;
}

TEST(JunitReport, NumericsDriftPassesWithANote)
{
    json capture = okCapture("step");
    capture["verify"] = {{"ran", true}, {"status", "drift"},
        {"accuracy",
            {{"verdict", "numerics drift"}, {"artifact_error", 0.012}, {"eager_error", 5.9e-6}, {"ratio", 2034.0},
                {"drift_starts", {"native_batch_norm_backward_4"}}}}};
    JunitReport junit;
    junit.add("drift.py", report({{"script", "/w/drift.py"}, {"status", "ok"}, {"captures", {capture}}}));
    const std::string xml = junit.xml();
    EXPECT_EQ(junit.failures() + junit.errors(), 0);
    EXPECT_EQ(occurrences(xml, "<system-out>numerics drift: "), 1) << xml;
    EXPECT_NE(
        xml.find("against float64: artifact 0.012, eager 5.9e-06, 2e+03x; starts at native_batch_norm_backward_4"),
        std::string::npos)
        << xml;
}

TEST(JunitReport, AMismatchIsAFailureNamingWhatDiffers)
{
    json capture = okCapture("train");
    capture["status"] = "mismatch";
    capture["outcome"] = {{"where", "verify"}, {"kind", "Mismatch"}, {"message", "outputs differ from eager"}};
    capture["verify"] = {{"ran", true}, {"status", "mismatch"},
        {"outputs",
            {{{"name", "loss"}, {"result", {{"ok", false}, {"max_abs_diff", 0.5}, {"mismatched", 1}}}},
                {{"name", "logits"}, {"result", {{"ok", true}}}}}}};
    JunitReport junit;
    junit.add("mm.py", report({{"script", "/w/mm.py"}, {"status", "mismatch"}, {"captures", {capture}}}));
    const std::string xml = junit.xml();
    EXPECT_EQ(junit.failures(), 1);
    EXPECT_NE(
        xml.find(R"(<failure type="mismatch" message="mismatch against eager: Mismatch: outputs differ from eager">)"),
        std::string::npos)
        << xml;
    EXPECT_NE(xml.find("differs: loss, max abs diff 0.5, 1 elements outside tolerance\n"), std::string::npos) << xml;
    EXPECT_EQ(xml.find("differs: logits"), std::string::npos) << xml;
}

TEST(JunitReport, ACaptureErrorIsAnErrorWithItsTraceback)
{
    json capture = okCapture("broken");
    capture["status"] = "error";
    capture["outcome"] = {{"where", "capture"}, {"kind", "TypeError"}, {"message", "unsupported operand"},
        {"traceback", "Traceback (most recent call last):\n  File \"x.py\", line 3\nTypeError: unsupported operand\n"}};
    JunitReport junit;
    junit.add("e.py", report({{"script", "/w/e.py"}, {"status", "error"}, {"captures", {capture}}}));
    const std::string xml = junit.xml();
    EXPECT_EQ(junit.errors(), 1);
    EXPECT_EQ(junit.failures(), 0);
    EXPECT_EQ(junit.tests(), 1);  // the run's exit code (1) is carried by the capture's case
    EXPECT_NE(xml.find(R"(<error type="error" message="TypeError: unsupported operand">)"), std::string::npos) << xml;
    EXPECT_NE(xml.find("Traceback (most recent call last):\n  File &quot;x.py&quot;, line 3"), std::string::npos)
        << xml;
}

TEST(JunitReport, AScriptThatFailedBeforeAnyCaptureIsOneErrorCase)
{
    JunitReport junit;
    junit.add("tests/raises.py",
        report({{"script", "/w/tests/raises.py"}, {"status", "error"}, {"captures", json::array()},
            {"message", "/w/tests/raises.py:2: RuntimeError: the data folder is missing"},
            {"error",
                {{"kind", "RuntimeError"}, {"message", "the data folder is missing"},
                    {"location", {{"file", "/w/tests/raises.py"}, {"line", 2}}},
                    {"traceback",
                        "Traceback (most recent call last):\nRuntimeError: the data folder is missing\n"}}}}));
    const std::string xml = junit.xml();
    EXPECT_EQ(junit.tests(), 1);
    EXPECT_EQ(junit.errors(), 1);
    EXPECT_NE(xml.find(R"(<testcase name="raises.py" classname="tests/raises.py" time="0.000">)"), std::string::npos)
        << xml;
    EXPECT_NE(
        xml.find(
            R"(<error type="error" message="no capture: /w/tests/raises.py:2: RuntimeError: the data folder is missing">)"),
        std::string::npos)
        << xml;
    EXPECT_NE(xml.find("Traceback (most recent call last):"), std::string::npos) << xml;
}

TEST(JunitReport, ARunThatStoppedAfterItsCapturesGetsAnErrorCaseOfItsOwn)
{
    JunitReport junit;
    junit.add("slow.py",
        report({{"script", "/w/slow.py"}, {"status", "timeout"}, {"message", "the worker was killed after 600 s"},
            {"captures", {okCapture("first")}}}));
    const std::string xml = junit.xml();
    EXPECT_EQ(junit.tests(), 2);
    EXPECT_EQ(junit.errors(), 1);
    EXPECT_NE(xml.find(R"(<error type="timeout" message="the worker was killed after 600 s">)"), std::string::npos)
        << xml;
}

TEST(JunitReport, ARunNotStoredIsNotGreen)
{
    json j = {{"script", "/w/ok.py"}, {"status", "ok"}, {"captures", {okCapture("forward")}}};
    Report r = report(j);
    r.storeError = "the library is read-only";
    JunitReport junit;
    junit.add("ok.py", r);
    EXPECT_EQ(r.exitCode(), 3);
    EXPECT_EQ(junit.errors(), 1);
    EXPECT_NE(junit.xml().find(
                  R"(<error type="not_stored" message="the run was ok but not stored: the library is read-only">)"),
        std::string::npos)
        << junit.xml();
}

TEST(JunitReport, SeveralRunsAddUpAndTheirTextIsEscaped)
{
    json bad = okCapture("a<b & \"c\"\x1b[31m");
    JunitReport junit;
    junit.add("one.py", report({{"script", "/w/one.py"}, {"status", "ok"}, {"captures", {bad}}}));
    junit.add("two.py", report({{"script", "/w/two.py"}, {"status", "violation"}, {"captures", {violationCapture()}}}));
    const std::string xml = junit.xml();
    EXPECT_EQ(occurrences(xml, "<testsuite "), 2);
    EXPECT_NE(
        xml.find(R"(<testsuites name="precompile-studio run" tests="2" failures="1" errors="0")"), std::string::npos);
    EXPECT_NE(xml.find("name=\"a&lt;b &amp; &quot;c&quot;\xEF\xBF\xBD[31m\""), std::string::npos) << xml;
    EXPECT_EQ(xml.find('\x1b'), std::string::npos);
    // nothing between the elements but the writer's own markup: every < opens one of ours
    const std::regex tag("<(/?)([a-z-]+|\\?xml)");
    std::set<std::string> names;
    for (std::sregex_iterator it(xml.begin(), xml.end(), tag), end; it != end; ++it)
        names.insert((*it)[2]);
    EXPECT_EQ(names,
        (std::set<std::string>{"?xml", "testsuites", "testsuite", "properties", "property", "testcase", "failure"}));
}

TEST(JunitReport, WriteSaysWhyAFileCannotBeWritten)
{
    JunitReport junit;
    EXPECT_EQ(junit.write("/no/such/dir/out.xml"), "cannot write /no/such/dir/out.xml");
    const auto path = std::filesystem::temp_directory_path() / ("junit-" + std::to_string(::getpid()) + ".xml");
    EXPECT_EQ(junit.write(path.string()), "");
    std::ifstream in(path);
    std::string text((std::istreambuf_iterator<char>(in)), std::istreambuf_iterator<char>());
    EXPECT_EQ(text, junit.xml());
    EXPECT_NE(text.find(R"(<testsuites name="precompile-studio run" tests="0" failures="0" errors="0" time="0.000">)"),
        std::string::npos);
    std::filesystem::remove(path);
}

TEST(JunitReport, ARuntimeShapeRejectionNamesTheGuardBehindIt)
{
    json capture = violationCapture();
    capture.erase("violation");
    capture["outcome"] = {{"where", "runtime"}, {"invariant", 3}, {"rule", "input-shape"}, {"kind", "PrecompileError"},
        {"summary", "the artifact rejects these sizes"}};
    capture["specialisation"] = {{"status", "found"},
        {"guards",
            {{{"expr", "x.shape[0] <= 2"}, {"false_at_runtime", true},
                {"location", {{"file", "/w/wrong.py"}, {"line", 7}, {"code", "if x.shape[0] > 2:"}}}}}}};
    JunitReport junit;
    junit.add("wrong.py", report({{"script", "/w/wrong.py"}, {"status", "violation"}, {"captures", {capture}}}));
    const std::string xml = junit.xml();
    EXPECT_EQ(junit.failures(), 1);
    EXPECT_NE(xml.find("invariant 3, rule input-shape, PrecompileError, at runtime\n"), std::string::npos) << xml;
    EXPECT_NE(xml.find("shape guard: x.shape[0] &lt;= 2, false at the runtime sizes, at wrong.py:7: if x.shape[0] "
                       "&gt; 2:\n"),
        std::string::npos)
        << xml;
}
