// Runs on another host through a real OpenSSH server the test starts (TestSshServer): the same
// machine reached through sshd on loopback, the studio's own relay and worker on the far side.

#include "StudioRun.h"
#include "TestSshServer.h"
#include "protocol/Protocol.h"
#include "remote/RemoteTarget.h"
#include "run/RunPipeline.h"

#include <gtest/gtest.h>
#include <openssl/evp.h>

#include <atomic>
#include <csignal>
#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <future>
#include <thread>

namespace fs = std::filesystem;
using ps::test::TestSshServer;

namespace {

// The studio "there" is this build's: the folder of its precompile-studio.
const std::string kStudioDir = fs::path(PS_TEST_STUDIO).parent_path().string();

std::string sha256(const std::string& path)
{
    std::ifstream in(path, std::ios::binary);
    EVP_MD_CTX* ctx = EVP_MD_CTX_new();
    EVP_DigestInit_ex(ctx, EVP_sha256(), nullptr);
    std::vector<char> buf(1 << 20);
    while (in) {
        in.read(buf.data(), static_cast<std::streamsize>(buf.size()));
        EVP_DigestUpdate(ctx, buf.data(), static_cast<std::size_t>(in.gcount()));
    }
    unsigned char md[EVP_MAX_MD_SIZE];
    unsigned int length = 0;
    EVP_DigestFinal_ex(ctx, md, &length);
    EVP_MD_CTX_free(ctx);
    static const char* hex = "0123456789abcdef";
    std::string out;
    for (unsigned int i = 0; i < length; ++i) {
        const unsigned char c = md[i];
        out += hex[c >> 4];
        out += hex[c & 15];
    }
    return out;
}

class RemoteRun : public ::testing::Test {
protected:
    void SetUp() override
    {
        ASSERT_EQ(server.problem(), "");
        ::setenv("PS_SSH_COMMAND", server.sshCommand().c_str(), 1);
    }
    void TearDown() override { ::unsetenv("PS_SSH_COMMAND"); }

    std::vector<std::string> remote(const std::string& host = TestSshServer::kHost) const
    {
        return {"--host", host, "--remote-studio", kStudioDir};
    }
    ps::remote::RemoteTarget target() const { return {TestSshServer::kHost, kStudioDir, "", ""}; }
    /// `precompile-studio [global] run SCRIPT --json [args]` with the server's ssh command.
    ps::test::StudioRun studio(const std::string& script, std::vector<std::string> args,
        const std::vector<std::string>& global, bool store = false) const
    {
        std::vector<std::string> argv = {PS_TEST_STUDIO};
        argv.insert(argv.end(), global.begin(), global.end());
        argv.insert(argv.end(), {"run", script, "--json"});
        if (!store)
            argv.push_back("--no-store");
        argv.insert(argv.end(), args.begin(), args.end());
        ps::test::StudioRun run;
        const auto t0 = std::chrono::steady_clock::now();
        run.process = ps::test::runProcess(argv, server.environment());
        run.seconds = std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count();
        try {
            run.report = nlohmann::json::parse(run.process.out);
        } catch (const nlohmann::json::exception&) {
            ADD_FAILURE() << "no JSON report; stderr: " << run.process.err;
        }
        return run;
    }
    std::string sleeper() const { return dir.write("sleeps.py", "import time\ntime.sleep(300)\n"); }

    TestSshServer server;
    ps::test::TempDir dir;
};

/// A run of a script that sleeps, on its own thread, through a pipeline to the host.
struct SleepingRun {
    SleepingRun(const ps::remote::RemoteTarget& target, const std::string& script, const std::string& library)
        : pipeline(ps::run::RunPipeline::forHost(target))
    {
        options.run.script = script;
        if (!library.empty())
            options.libraryPath = library;
        observer.onStage = [this](ps::model::Stage stage, const std::string&) {
            if (stage == ps::model::Stage::Script)
                inScript = true;
        };
        result = std::async(std::launch::async, [this] { return pipeline.run(options, observer); });
    }
    ~SleepingRun()
    {
        pipeline.cancel();  // a test that stopped early does not wait out the sleep
        if (result.valid())
            result.wait();
    }
    /// True once the worker on the host runs the script.
    bool waitForScript()
    {
        const auto deadline = std::chrono::steady_clock::now() + std::chrono::seconds(120);
        while (!inScript && std::chrono::steady_clock::now() < deadline)
            std::this_thread::sleep_for(std::chrono::milliseconds(20));
        return inScript;
    }
    ps::run::RunPipeline pipeline;
    ps::run::PipelineOptions options;
    ps::protocol::RunObserver observer;
    std::atomic<bool> inScript{false};
    std::future<ps::run::RunResult> result;
};

std::vector<std::string> nodeNames(const nlohmann::json& capture)
{
    std::vector<std::string> names;
    const auto graph = capture.value("graph", nlohmann::json::object());
    for (const auto& n : graph.value("node_list", nlohmann::json::array()))
        names.push_back(n.is_object() ? n.value("name", "") : n.dump());
    return names;
}

}  // namespace

