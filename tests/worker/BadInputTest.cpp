// Every kind of bad input of the [foundation] issue, through the real worker process: a
// one-line cause naming the file and line where there is one, the right exit code, no hang.
#include "StudioRun.h"

#include <gtest/gtest.h>

#include <cstdlib>
#include <fstream>
#include <iterator>
#include <string>

using namespace ps::test;

namespace {

std::string message(const StudioRun& r)
{
    return r.report.value("message", "");
}

void expectScriptError(const StudioRun& r, const std::string& needle, int line = 0)
{
    EXPECT_EQ(r.process.exitCode, 2) << r.process.err;
    EXPECT_EQ(r.report["status"], "error");
    EXPECT_NE(message(r).find(needle), std::string::npos) << message(r);
    EXPECT_EQ(message(r).find('\n'), std::string::npos) << "the cause is one line: " << message(r);
    if (line > 0) {
        const std::string script = r.report["script"];
        EXPECT_NE(message(r).find(script + ":" + std::to_string(line) + ":"), std::string::npos) << message(r);
    }
}

}  // namespace

TEST(BadInput, SyntaxError)
{
    expectScriptError(runStudio(fixture("syntax_error.py")), "SyntaxError: expected ':'", 3);
}

TEST(BadInput, EmptyFile)
{
    const auto r = runStudio(fixture("empty.py"));
    expectScriptError(r, "empty.py is empty");
}

TEST(BadInput, NotUtf8)
{
    expectScriptError(runStudio(fixture("not_utf8.py")), "not UTF-8 text: byte 0xe9 at offset 8", 1);
}

TEST(BadInput, BinaryFile)
{
    TempDir dir;
    const auto path = dir.write("blob.py",
        std::string("x = 1\n\x7f"
                    "ELF\x00\x01\x02",
            12));
    expectScriptError(runStudio(path), "binary file, not a Python script", 2);
}

TEST(BadInput, NoFn)
{
    expectScriptError(runStudio(fixture("no_fn.py")), "the script defines no `fn`");
}

TEST(BadInput, FnNotCallable)
{
    expectScriptError(runStudio(fixture("fn_not_callable.py")), "`fn` is not callable: it is an int", 2);
}

TEST(BadInput, ExampleInputsOfTheWrongType)
{
    expectScriptError(runStudio(fixture("bad_inputs_type.py")), "example_inputs must be a tuple or list", 6);
}

TEST(BadInput, ExceptionInsideFn)
{
    const auto r = runStudio(fixture("raises_in_fn.py"), {"--backend", "eager"});
    EXPECT_EQ(r.process.exitCode, 1) << r.process.err;
    EXPECT_EQ(r.report["status"], "error");
    ASSERT_EQ(r.report["captures"].size(), 1u);
    const auto& c = r.report["captures"][0];
    EXPECT_EQ(c["status"], "error");
    EXPECT_EQ(c["violation"]["kind"], "ValueError");
    EXPECT_EQ(c["violation"]["message"], "fn gave up on purpose");
    EXPECT_EQ(c["violation"]["location"]["line"], 6);
    EXPECT_EQ(c["violation"]["location"]["file"], r.report["script"]);
    EXPECT_NE(message(r).find("raises_in_fn.py:6: ValueError: fn gave up on purpose"), std::string::npos) << message(r);
}

TEST(BadInput, SysExit)
{
    expectScriptError(runStudio(fixture("calls_sys_exit.py")), "the script called sys.exit(5)", 3);
}

TEST(BadInput, OsExitReportsTheStatus)
{
    const auto r = runStudio(fixture("calls_os_exit.py"));
    EXPECT_EQ(r.process.exitCode, 2);
    EXPECT_EQ(r.report["status"], "worker_died");
    EXPECT_NE(message(r).find("exited with status 3"), std::string::npos) << message(r);
}

TEST(BadInput, SegfaultNamesTheSignalAndTheLine)
{
    const auto r = runStudio(fixture("segfaults.py"));
    EXPECT_EQ(r.process.exitCode, 2);
    EXPECT_EQ(r.report["status"], "worker_died");
    EXPECT_NE(message(r).find("SIGSEGV"), std::string::npos) << message(r);
    EXPECT_EQ(r.report["location"]["line"], 10) << r.report.dump();
}

TEST(BadInput, EndlessLoopIsKilledByTheTimeout)
{
    const auto r = runStudio(fixture("endless_loop.py"), {"--timeout", "12"});
    EXPECT_EQ(r.process.exitCode, 2);
    EXPECT_EQ(r.report["status"], "timeout");
    EXPECT_NE(message(r).find("timeout of 12 s"), std::string::npos) << message(r);
    EXPECT_LT(r.seconds, 40.0);
}

TEST(BadInput, FiftyMegabytesOfOutputStayBoundedAndTheRunSucceeds)
{
    const auto r = runStudio(fixture("floods_output.py"));
    EXPECT_EQ(r.process.exitCode, 0) << message(r);
    EXPECT_EQ(r.report["status"], "ok");
    EXPECT_GE(r.report["log"]["bytes"].get<std::uint64_t>(), 50u * 1024 * 1024);
    EXPECT_GT(r.report["log"]["dropped_bytes"].get<std::uint64_t>(), 0u);
    EXPECT_LT(r.process.err.size(), 2u * 1024 * 1024) << "the echo to the terminal is bounded too";
}

