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
#include <map>
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
    // The same runs: identity, time and the user who stored them kept; the role is the team
    // library's word (the role that stored them there), never the copier's claim.
    for (std::size_t i = 0; i < 2; ++i) {
        EXPECT_EQ(runs[i]["uid"], mine[i]["uid"]);
        EXPECT_EQ(runs[i]["created_at"], mine[i]["created_at"]);
        EXPECT_EQ(runs[i]["stored_by"]["user"], mine[i]["stored_by"]["user"]);
        EXPECT_EQ(runs[i]["stored_by"]["role"], database + "_w");
    }
    const auto verify = studio({"library", "verify", "--library", other});
    EXPECT_EQ(verify.exitCode, 0) << verify.out << verify.err;
}

TEST_F(TeamLibraryCli, APasswordInTheLocationIsNeverShownWrittenOrStored)
{
    // The suite's server trusts its socket, so a password in the location is accepted and the
    // commands work: every one of them, with and without --json, is swept for the password, as
    // is every file they write, the local library and every row of the team library. PGPASSWORD
    // (libpq reads it, the studio must never repeat it) holds a second one.
    const std::string secret = "S3cretPw-in-the-uri", envSecret = "S3cretPw-from-the-env";
    const std::string role = database + "_w";
    std::string uri = team;
    uri.insert(uri.find('@'), ":" + secret);
    const std::string keywords = server->keywordConnectionString(database, role) + " password=" + secret;
    const std::vector<std::string> env = {"PGPASSWORD=" + envSecret};
    const std::string fixture = std::string(PS_LIBRARY_FIXTURES) + "/sin_plus_one.py";
    std::string said;
    const auto sweep = [&](const std::string& location, std::vector<std::string> args, int wanted = 0) {
        args.insert(args.end(), {"--library", location});
        const auto r = studio(args, env);
        EXPECT_EQ(r.exitCode, wanted) << args[0] << " " << args[1] << ": " << r.out << r.err;
        said += r.out + r.err;
        return r;
    };
    for (const std::string& location : {uri, keywords}) {
        const auto run
            = sweep(location, {"run", script, "--html", dir.file("run.html"), "--junit", dir.file("run.xml")});
        EXPECT_NE(run.out.find("stored as run"), std::string::npos) << run.out;
        sweep(location, {"run", script, "--json"});
        sweep(location, {"library", "import", fixture});
        for (const bool json : {false, true}) {
            const auto with = [&](std::vector<std::string> args) {
                if (json)
                    args.push_back("--json");
                return args;
            };
            sweep(location, with({"library", "ls"}));
            sweep(location, with({"library", "show", "1"}));
            sweep(location, with({"library", "verify"}));
            const std::string tag = (location == uri ? "uri" : "keywords") + std::string(json ? "-json" : "");
            sweep(location, with({"library", "export", "1", dir.file("exported-" + tag)}));
            sweep(location, with({"library", "export-graph", "1", dir.file("graph-" + tag + ".json")}));
            sweep(location, with({"library", "gc"}));
        }
        sweep(location, {"library", "html", "1", dir.file("library.html")});
        sweep(location, {"library", "trace", "1", dir.file("trace.json")});
        sweep(location, {"library", "export-graph", "1", dir.file("graph.dot"), "--format", "dot"});
        sweep(location, {"library", "diff", "1", "2", "--html", dir.file("diff.html")});
        const std::string imported = location == uri ? "3" : "6";
        sweep(location, {"library", "trust", imported});
        sweep(location, {"library", "rm", imported});
        sweep(location, {"library", "show", "99"}, 1);
    }
    for (const std::string& location : {uri, keywords}) {
        for (const auto& args : std::vector<std::vector<std::string>>{{"library", "copy", location, local()},
                 {"library", "copy", location, local(), "--json"}, {"library", "copy", local(), location},
                 {"library", "push", "--to", location}, {"library", "push", "--to", location, "--json"}}) {
            const auto r = studio(args, env);
            EXPECT_EQ(r.exitCode, 0) << args[1] << ": " << r.out << r.err;
            said += r.out + r.err;
        }
    }
    EXPECT_NE(said.find("***"), std::string::npos) << "the location is shown, masked";
    for (const std::string& s : {secret, envSecret}) {
        EXPECT_EQ(said.find(s), std::string::npos) << said.substr(said.find(s) > 300 ? said.find(s) - 300 : 0, 600);
        for (const auto& entry : std::filesystem::recursive_directory_iterator(dir.path())) {
            if (!entry.is_regular_file())
                continue;
            std::ifstream in(entry.path(), std::ios::binary);
            const std::string bytes((std::istreambuf_iterator<char>(in)), std::istreambuf_iterator<char>());
            EXPECT_EQ(bytes.find(s), std::string::npos) << entry.path();
        }
        for (const char* table : {"runs", "run_documents", "captures"})
            for (const auto& row : server->exec(std::string("SELECT t::text FROM ") + table + " t", database))
                EXPECT_EQ(row.at(0).find(s), std::string::npos) << table;
    }
}