TEST_F(RemoteRun, ARunThroughSshEqualsALocalRunAndSaysWhereItRan)
{
    const std::string script = ps::test::example("plain_function.py");
    const auto local = studio(script, {"--backend", "eager"}, {});
    const auto far = studio(script, {"--backend", "eager"}, remote());
    ASSERT_EQ(local.process.exitCode, 0) << local.process.err;
    ASSERT_EQ(far.process.exitCode, 0) << far.process.err << server.log();
    EXPECT_EQ(far.report["status"], local.report["status"]);
    EXPECT_EQ(far.report["message"], local.report["message"]);
    EXPECT_EQ(far.report["script"], script);  // the host's copy is named back as the user's file
    ASSERT_EQ(far.report["captures"].size(), local.report["captures"].size());
    const auto& fc = far.report["captures"][0];
    const auto& lc = local.report["captures"][0];
    EXPECT_EQ(fc["status"], lc["status"]);
    EXPECT_EQ(nodeNames(fc), nodeNames(lc));
    EXPECT_FALSE(nodeNames(fc).empty());
    ASSERT_TRUE(fc["verify"].is_object());
    EXPECT_EQ(fc["verify"].value("status", ""), lc["verify"].value("status", ""));
    EXPECT_EQ(fc["artifact"]["cache_sha256"].is_string(), true);
    EXPECT_EQ(far.report.dump().find("precompile-studio-remote-"), std::string::npos)
        << "a path into the host's private folder is left in the report";
    EXPECT_EQ(far.report["worker"]["host"], TestSshServer::kHost);
    EXPECT_EQ(far.report["worker"]["protocol"], ps::protocol::kProtocolVersion);
    EXPECT_TRUE(far.report["worker"]["torch"].is_string());
    EXPECT_TRUE(local.report["worker"]["host"].is_null());
    EXPECT_EQ(ps::test::schemaProblems(far.report), "");
    EXPECT_TRUE(server.relayFolders().empty());
    EXPECT_TRUE(server.waitUntilNoSessionProcess(10));

    // Stored, the library says where each ran, and the diff names the host as a cause.
    const std::string library = dir.file("library.db");
    const auto storedHere = studio(script, {"--backend", "eager"}, {"--library", library}, true);
    const auto storedThere = studio(
        script, {"--backend", "eager"},
        [&] {
            auto g = remote();
            g.insert(g.end(), {"--library", library});
            return g;
        }(),
        true);
    ASSERT_EQ(storedThere.process.exitCode, 0) << storedThere.process.err;
    const std::string there = std::to_string(storedThere.report["run_id"].get<int>());
    const auto show = ps::test::runProcess({PS_TEST_STUDIO, "--library", library, "library", "show", there});
    EXPECT_NE(show.out.find(std::string("where     ") + TestSshServer::kHost + " \u00b7 torch "), std::string::npos)
        << show.out;
    const auto diff = ps::test::runProcess({PS_TEST_STUDIO, "--library", library, "library", "diff",
        std::to_string(storedHere.report["run_id"].get<int>()), there});
    EXPECT_NE(
        diff.out.find(std::string("ran on another host or device: host this computer -> ") + TestSshServer::kHost),
        std::string::npos)
        << diff.out;
    // The summary a terminal gets names the host on its second line.
    auto argv = std::vector<std::string>{PS_TEST_STUDIO, "run", script, "--backend", "eager", "--no-store"};
    for (const auto& g : remote())
        argv.push_back(g);
    const auto plain = ps::test::runProcess(argv, server.environment());
    EXPECT_NE(plain.out.find(std::string("\n  ran on ") + TestSshServer::kHost + " \u00b7 torch "), std::string::npos)
        << plain.out;
}