TEST(BadInput, NonDaemonThreadDoesNotKeepTheRunAlive)
{
    const auto r = runStudio(fixture("leaves_thread.py"));
    EXPECT_EQ(r.process.exitCode, 0) << message(r);
    EXPECT_EQ(r.report["status"], "ok");
    EXPECT_LT(r.seconds, 120.0);
}

TEST(BadInput, MissingStudioEnvironmentSaysWhichCommandMakesIt)
{
    TempDir dir;
    ::setenv("PS_PYTHON_ENV", dir.file("absent").c_str(), 1);
    const auto r = runStudio(example("mlp_inference.py"));
    ::unsetenv("PS_PYTHON_ENV");
    EXPECT_EQ(r.process.exitCode, 2);
    EXPECT_NE(message(r).find("Python environment is missing"), std::string::npos) << message(r);
    EXPECT_NE(message(r).find("packaging/bootstrap.sh"), std::string::npos) << message(r);
    EXPECT_EQ(r.report["start_failure"], "environment") << r.report.dump();
}

TEST(BadInput, TheUserEnvironmentOptionWorksBeforeAndAfterTheSubcommand)
{
    TempDir dir;
    for (bool before : {true, false}) {
        const std::vector<std::string> option = {"--python-env", dir.file("absent")};
        const auto r = before ? runStudio(example("mlp_inference.py"), {}, option)
                              : runStudio(example("mlp_inference.py"), option);
        EXPECT_EQ(r.process.exitCode, 2) << r.process.err;
        EXPECT_EQ(r.report["start_failure"], "environment") << r.report.dump();
        EXPECT_NE(message(r).find("absent does not exist"), std::string::npos) << message(r);
    }
}

// A script that writes frames that are not the protocol into the worker's channel ends its run
// with status protocol_error and a message that says what was wrong; the front end never dies.
class ChannelWriter : public ::testing::TestWithParam<const char*> { };

namespace {

// writes_to_channel.py with its FRAME set to `frame`, in `dir`.
std::string channelWriter(const TempDir& dir, const std::string& frame)
{
    std::ifstream in(fixture("writes_to_channel.py"));
    std::string text((std::istreambuf_iterator<char>(in)), std::istreambuf_iterator<char>());
    const std::string line = "FRAME = \"not-json\"";
    const auto at = text.find(line);
    EXPECT_NE(at, std::string::npos) << "writes_to_channel.py no longer sets " << line;
    if (at != std::string::npos)
        text.replace(at, line.size(), "FRAME = \"" + frame + "\"");
    return dir.write("writes_to_channel.py", text);
}

}  // namespace

TEST_P(ChannelWriter, EndsTheRunWithAProtocolErrorNeverACrash)
{
    TempDir dir;
    const auto r = runStudio(channelWriter(dir, GetParam()), {"--timeout", "120"});
    EXPECT_EQ(r.process.exitCode, 2) << r.process.err.substr(0, 2000);
    EXPECT_EQ(r.report["status"], "protocol_error") << r.report.dump(2).substr(0, 2000);
    EXPECT_NE(message(r).find("stage 'script'"), std::string::npos) << message(r);
}

TEST(ChannelWriterAfterResult, JunkAfterAResultNeverKillsTheFrontEnd)
{
    TempDir dir;
    const auto r = runStudio(channelWriter(dir, "result-then-junk"), {"--timeout", "120"});
    EXPECT_EQ(r.process.exitCode, 2) << r.process.err.substr(0, 2000);
    EXPECT_EQ(r.report["status"], "error") << r.report.dump(2).substr(0, 2000);
}

INSTANTIATE_TEST_SUITE_P(BadFrames, ChannelWriter,
    ::testing::Values("not-json", "array", "stage-number", "result-without-report", "result-number-report",
        "unknown-type", "huge-length"),
    [](const auto& info) {
        std::string name = info.param;
        for (auto& c : name)
            if (c == '-')
                c = '_';
        return name;
    });

TEST(BadInput, MissingScript)
{
    const auto r = runStudio("/nonexistent/script.py");
    EXPECT_EQ(r.process.exitCode, 2);
    EXPECT_NE(message(r).find("no such file: /nonexistent/script.py"), std::string::npos) << message(r);
}

TEST(BadInput, UsageErrorExitsTwo)
{
    const auto p = runProcess({PS_TEST_STUDIO, "run"});
    EXPECT_EQ(p.exitCode, 2);
    EXPECT_NE(p.err.find("script"), std::string::npos) << p.err;
}

// The schema check the worker suites run on every report can fail: a report it does not
// describe is refused, naming the field.
TEST(ReportSchema, RefusesAReportItDoesNotDescribe)
{
    const auto ok = runStudio(fixture("no_fn.py"));
    ASSERT_TRUE(ok.report.is_object());
    auto bad = ok.report;
    bad["status"] = "okay";
    EXPECT_NE(schemaProblems(bad).find("status"), std::string::npos) << schemaProblems(bad);
    bad = ok.report;
    bad["stored"] = "yes";
    EXPECT_NE(schemaProblems(bad).find("stored"), std::string::npos) << schemaProblems(bad);
}