/// Whether `text` holds a byte a terminal acts on (C0 controls but newline, DEL).
bool terminalSafe(const std::string& text)
{
    for (unsigned char c : text)
        if ((c < 0x20 && c != '\n') || c == 0x7f)
            return false;
    return true;
}

TEST_F(TeamLibraryCli, HostileRowsAreShownSafelyAndNamedByVerify)
{
    // The owner stores a run (the tables are made); mallory, a member who may write rows but
    // owns nothing, then writes runs straight into the database, as no studio would.
    const std::string fixture = std::string(PS_LIBRARY_FIXTURES) + "/sin_plus_one.py";
    ASSERT_EQ(studio({"library", "import", fixture, "--library", team}).exitCode, 0);
    const std::string mallory = database + "_mallory";
    server->createRole(mallory, database, Access::Writer);
    const std::string asMallory = server->connectionString(database, mallory);
    const std::string owner = database + "_w";
    const auto sql = [&](const std::string& statements) {
        const auto r = TestPostgresServer::execAs(asMallory, statements);
        EXPECT_TRUE(r.ok) << r.error << "\n" << statements;
        return r;
    };
    sql("INSERT INTO blobs (sha256, size, codec, data) VALUES (repeat('a', 64), 3, 'raw', 'abc')");
    // Run 2: a name with a path and a terminal title, a report that is not JSON, claiming to be
    // the owner's.
    sql("INSERT INTO runs (uid, created_at, name, status, script_path, stored_by, stored_role, search) VALUES "
        "('u2', '2026-12-01 10:00:00', E'../../.bashrc\\x1b]0;pwned\\x07', 'ok', '/tmp/x.py', 'alice', '"
        + owner
        + "', to_tsvector('x'));"
          "INSERT INTO run_documents (run_id, report_json) SELECT id, '{not json' FROM runs WHERE uid = 'u2'");
    // Run 3: a report that is not an object, a capture named like a path with a status no
    // studio writes, whose python_code is the blob that does not hash to its key.
    sql("INSERT INTO runs (uid, created_at, name, status, script_path, search) VALUES "
        "('u3', '2026-12-01 10:00:00', 'mlp', 'ok', '/tmp/x.py', to_tsvector('x'));"
        "INSERT INTO run_documents (run_id, report_json) SELECT id, '[1, 2]' FROM runs WHERE uid = 'u3';"
        "INSERT INTO captures (run_id, idx, name, backend, tracer, status, python_code_sha256, cache_sha256) "
        "SELECT id, 0, E'../../etc/cron.d/x\\n', 'inductor', 'dynamo', 'weird', repeat('a', 64), repeat('a', 64) "
        "FROM runs WHERE uid = 'u3';"
        "UPDATE runs SET stored_role = '"
        + owner + "' WHERE uid = 'u3'");

    // Who stored them is the server's word, whatever the rows said.
    EXPECT_EQ(server->exec("SELECT string_agg(stored_role, ',' ORDER BY id) FROM runs", database).at(0).at(0),
        owner + "," + mallory + "," + mallory);
    // ...and mallory cannot take that away.
    const auto drop = TestPostgresServer::execAs(asMallory, "DROP TRIGGER runs_stored_role ON runs");
    EXPECT_FALSE(drop.ok);
    EXPECT_EQ(drop.sqlState, "42501") << drop.error;

    const auto ls = studio({"library", "ls", "--library", team});
    EXPECT_EQ(ls.exitCode, 0) << ls.err;
    EXPECT_TRUE(terminalSafe(ls.out + ls.err)) << ls.out;
    EXPECT_NE(ls.out.find(".bashrc"), std::string::npos) << ls.out;
    const auto show2 = studio({"library", "show", "2", "--library", team});
    EXPECT_EQ(show2.exitCode, 2) << show2.out << show2.err;
    EXPECT_NE(show2.err.find("the report of run 2"), std::string::npos) << show2.err;
    const auto show3 = studio({"library", "show", "3", "--library", team});
    EXPECT_TRUE(terminalSafe(show3.out + show3.err)) << show3.out << show3.err;
    const auto exported = studio({"library", "export", "3", dir.file("out"), "--library", team});
    EXPECT_NE(exported.exitCode, 0) << exported.out;
    EXPECT_NE(exported.err.find("damaged"), std::string::npos) << exported.err;
    EXPECT_FALSE(std::filesystem::exists(dir.path() + "/etc"));

    const auto verify = studio({"library", "verify", "--library", team});
    EXPECT_EQ(verify.exitCode, 1) << verify.out << verify.err;
    EXPECT_TRUE(terminalSafe(verify.out)) << verify.out;
    for (const char* named : {"run 2: the report of run 2 is not JSON",
             "run 2: its name holds control characters and a path separator", "run 3: its report is not a JSON object",
             "run 3: the name of capture 0 holds control characters and a path separator",
             "run 3: capture 0 (unnamed) has a status the studio does not know", "damaged blob aaaa"})
        EXPECT_NE(verify.out.find(named), std::string::npos) << named << "\n" << verify.out;
    const auto json = nlohmann::json::parse(studio({"library", "verify", "--json", "--library", team}).out);
    EXPECT_FALSE(json["ok"].get<bool>());
    EXPECT_EQ(json["run_problems"].size(), 5u) << json.dump(2);

    // The tables' owner can switch the guard off; verify says so.
    server->exec("ALTER TABLE runs DISABLE TRIGGER runs_stored_role", database);
    const auto unguarded = studio({"library", "verify", "--library", team});
    EXPECT_NE(unguarded.out.find("runs_stored_role) is disabled"), std::string::npos) << unguarded.out;
}

