// Nothing a run starts outlives it: the worker dies with its front end (even one killed with
// kill -9), a child that left the worker's process group dies with the run, the worker keeps
// its own copy of the timeout, and run folders left by a killed front end are swept.
#include "ProcessWatch.h"
#include "StudioRun.h"

#include "protocol/RunRequest.h"
#include "protocol/WorkerLaunch.h"
#include "protocol/WorkerProcess.h"

#include <gtest/gtest.h>

#include <chrono>
#include <csignal>
#include <cstdlib>
#include <fcntl.h>
#include <filesystem>
#include <fstream>
#include <optional>
#include <spawn.h>
#include <sstream>
#include <sys/wait.h>
#include <thread>
#include <unistd.h>

using namespace ps::test;
namespace fs = std::filesystem;

using ps::test::ProcessWatch;

TEST(Orphans, TheWorkerDiesWithAFrontEndKilledWithKill9)
{
    const WithoutWorkerPool started;  // the worker is the front end's child (WorkerPoolTest: a pooled one)
    const std::string script = fixture("endless_loop.py");
    std::vector<std::string> args = {PS_TEST_STUDIO, "run", script, "--no-store", "--timeout", "600"};
    std::vector<char*> argv;
    for (auto& a : args)
        argv.push_back(a.data());
    argv.push_back(nullptr);
    // The front end's stderr (where `run` echoes the script's output) goes to a file: the kill comes once the
    // worker is inside the script's loop, whatever the machine's speed.
    TempDir dir;
    const std::string out = dir.file("front.err");
    posix_spawn_file_actions_t actions;
    ::posix_spawn_file_actions_init(&actions);
    ::posix_spawn_file_actions_addopen(&actions, 2, out.c_str(), O_WRONLY | O_CREAT | O_TRUNC, 0644);
    pid_t front = 0;
    const int spawned = ::posix_spawn(&front, argv[0], &actions, nullptr, argv.data(), environ);
    ::posix_spawn_file_actions_destroy(&actions);
    ASSERT_EQ(spawned, 0);
    std::vector<pid_t> workers;
    ProcessWatch::waitFor(
        [&] { return !(workers = ProcessWatch::childrenOf(front)).empty(); }, std::chrono::seconds(60));
    ASSERT_EQ(workers.size(), 1u) << "the front end started no worker";
    EXPECT_TRUE(ProcessWatch::waitForText(out, "entering the endless loop", std::chrono::seconds(120)))
        << "the script never reached its loop";
    ::kill(front, SIGKILL);
    int status = 0;
    ::waitpid(front, &status, 0);
    EXPECT_TRUE(ProcessWatch::gone(workers[0], std::chrono::seconds(10)))
        << "worker " << workers[0] << " outlived its front end";
}

TEST(Orphans, AChildThatCalledSetsidDiesWithTheRun)
{
    TempDir dir;
    const std::string pidFile = dir.file("child.pid");
    const auto script = dir.write("escapes.py",
        R"(import os, subprocess, torch
child = subprocess.Popen(["sleep", "300"], start_new_session=True)
with open(")"
            + pidFile + R"(", "w") as f:
    f.write(str(child.pid))

def fn(x):
    return x + 1

example_inputs = (torch.ones(2),)
backend = "eager"
)");
    const auto r = runStudio(script);
    EXPECT_EQ(r.process.exitCode, 0) << r.process.err.substr(0, 2000);
    std::ifstream f(pidFile);
    pid_t child = 0;
    ASSERT_TRUE(f >> child) << "the script did not start its child";
    EXPECT_TRUE(ProcessWatch::gone(child, std::chrono::seconds(10)))
        << "a setsid() child " << child << " outlived its run";
}

TEST(Orphans, TheWorkerKeepsItsOwnCopyOfTheTimeout)
{
    ::setenv("PS_WORKER_WATCHDOG_GRACE_S", "0", 1);
    ps::protocol::WorkerProcess worker(suiteWorkerLaunch());
    worker.start();
    ::unsetenv("PS_WORKER_WATCHDOG_GRACE_S");
    TempDir dir;
    ps::protocol::RunRequest request;
    request.script = fixture("endless_loop.py");
    request.outDir = dir.path();
    request.timeoutSeconds = 3;
    const auto deadline = std::chrono::steady_clock::now() + std::chrono::seconds(120);
    bool sent = false;
    std::optional<ps::protocol::ExitStatus> ended;
    std::chrono::steady_clock::time_point sentAt;
    while (!ended) {
        auto ev = worker.next(deadline);
        ASSERT_TRUE(ev.has_value()) << "the worker ran on past its own timeout"
                                    << (sent ? "" : " (it never said hello)");
        if (ev->kind == ps::protocol::WorkerProcess::Event::Kind::Message && ev->message.value("type", "") == "hello"
            && !sent) {
            // Nobody here kills the worker: only its own watchdog can end this run.
            ASSERT_TRUE(worker.send(request.toJson()));
            sent = true;
            sentAt = std::chrono::steady_clock::now();
        }
        if (ev->kind == ps::protocol::WorkerProcess::Event::Kind::Exited)
            ended = ev->status;
    }
    ASSERT_TRUE(sent);
    EXPECT_TRUE(ended->signaled && ended->signal == SIGKILL) << ended->describe();
    EXPECT_LT(std::chrono::steady_clock::now() - sentAt, std::chrono::seconds(60));
}

TEST(Orphans, RunFoldersOfAFrontEndThatNoLongerRunsAreSwept)
{
    // A pid that surely does not run: a child that has exited and been reaped.
    const pid_t dead = ::fork();
    if (dead == 0)
        ::_exit(0);
    ::waitpid(dead, nullptr, 0);
    const fs::path tmp = fs::temp_directory_path();
    const fs::path stale = tmp / ("precompile-studio-run-" + std::to_string(dead) + "-test01");
    const fs::path live = tmp / ("precompile-studio-run-" + std::to_string(::getpid()) + "-test02");
    fs::create_directories(stale);
    fs::create_directories(live);
    std::ofstream(stale / "capture-0.py") << "left behind";
    const auto r = runStudio(fixture("no_fn.py"));
    EXPECT_EQ(r.process.exitCode, 2);
    EXPECT_FALSE(fs::exists(stale)) << stale << " was not swept";
    EXPECT_TRUE(fs::exists(live)) << "a running front end's folder must stay";
    fs::remove_all(live);
}

TEST(Orphans, ASigkillTheStudioDidNotSendHintsAtMemory)
{
    TempDir dir;
    // As the out-of-memory killer would: 600 MiB touched, then a SIGKILL nobody in the studio sent.
    const auto script = dir.write("killed.py",
        "import os, signal\nheld = bytearray(600 * 1024 * 1024)\nfor i in range(0, len(held), 4096):\n"
        "    held[i] = 1\nos.kill(os.getpid(), signal.SIGKILL)\n");
    const auto r = runStudio(script);
    EXPECT_EQ(r.process.exitCode, 2);
    EXPECT_EQ(r.report["status"], "worker_died");
    const std::string message = r.report.value("message", "");
    EXPECT_NE(message.find("may have run out of memory"), std::string::npos) << message;
    // The kernel's peak for the reaped worker: at least what the script touched, never 0.
    const auto at = message.find("peak memory was ");
    ASSERT_NE(at, std::string::npos) << message;
    const long mib = std::stol(message.substr(at + std::string("peak memory was ").size()));
    EXPECT_GE(mib, 600) << message;
}
