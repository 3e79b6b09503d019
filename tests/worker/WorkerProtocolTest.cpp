// The channel between front end and worker: hello, and user output that cannot corrupt it.
#include "ProcessWatch.h"
#include "StudioRun.h"

#include "model/Report.h"
#include "protocol/RunClient.h"
#include "protocol/WorkerLaunch.h"
#include "protocol/WorkerProcess.h"

#include <gtest/gtest.h>

#include <filesystem>
#include <thread>
#include <unistd.h>

using namespace ps::test;

TEST(WorkerProtocol, HelloNamesVersionsAndTheLinkedLibTorchIsTorchs)
{
    ps::protocol::RunClient client(suiteWorkerLaunch());
    TempDir dir;
    const auto script
        = dir.write("s.py", "import torch\n\ndef fn(x):\n    return x + 1\n\nexample_inputs = (torch.ones(2),)\n");
    ps::protocol::RunOptions o;
    o.script = script;
    o.backend = "eager";
    o.outDir = dir.path();
    const auto report = client.run(o);
    EXPECT_EQ(report.status, ps::model::RunStatus::Ok) << report.message;
    ASSERT_TRUE(client.hello().has_value());
    const auto& hello = *client.hello();
    EXPECT_EQ(hello["python"].get<std::string>().substr(0, 2), "3.");
    const std::string torch = hello["torch"];
    EXPECT_EQ(torch.substr(0, torch.find('+')), hello["libtorch"]);
}

TEST(WorkerProtocol, UserOutputAndWritesToFd3CannotCorruptTheChannel)
{
    TempDir dir;
    const auto script = dir.write("noisy.py", R"(import os, sys, struct, torch
sys.stdout.write(struct.pack('<I', 20).decode('latin-1') + '{"type":"result"}')
os.write(1, b"\x05\x00\x00\x00hello")
try:
    os.write(3, b"\xff\xff\xff\x7f")
    print("fd 3 was writable")
except OSError:
    print("fd 3 is closed")

def fn(x):
    return x * 3

example_inputs = (torch.ones(2),)
backend = "eager"
)");
    const auto r = runStudio(script);
    EXPECT_EQ(r.process.exitCode, 0) << r.process.err;
    EXPECT_EQ(r.report["status"], "ok");
    EXPECT_NE(r.process.err.find("fd 3 is closed"), std::string::npos) << r.process.err;
    EXPECT_NE(r.process.err.find("hello"), std::string::npos);
}

TEST(WorkerProtocol, AKeptWarmClientServesRunAfterRun)
{
    ps::protocol::RunClient client(suiteWorkerLaunch(), /*keepWarm=*/true);
    TempDir dir;
    const auto ok = dir.write("ok.py",
        "import torch\n\ndef fn(x):\n    return x - 1\n\nexample_inputs = (torch.ones(2),)\nbackend = 'eager'\n");
    const auto crash = dir.write("crash.py", "import os\nos._exit(9)\n");
    ps::protocol::RunOptions o;
    o.outDir = dir.path();
    std::string workerEvent;
    ps::protocol::RunObserver observer;
    observer.onWorkerEvent = [&](const std::string& what) { workerEvent = what; };
    o.script = ok;
    EXPECT_EQ(client.run(o, observer).status, ps::model::RunStatus::Ok);
    o.script = crash;
    const auto died = client.run(o, observer);
    EXPECT_EQ(died.status, ps::model::RunStatus::WorkerDied);
    EXPECT_NE(workerEvent.find("exited with status 9"), std::string::npos) << workerEvent;
    o.script = ok;
    EXPECT_EQ(client.run(o, observer).status, ps::model::RunStatus::Ok) << "a fresh worker took over after the crash";
}