TEST_F(RemoteRun, CancelEndsTheWorkerThereAndRemovesItsFolder)
{
    SleepingRun run(target(), sleeper(), "");
    ASSERT_TRUE(run.waitForScript()) << server.log();
    ASSERT_EQ(server.relays().size(), 1u);
    run.pipeline.cancel();
    auto& result = run.result;
    ASSERT_EQ(result.wait_for(std::chrono::seconds(10)), std::future_status::ready);
    const auto r = result.get();
    EXPECT_EQ(r.report.status, ps::model::RunStatus::Cancelled) << r.report.message;
    EXPECT_TRUE(server.waitUntilNoSessionProcess(10)) << "a process is left running on the host";
    EXPECT_TRUE(server.relayFolders().empty()) << "the relay's folder is left on the host";
}

TEST_F(RemoteRun, ALostConnectionIsAnOutcomeWithinSecondsWithNothingStoredAndNothingLeft)
{
    const std::string library = dir.file("library.db");
    SleepingRun run(target(), sleeper(), library);
    ASSERT_TRUE(run.waitForScript()) << server.log();
    auto& result = run.result;
    const auto relays = server.relays();
    ASSERT_EQ(relays.size(), 1u);
    const pid_t session = ps::test::parentOf(relays[0]);  // sshd's process for this connection
    ASSERT_GT(session, 1);
    const auto killedAt = std::chrono::steady_clock::now();
    ASSERT_EQ(::kill(session, SIGKILL), 0);
    ASSERT_EQ(result.wait_for(std::chrono::seconds(10)), std::future_status::ready) << "the run hangs";
    const double seconds = std::chrono::duration<double>(std::chrono::steady_clock::now() - killedAt).count();
    const auto r = result.get();
    EXPECT_LT(seconds, 10.0);
    EXPECT_EQ(r.report.status, ps::model::RunStatus::ConnectionLost) << r.report.message;
    EXPECT_EQ(r.report.exitCode(), 2);
    EXPECT_NE(r.report.message.find(std::string("the connection to ") + TestSshServer::kHost + " was lost"),
        std::string::npos)
        << r.report.message;
    EXPECT_NE(r.report.message.find("(ssh"), std::string::npos) << "ssh's own words: " << r.report.message;
    EXPECT_FALSE(r.report.stored);
    EXPECT_FALSE(fs::exists(library) && fs::file_size(library) > 0 && r.report.runId) << "the run was stored";
    EXPECT_TRUE(server.waitUntilNoSessionProcess(10)) << "a worker is left running on the host";
    EXPECT_TRUE(server.relayFolders().empty());
}

TEST_F(RemoteRun, AHostWithoutTheStudioARefusedKeyAndAnUnreachableHostAreEachOneLine)
{
    const std::string script = ps::test::example("plain_function.py");
    const std::string library = dir.file("library.db");
    struct Case {
        std::vector<std::string> global;
        const char* cause;
        const char* says;
    };
    const std::vector<Case> cases = {
        {{"--host", TestSshServer::kHost, "--remote-studio", dir.file("no-studio-here")}, "no_studio",
            "studio-test has no Precompile Studio: no precompile-studio in"},
        {{"--host", TestSshServer::kBadKeyHost, "--remote-studio", kStudioDir}, "authentication",
            "studio-test-badkey refused the login"},
        {{"--host", TestSshServer::kClosedHost, "--remote-studio", kStudioDir}, "unreachable",
            "studio-test-closed cannot be reached (ssh: ssh: connect to host 127.0.0.1"},
    };
    for (const auto& c : cases) {
        auto global = c.global;
        global.insert(global.end(), {"--library", library});
        const auto r = studio(script, {}, global, /*store=*/true);
        EXPECT_EQ(r.process.exitCode, 2) << c.cause;
        EXPECT_EQ(r.report.value("start_failure", ""), c.cause) << r.report.dump();
        EXPECT_NE(r.report.value("message", "").find(c.says), std::string::npos) << r.report.value("message", "");
        EXPECT_EQ(r.report.value("message", "").find('\n'), std::string::npos) << "one line";
        EXPECT_EQ(r.report.value("stored", true), false);
        EXPECT_LT(r.seconds, 20.0);
        EXPECT_EQ(ps::test::schemaProblems(r.report), "");
    }
    const auto list = ps::test::runProcess({PS_TEST_STUDIO, "--library", library, "library", "ls", "--json"});
    EXPECT_EQ(list.out.find("plain_function"), std::string::npos) << "a run that never started was stored";
}