TEST_F(TeamLibraryCli, SomeoneElsesRunIsUntrustedUntilYouTrustItAsItIs)
{
    // The owner makes the tables; mallory, a member, imports a run and trusts it herself (the
    // library's column says trusted). For the owner it is mallory's code all the same.
    const std::string fixture = std::string(PS_LIBRARY_FIXTURES) + "/sin_plus_one.py";
    ASSERT_EQ(studio({"library", "import", fixture, "--library", team}).exitCode, 0);  // the owner's own run 1
    const std::string mallory = database + "_mallory";
    server->createRole(mallory, database, Access::Writer);
    const std::string asMallory = server->connectionString(database, mallory);
    ASSERT_EQ(studio({"library", "import", fixture, "--library", asMallory}).exitCode, 0);
    const auto hers = studio({"library", "trust", "2", "--library", asMallory});
    ASSERT_EQ(hers.exitCode, 0) << hers.err;
    EXPECT_EQ(hers.out.find("by you"), std::string::npos) << "her own import: the column" << hers.out;
    const auto trustedFor = [&](const std::string& location) {
        const auto ls = studio({"library", "ls", "--json", "--library", location});
        EXPECT_EQ(ls.exitCode, 0) << ls.err;
        std::map<int, nlohmann::json> byId;
        const auto listed = nlohmann::json::parse(ls.out);
        for (const auto& r : listed["runs"])
            byId[r["run_id"].get<int>()] = r;
        EXPECT_EQ(byId.size(), 2u) << ls.out;
        return byId;
    };
    EXPECT_TRUE(trustedFor(asMallory)[2]["trusted"].get<bool>());
    auto seen = trustedFor(team);
    EXPECT_FALSE(seen[2]["trusted"].get<bool>());
    EXPECT_NE(seen[2]["untrusted_because"].get<std::string>().find("stored by root (database role " + mallory + ")"),
        std::string::npos)
        << seen[2].dump();
    EXPECT_FALSE(seen[1]["trusted"].get<bool>()) << "the owner's own import, not trusted yet";
    const auto show = studio({"library", "show", "2", "--library", team});
    EXPECT_NE(show.out.find("trust     not trusted: stored by root (database role " + mallory + ")"), std::string::npos)
        << show.out;
    EXPECT_NE(show.out.find("precompile-studio library trust 2"), std::string::npos) << show.out;

    // The owner trusts it: in a file of the owner's own, never in the shared row.
    const auto trust = studio({"library", "trust", "2", "--library", team});
    ASSERT_EQ(trust.exitCode, 0) << trust.err;
    EXPECT_NE(trust.out.find("trusted by you"), std::string::npos) << trust.out;
    EXPECT_TRUE(std::filesystem::exists(dir.path() + "/precompile-studio/trusted-runs.json"));
    EXPECT_TRUE(trustedFor(team)[2]["trusted"].get<bool>());

    // Mallory swaps the run's cache for other bytes: the trust was of the run as it was.
    const auto swap = TestPostgresServer::execAs(asMallory, "UPDATE captures SET cache_sha256 = python_code_sha256");
    ASSERT_TRUE(swap.ok) << swap.error;
    EXPECT_FALSE(trustedFor(team)[2]["trusted"].get<bool>());
}

}  // namespace
