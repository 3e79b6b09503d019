// The team library from the command line, as a team uses it: `run --library postgresql://...`
// through the real worker, `library ls/show` on it, the server stopped mid-run (the run kept in
// the local library, pushed later exactly once), and `library copy` both ways, twice.

#include "StudioProcess.h"
#include "TestPostgresServer.h"

#include <gtest/gtest.h>
#include <nlohmann/json.hpp>

#include <chrono>
#include <filesystem>
#include <fstream>
#include <memory>
#include <thread>

using ps::test::ProcessResult;
using ps::test::runProcess;
using ps::test::TempDir;
using ps::test::TestPostgresServer;
using Access = TestPostgresServer::Access;

namespace {

constexpr const char* kScript
    = "import torch\n"
      "import time\n"
      "\n"
      "import os\n"
      "if os.environ.get('PS_TEST_STARTED'):\n"
      "    open(os.environ['PS_TEST_STARTED'], 'w').close()\n"
      "    deadline = time.monotonic() + 120\n"
      "    while not os.path.exists(os.environ['PS_TEST_RESUME']) and time.monotonic() < deadline:\n"
      "        time.sleep(0.02)\n"
      "\n"
      "def fn(x):\n"
      "    return x * 2 + 1\n"
      "\n"
      "example_inputs = (torch.ones(3),)\n"
      "backend = 'eager'\n";

class TeamLibraryCli : public ::testing::Test {
protected:
    static void SetUpTestSuite() { server = std::make_unique<TestPostgresServer>(); }
    static void TearDownTestSuite() { server.reset(); }
    void SetUp() override
    {
        ASSERT_EQ(server->problem(), "");
        if (!server->running())
            server->start();
        database = std::string("cli_") + ::testing::UnitTest::GetInstance()->current_test_info()->name();
        for (char& c : database)
            c = static_cast<char>(std::tolower(static_cast<unsigned char>(c)));
        server->createDatabase(database);
        server->createRole(database + "_w", database, Access::Owner);
        team = server->connectionString(database, database + "_w");
        script = dir.write("double.py", kScript);
    }

    /// The studio with the test's own XDG_DATA_HOME: its default (local) library is in `dir`.
    ProcessResult studio(std::vector<std::string> args, std::vector<std::string> env = {}) const
    {
        args.insert(args.begin(), PS_TEST_STUDIO);
        env.push_back("XDG_DATA_HOME=" + dir.path());
        return runProcess(args, env);
    }
    std::string local() const { return dir.path() + "/precompile-studio/library.sqlite3"; }