TEST_F(RemoteRun, AStudioOfAnotherProtocolVersionIsRefusedNamingBoth)
{
    // A host whose studio is older: its relay says hello with protocol 1 and stops.
    const std::string hello = R"({"type":"remote","protocol":1,"studio":"0.0.9","hostname":"old-box","folder":""})";
    std::string octal;
    for (int i = 0; i < 4; ++i) {
        char buf[8];
        std::snprintf(buf, sizeof buf, "\\%03o", static_cast<unsigned>((hello.size() >> (8 * i)) & 0xff));
        octal += buf;
    }
    fs::create_directories(dir.file("old/bin"));
    const std::string fake = dir.file("old/bin/precompile-studio");
    std::ofstream(fake) << "#!/bin/sh\nprintf '" << octal << "%s' '" << hello << "'\ncat >/dev/null\n";
    fs::permissions(fake, fs::perms::owner_all);
    const auto r = studio(ps::test::example("plain_function.py"), {},
        {"--host", TestSshServer::kHost, "--remote-studio", dir.file("old")});
    EXPECT_EQ(r.process.exitCode, 2);
    EXPECT_EQ(r.report.value("start_failure", ""), "version");
    const std::string message = r.report.value("message", "");
    EXPECT_NE(message.find("runs Precompile Studio 0.0.9 (protocol 1)"), std::string::npos) << message;
    EXPECT_NE(message.find("speaks protocol " + std::to_string(ps::protocol::kProtocolVersion)), std::string::npos)
        << message;
    EXPECT_NE(message.find("git pull && make"), std::string::npos) << message;
}

TEST_F(RemoteRun, FourRunsAtOnceOnOneHost)
{
    const std::string script = ps::test::example("plain_function.py");
    std::vector<std::future<ps::test::StudioRun>> runs;
    for (int i = 0; i < 4; ++i)
        runs.push_back(std::async(std::launch::async, [&] {
            return studio(script, {"--backend", "eager"}, remote());
        }));
    for (auto& f : runs) {
        const auto r = f.get();
        EXPECT_EQ(r.process.exitCode, 0) << r.process.err;
        EXPECT_EQ(r.report.value("status", ""), "ok");
        EXPECT_EQ(r.report["worker"]["host"], TestSshServer::kHost);
    }
    EXPECT_TRUE(server.waitUntilNoSessionProcess(10));
    EXPECT_TRUE(server.relayFolders().empty());
}

TEST_F(RemoteRun, RemoteCheckDescribesTheHostOrSaysWhatIsMissing)
{
    auto r = ps::test::runProcess(
        {PS_TEST_STUDIO, "remote", "check", TestSshServer::kHost, "--remote-studio", kStudioDir, "--json"},
        server.environment());
    ASSERT_EQ(r.exitCode, 0) << r.err;
    const auto info = nlohmann::json::parse(r.out);
    EXPECT_EQ(info["host"], TestSshServer::kHost);
    EXPECT_EQ(info["studio"], ps::protocol::kStudioVersion);
    EXPECT_TRUE(info["torch"].is_string());
    EXPECT_TRUE(info["devices"].is_array());
    r = ps::test::runProcess({PS_TEST_STUDIO, "remote", "check", TestSshServer::kBadKeyHost}, server.environment());
    EXPECT_EQ(r.exitCode, 2);
    EXPECT_NE(r.err.find("refused the login"), std::string::npos) << r.err;
    EXPECT_TRUE(server.waitUntilNoSessionProcess(10));
}