// The window's worker indicator says "ready" when the worker's hello came, read while no run
// is going; a cancel (the window closing) ends that wait at once.
TEST(WorkerProtocol, WarmUpReadsTheHelloBeforeAnyRunAndACancelEndsTheWait)
{
    const WithoutWorkerPool started;  // the second worker's hello must be slow (torch's import)
    ps::protocol::RunClient client(suiteWorkerLaunch(), /*keepWarm=*/true);
    std::string problem;
    ASSERT_TRUE(client.warmUp(std::chrono::steady_clock::now() + std::chrono::minutes(5), {}, problem)) << problem;
    ASSERT_TRUE(client.hello().has_value());
    EXPECT_EQ((*client.hello())["python"].get<std::string>().substr(0, 2), "3.");
    EXPECT_TRUE(client.warmUp(std::chrono::steady_clock::now(), {}, problem)) << "a ready worker stays ready";

    ps::protocol::RunClient other(suiteWorkerLaunch(), /*keepWarm=*/true);
    // The cancel comes once the second worker runs (this process's second child): warmUp is
    // then waiting for a hello that takes seconds (torch's import).
    std::thread canceller([&] {
        ps::test::ProcessWatch::waitFor(
            [] { return ps::test::ProcessWatch::childrenOf(::getpid()).size() >= 2; }, std::chrono::seconds(60));
        other.cancel();
    });
    const auto t0 = std::chrono::steady_clock::now();
    EXPECT_FALSE(other.warmUp(std::chrono::steady_clock::now() + std::chrono::minutes(5), {}, problem));
    canceller.join();
    EXPECT_EQ(problem, "") << "a cancel is not a failure to start";
    EXPECT_LT(std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count(), 10.0);
}

TEST(WorkerProtocol, CancelFromAnotherThreadStopsAnEndlessLoop)
{
    ps::protocol::RunClient client(suiteWorkerLaunch());
    ps::protocol::RunOptions o;
    o.script = fixture("endless_loop.py");
    o.timeoutSeconds = 120;  // a cancel that never comes ends as a timeout, not a hang
    TempDir dir;
    o.outDir = dir.path();
    bool sawScript = false;
    std::string output;
    std::thread canceller;
    ps::protocol::RunObserver observer;
    observer.onStage = [&](ps::model::Stage stage, const std::string&) {
        sawScript = sawScript || stage == ps::model::Stage::Script;
    };
    // Cancelled from another thread once the script says it is in its loop.
    observer.onOutput = [&](int, std::string_view data) {
        output += data;
        if (!canceller.joinable() && output.find("entering the endless loop") != std::string::npos)
            canceller = std::thread([&] { client.cancel(); });
    };
    const auto t0 = std::chrono::steady_clock::now();
    const auto report = client.run(o, observer);
    if (canceller.joinable())
        canceller.join();
    EXPECT_TRUE(sawScript);
    EXPECT_NE(output.find("entering the endless loop"), std::string::npos) << output;
    EXPECT_EQ(report.status, ps::model::RunStatus::Cancelled);
    EXPECT_EQ(report.exitCode(), 2);
    EXPECT_LT(std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count(), 30.0);
}

// The worker checks each request at its edge: what is not a run request gets a fatal reply
// that says why, and the worker stays up for the next request.
TEST(WorkerProtocol, AMalformedRequestGetsAFatalReplyAndTheWorkerStaysUp)
{
    using ps::protocol::WorkerProcess;
    WorkerProcess worker(suiteWorkerLaunch());
    worker.start();
    const auto deadline = std::chrono::steady_clock::now() + std::chrono::seconds(120);
    auto nextMessage = [&]() -> nlohmann::json {
        while (auto ev = worker.next(deadline)) {
            if (ev->kind == WorkerProcess::Event::Kind::Message)
                return ev->message;
            if (ev->kind == WorkerProcess::Event::Kind::Exited)
                return {{"type", "exited"}};
        }
        return {{"type", "timeout"}};
    };
    ASSERT_EQ(nextMessage()["type"], "hello");
    for (const nlohmann::json& bad : {nlohmann::json::array({1, 2}), nlohmann::json{{"type", nullptr}},
             nlohmann::json{{"type", "run"}, {"script", 5}},
             nlohmann::json{{"type", "run"}, {"script", "/s.py"}, {"verify", "yes"}}}) {
        ASSERT_TRUE(worker.send(bad));
        const auto reply = nextMessage();
        EXPECT_EQ(reply["type"], "fatal") << bad.dump() << " -> " << reply.dump();
        EXPECT_NE(reply.value("message", "").find("refused a request"), std::string::npos) << reply.dump();
    }
    EXPECT_TRUE(worker.running());
    worker.send({{"type", "quit"}});
}