    static std::unique_ptr<TestPostgresServer> server;
    std::string database, team, script;
    TempDir dir;
};

std::unique_ptr<TestPostgresServer> TeamLibraryCli::server;

TEST_F(TeamLibraryCli, ARunIsStoredInTheTeamLibraryAndListedWithWhereAndWho)
{
    const auto run = studio({"run", script, "--library", team});
    ASSERT_EQ(run.exitCode, 0) << run.out << run.err;
    EXPECT_NE(run.out.find("stored as run 1"), std::string::npos) << run.out;
    const auto ls = studio({"library", "ls", "--library", team});
    ASSERT_EQ(ls.exitCode, 0) << ls.err;
    EXPECT_NE(ls.out.find("WHERE"), std::string::npos) << ls.out;
    EXPECT_NE(ls.out.find("double"), std::string::npos) << ls.out;
    EXPECT_NE(ls.out.find(" \u00b7 CPU"), std::string::npos) << ls.out;
    const auto show = studio({"library", "show", "1", "--library", team});
    ASSERT_EQ(show.exitCode, 0) << show.err;
    EXPECT_NE(show.out.find("(database role " + database + "_w)"), std::string::npos) << show.out;
    // A second run of the same script: diff reads both from the team library.
    ASSERT_EQ(studio({"run", script, "--library", team}).exitCode, 0);
    const auto diff = studio({"library", "diff", "1", "2", "--library", team});
    EXPECT_EQ(diff.exitCode, 0) << diff.out << diff.err;
    EXPECT_NE(diff.out.find("equivalent"), std::string::npos) << diff.out;
}

TEST_F(TeamLibraryCli, AServerStoppedMidRunKeepsTheRunLocallyAndPushSendsItOnce)
{
    // The server goes away once the script is running (it says so in a file), before the run
    // is stored: the script goes on only once the server is stopped.
    const std::string started = dir.path() + "/started";
    const std::string resume = dir.path() + "/resume";
    std::thread stopper([started, resume] {
        const auto deadline = std::chrono::steady_clock::now() + std::chrono::seconds(120);
        while (!std::filesystem::exists(started) && std::chrono::steady_clock::now() < deadline)
            std::this_thread::sleep_for(std::chrono::milliseconds(20));
        server->stop();
        std::ofstream(resume).put('\n');
    });
    const auto run
        = studio({"run", script, "--library", team}, {"PS_TEST_STARTED=" + started, "PS_TEST_RESUME=" + resume});
    stopper.join();
    EXPECT_EQ(run.exitCode, 3) << run.out << run.err;
    const std::string said = run.out + run.err;
    EXPECT_NE(said.find("cannot be reached; the run is kept in " + local() + " as run 1"), std::string::npos) << said;
    EXPECT_EQ(said.find(": ok"), std::string::npos) << said;  // the first line never says ok

    // While the server is away, push says so and keeps the run.
    const auto early = studio({"library", "push"});
    EXPECT_EQ(early.exitCode, 2) << early.out << early.err;
    EXPECT_NE(early.err.find("1 run(s) stay kept"), std::string::npos) << early.err;

    server->start();
    const auto push = studio({"library", "push"});
    ASSERT_EQ(push.exitCode, 0) << push.out << push.err;
    EXPECT_NE(push.out.find("pushed run 1 to "), std::string::npos) << push.out;
    const auto again = studio({"library", "push"});
    EXPECT_EQ(again.exitCode, 0) << again.err;
    EXPECT_NE(again.out.find("no run is waiting"), std::string::npos) << again.out;
    EXPECT_EQ(server->exec("SELECT count(*) FROM runs", database).at(0).at(0), "1");
    // And it is the same run: its report, script and artifact bytes.
    const auto show = studio({"library", "show", "1", "--library", team});
    ASSERT_EQ(show.exitCode, 0) << show.err;
    EXPECT_NE(show.out.find("double"), std::string::npos) << show.out;
}

TEST_F(TeamLibraryCli, CopyMovesRunsBothWaysAndNeverTwice)
{
    const std::string laptop = dir.file("laptop.sqlite3");
    for (int i = 0; i < 2; ++i) {
        const auto run = studio({"run", script, "--library", laptop});
        ASSERT_EQ(run.exitCode, 0) << run.out << run.err;
    }
    for (int pass = 0; pass < 2; ++pass) {
        const auto up = studio({"library", "copy", laptop, team});
        ASSERT_EQ(up.exitCode, 0) << up.out << up.err;
        EXPECT_NE(up.out.find(pass == 0 ? "copied 2 run(s)" : "copied 0 run(s)"), std::string::npos) << up.out;
    }
    EXPECT_EQ(server->exec("SELECT count(*) FROM runs", database).at(0).at(0), "2");
    const std::string other = dir.file("other.sqlite3");
    for (int pass = 0; pass < 2; ++pass) {
        const auto down = studio({"library", "copy", team, other});
        ASSERT_EQ(down.exitCode, 0) << down.out << down.err;
    }
    const auto ls = studio({"library", "ls", "--json", "--library", other});
    ASSERT_EQ(ls.exitCode, 0) << ls.err;
    const auto runs = nlohmann::json::parse(ls.out)["runs"];
    ASSERT_EQ(runs.size(), 2u);
    const auto mine = nlohmann::json::parse(studio({"library", "ls", "--json", "--library", laptop}).out)["runs"];
    // The same runs: identity, time and who stored them kept.
    for (std::size_t i = 0; i < 2; ++i) {
        EXPECT_EQ(runs[i]["uid"], mine[i]["uid"]);
        EXPECT_EQ(runs[i]["created_at"], mine[i]["created_at"]);
        EXPECT_EQ(runs[i]["stored_by"], mine[i]["stored_by"]);
    }
    const auto verify = studio({"library", "verify", "--library", other});
    EXPECT_EQ(verify.exitCode, 0) << verify.out << verify.err;
}

}  // namespace