// 200 MB of artifact bytes through ssh, the relay and the chunk frames into the library, byte
// for byte. No real capture makes a cache that large in test time, so the host's studio here is
// a copy of the real front end (the relay is the product's) whose worker is a stand-in that
// speaks the worker protocol and writes a 200 MB cache.
TEST_F(RemoteRun, A200MBArtifactArrivesByteExact)
{
    const std::string studioDir = dir.file("stand-in");
    fs::create_directories(studioDir + "/bin");
    fs::copy_file(PS_TEST_STUDIO, studioDir + "/bin/precompile-studio");
    const std::string worker = studioDir + "/bin/precompile-studio-worker-" + PS_TEST_TORCH_SERIES;
    std::ifstream source(std::string(PS_TEST_SOURCE_DIR) + "/tests/support/standin_worker.py");
    std::ofstream(worker) << "#!" << PS_TEST_PYTHON << "\n" << source.rdbuf();
    fs::permissions(worker, fs::perms::owner_all);
    const std::string library = dir.file("library.db");
    // The stand-in writes a cache as large as the script's `cache_mib` says.
    const auto r = studio(dir.write("big.py", "cache_mib = 200\n"), {},
        {"--host", TestSshServer::kHost, "--remote-studio", studioDir, "--library", library}, /*store=*/true);
    ASSERT_EQ(r.process.exitCode, 0) << r.process.err << r.report.dump().substr(0, 2000);
    ASSERT_EQ(r.report.value("stored", false), true);
    const std::string expected = r.report["captures"][0]["artifact"]["cache_sha256"];
    const auto exported = ps::test::runProcess({PS_TEST_STUDIO, "--library", library, "library", "export",
        std::to_string(r.report["run_id"].get<int>()), dir.file("out")});
    ASSERT_EQ(exported.exitCode, 0) << exported.err;
    std::string cacheFile;
    for (const auto& e : fs::directory_iterator(dir.file("out")))
        if (e.path().extension() == ".cache")
            cacheFile = e.path().string();
    ASSERT_FALSE(cacheFile.empty());
    EXPECT_EQ(fs::file_size(cacheFile), 200u << 20);
    EXPECT_EQ(sha256(cacheFile), expected);
    EXPECT_TRUE(server.waitUntilNoSessionProcess(10));
    EXPECT_TRUE(server.relayFolders().empty());
}

TEST_F(RemoteRun, ALessonRunsOnTheHostAsHere)
{
    const auto r = ps::test::runProcess({PS_TEST_STUDIO, "lessons", "run", "inv1-closed-over-tensor", "--json",
                                            "--host", TestSshServer::kHost, "--remote-studio", kStudioDir},
        server.environment());
    ASSERT_EQ(r.exitCode, 0) << r.out << r.err;
    EXPECT_NE(r.out.find(TestSshServer::kHost), std::string::npos) << "the lesson's reports say where they ran";
    EXPECT_TRUE(server.waitUntilNoSessionProcess(10));
}

TEST_F(RemoteRun, ACheckOnAHostLoadsThePairThereAsHere)
{
    // library check --on HOST=ENV: the stored pair and the script cross to the host, a worker of
    // that environment there loads the pair in a fresh process as a server would; the matrix a
    // person reads names the host and the environment.
    const std::string library = dir.file("library.db");
    const std::string script = ps::test::example("plain_function.py");
    const auto stored = studio(script, {"--backend", "eager", "--no-verify"}, {"--library", library}, true);
    ASSERT_EQ(stored.process.exitCode, 0) << stored.process.err;
    const std::string id = std::to_string(stored.report["run_id"].get<int>());
    const std::string env = fs::path(PS_TEST_PYTHON).parent_path().parent_path().string();
    const auto there
        = ps::test::runProcess({PS_TEST_STUDIO, "--library", library, "library", "check", id, "--on",
                                   std::string(TestSshServer::kHost) + "=" + env, "--remote-studio", kStudioDir},
            server.environment());
    ASSERT_EQ(there.exitCode, 0) << there.out << there.err << server.log();
    const std::string name = stored.report["captures"][0]["name"].get<std::string>();
    EXPECT_EQ(
        there.out.rfind(
            "run " + id + " (" + name + "): runs on 1 of 1 target (1 with its cache, 0 compiling its kernels)\n", 0),
        0u)
        << there.out;
    EXPECT_NE(
        there.out.find("  made with torch " + stored.report["stamps"]["torch"].get<std::string>()), std::string::npos)
        << there.out;
    // The row: torch there (the same build: the host is this machine), the outcome, eager matched.
    const std::string rows = there.out.substr(there.out.find("matches eager\n") + 14);
    const std::string firstLine = rows.substr(0, rows.find('\n'));
    EXPECT_NE(firstLine.find(stored.report["stamps"]["torch"].get<std::string>()), std::string::npos) << firstLine;
    EXPECT_NE(firstLine.find("loads with its cache"), std::string::npos) << firstLine;
    EXPECT_EQ(firstLine.substr(firstLine.size() - 3), "yes") << firstLine;
    EXPECT_NE(there.out.find(std::string("  ") + TestSshServer::kHost + " (" + env
                  + "): loads (an eager artifact has no kernels)\n"),
        std::string::npos)
        << there.out;
    EXPECT_EQ(there.out.find("precompile-studio-remote-"), std::string::npos) << "no path of the host's folder";
    EXPECT_TRUE(server.relayFolders().empty());
    EXPECT_TRUE(server.waitUntilNoSessionProcess(10));
}
