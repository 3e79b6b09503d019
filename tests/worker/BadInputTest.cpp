// Every kind of bad input of the [foundation] issue, through the real worker process: a
// one-line cause naming the file and line where there is one, the right exit code, no hang.
#include "StudioRun.h"

#include <gtest/gtest.h>

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

} // namespace

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
    const auto path = dir.write("blob.py", std::string("x = 1\n\x7f" "ELF\x00\x01\x02", 12));
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

TEST(BadInput, MissingPythonEnvironmentSaysWhichCommandMakesIt)
{
    TempDir dir;
    const auto r = runStudio(example("mlp_inference.py"), {}, {"--python-env", dir.file("absent")});
    EXPECT_EQ(r.process.exitCode, 2);
    EXPECT_NE(message(r).find("Python environment is missing"), std::string::npos) << message(r);
    EXPECT_NE(message(r).find("packaging/bootstrap.sh"), std::string::npos) << message(r);
}

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
