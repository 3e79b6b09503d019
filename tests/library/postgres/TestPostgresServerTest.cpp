// The suites' own PostgreSQL server (TestPostgresServer): roles and their rights, what a user's
// connection string reaches, data across a restart and a crash, and that nothing of it outlives
// the object or the test process.

#include "TestPostgresServer.h"

#include <gtest/gtest.h>

#include <chrono>
#include <csignal>
#include <cstdio>
#include <filesystem>
#include <fstream>
#include <functional>
#include <memory>
#include <pwd.h>
#include <sys/prctl.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <thread>
#include <unistd.h>

namespace fs = std::filesystem;
using ps::test::TestPostgresServer;
using Access = TestPostgresServer::Access;

namespace {

double secondsSince(std::chrono::steady_clock::time_point start)
{
    return std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
}

bool waitUntil(double seconds, const std::function<bool()>& done)
{
    const auto start = std::chrono::steady_clock::now();
    while (!done()) {
        if (secondsSince(start) > seconds)
            return false;
        std::this_thread::sleep_for(std::chrono::milliseconds(10));
    }
    return true;
}

// Running, not a zombie (which runs nothing, and may never be reaped here).
bool alive(pid_t pid)
{
    std::ifstream in("/proc/" + std::to_string(pid) + "/stat");
    const std::string stat((std::istreambuf_iterator<char>(in)), std::istreambuf_iterator<char>());
    const auto close = stat.rfind(')');
    return close != std::string::npos && close + 2 < stat.size() && stat[close + 2] != 'Z';
}

}  // namespace

// One server for the suite: made and started once.
class PostgresServer : public ::testing::Test {
protected:
    static void SetUpTestSuite()
    {
        const auto start = std::chrono::steady_clock::now();
        server = std::make_unique<TestPostgresServer>();
        std::printf("[ postgres ] initdb + start: %.0f ms\n", secondsSince(start) * 1000);
    }
    static void TearDownTestSuite() { server.reset(); }
    void SetUp() override { ASSERT_EQ(server->problem(), ""); }

    static std::unique_ptr<TestPostgresServer> server;
};

std::unique_ptr<TestPostgresServer> PostgresServer::server;

TEST_F(PostgresServer, OwnerWritesAndTheReadOnlyRoleOnlyReads)
{
    server->createDatabase("team");
    server->createRole("writer", "team", Access::Owner);
    server->createRole("reader", "team", Access::ReadOnly);
    const std::string writer = server->connectionString("team", "writer");
    const std::string reader = server->connectionString("team", "reader");

    auto r = TestPostgresServer::execAs(writer,
        "CREATE TABLE runs (id serial PRIMARY KEY, name text NOT NULL);"
        "INSERT INTO runs (name) VALUES ('resnet18')");
    ASSERT_TRUE(r.ok) << r.error;
    r = TestPostgresServer::execAs(reader, "SELECT name FROM runs");
    ASSERT_TRUE(r.ok) << r.error;
    EXPECT_EQ(r.rows, TestPostgresServer::Rows{{"resnet18"}});

    r = TestPostgresServer::execAs(reader, "INSERT INTO runs (name) VALUES ('mine')");
    EXPECT_FALSE(r.ok);
    EXPECT_EQ(r.sqlState, "42501") << r.error;  // insufficient_privilege
    r = TestPostgresServer::execAs(reader, "CREATE TABLE mine (x int)");
    EXPECT_EQ(r.sqlState, "42501") << r.error;
    r = TestPostgresServer::execAs(reader, "DELETE FROM runs");
    EXPECT_EQ(r.sqlState, "42501") << r.error;

    // What the owner makes later, in a schema of its own too, the reader reads.
    r = TestPostgresServer::execAs(writer,
        "CREATE SCHEMA library; CREATE TABLE library.blobs (sha256 text);"
        "INSERT INTO library.blobs VALUES ('ab12')");
    ASSERT_TRUE(r.ok) << r.error;
    r = TestPostgresServer::execAs(reader, "SELECT sha256 FROM library.blobs");
    ASSERT_TRUE(r.ok) << r.error;
    EXPECT_EQ(r.rows, TestPostgresServer::Rows{{"ab12"}});
    EXPECT_EQ(TestPostgresServer::execAs(reader, "UPDATE library.blobs SET sha256 = 'x'").sqlState, "42501");
}

TEST_F(PostgresServer, WhatAUserTypesConnects)
{
    server->createDatabase("typed");
    server->createRole("alice", "typed", Access::Owner);
    const std::string uri = server->connectionString("typed", "alice");
    EXPECT_EQ(uri,
        "postgresql://alice@/typed?host=" + std::string("%2Ftmp%2F") + fs::path(server->socketDir()).filename().string()
            + "&port=" + std::to_string(server->port()));
    const std::string unencoded
        = "postgresql://alice@/typed?host=" + server->socketDir() + "&port=" + std::to_string(server->port());
    const std::string inAuthority = "postgresql://alice@" + std::string("%2Ftmp%2F")
        + fs::path(server->socketDir()).filename().string() + ":" + std::to_string(server->port()) + "/typed";
    for (const std::string& conninfo :
        {uri, unencoded, inAuthority, server->keywordConnectionString("typed", "alice")}) {
        const auto r = TestPostgresServer::execAs(conninfo, "SELECT current_user, current_database()");
        ASSERT_TRUE(r.ok) << conninfo << ": " << r.error;
        EXPECT_EQ(r.rows, (TestPostgresServer::Rows{{"alice", "typed"}})) << conninfo;
    }
    // Only the socket in the test's folder: no TCP.
    const std::string socket = server->socketDir() + "/.s.PGSQL." + std::to_string(server->port());
    EXPECT_TRUE(fs::is_socket(socket));
    EXPECT_LT(socket.size(), 108u);
    EXPECT_EQ(server->exec("SHOW listen_addresses"), TestPostgresServer::Rows{{""}});
    const auto tcp = TestPostgresServer::execAs(
        "host=127.0.0.1 port=" + std::to_string(server->port()) + " dbname=typed user=alice connect_timeout=5", "");
    EXPECT_FALSE(tcp.ok);
}

TEST_F(PostgresServer, TheSuperuserIsTheAccountItRunsAs)
{
    EXPECT_EQ(server->exec("SELECT current_user"), TestPostgresServer::Rows{{server->superuser()}});
    struct stat st { };
    ASSERT_EQ(::stat(server->dataDir().c_str(), &st), 0);
    const passwd* pw = ::getpwnam(server->superuser().c_str());
    ASSERT_NE(pw, nullptr);
    EXPECT_EQ(st.st_uid, pw->pw_uid);
    if (::geteuid() == 0)
        EXPECT_NE(pw->pw_uid, 0u);  // postgres refuses root
    else
        EXPECT_EQ(pw->pw_uid, ::geteuid());
    EXPECT_EQ(server->exec("SHOW fsync"), TestPostgresServer::Rows{{"off"}});
    EXPECT_EQ(server->exec("SHOW max_connections"), TestPostgresServer::Rows{{"50"}});
    try {
        server->exec("SELECT * FROM no_such_table");
        ADD_FAILURE() << "no error";
    } catch (const std::runtime_error& e) {
        EXPECT_NE(std::string(e.what()).find("SQLSTATE 42P01"), std::string::npos) << e.what();
    }
}

TEST_F(PostgresServer, TenWritersAtOnce)
{
    server->createDatabase("busy");
    server->createRole("busy_owner", "busy", Access::Owner);
    const std::string owner = server->connectionString("busy", "busy_owner");
    ASSERT_TRUE(TestPostgresServer::execAs(owner, "CREATE TABLE hits (writer int, n int)").ok);
    constexpr int kWriters = 10;
    std::vector<std::thread> threads;
    std::vector<std::string> errors(kWriters);
    for (int w = 0; w < kWriters; ++w)
        threads.emplace_back([&, w]() {
            for (int n = 0; n < 20; ++n) {
                const auto r = TestPostgresServer::execAs(owner,
                    "BEGIN; INSERT INTO hits VALUES (" + std::to_string(w) + ", " + std::to_string(n)
                        + "); SELECT pg_sleep(0.001); COMMIT");
                if (!r.ok)
                    errors[w] = r.error;
            }
        });
    for (auto& t : threads)
        t.join();
    for (const auto& e : errors)
        EXPECT_EQ(e, "");
    EXPECT_EQ(server->exec("SELECT count(*) FROM hits", "busy"), TestPostgresServer::Rows{{"200"}});
}

TEST_F(PostgresServer, RestartKeepsTheDataAndThePort)
{
    server->createDatabase("kept");
    server->exec("CREATE TABLE t (x text); INSERT INTO t VALUES ('before')", "kept");
    const int port = server->port();
    const std::string conninfo = server->connectionString("kept", server->superuser());

    server->stop();
    EXPECT_FALSE(server->running());
    EXPECT_TRUE(server->processes().empty());
    const auto down = TestPostgresServer::execAs(conninfo, "SELECT 1");
    EXPECT_FALSE(down.ok);
    EXPECT_NE(down.error.find("No such file or directory"), std::string::npos) << down.error;
    server->stop();  // idempotent
    server->kill();  // nothing to kill

    ASSERT_TRUE(server->start()) << server->problem();
    EXPECT_EQ(server->port(), port);
    const auto r = TestPostgresServer::execAs(conninfo, "SELECT x FROM t");
    ASSERT_TRUE(r.ok) << r.error;
    EXPECT_EQ(r.rows, TestPostgresServer::Rows{{"before"}});

    ASSERT_TRUE(server->restart()) << server->problem();
    EXPECT_EQ(server->exec("SELECT x FROM t", "kept"), TestPostgresServer::Rows{{"before"}});
}

TEST_F(PostgresServer, AKilledServerRecoversWhatWasCommitted)
{
    server->createDatabase("crashed");
    server->exec("CREATE TABLE t (x int); INSERT INTO t SELECT generate_series(1, 1000)", "crashed");
    const std::vector<pid_t> before = server->processes();
    ASSERT_GE(before.size(), 2u);  // the postmaster and its children

    server->kill();
    EXPECT_FALSE(server->running());
    EXPECT_TRUE(server->processes().empty());
    for (pid_t p : before)
        EXPECT_FALSE(alive(p)) << p;

    ASSERT_TRUE(server->start()) << server->problem();
    EXPECT_EQ(server->exec("SELECT count(*) FROM t", "crashed"), TestPostgresServer::Rows{{"1000"}});
    EXPECT_NE(server->log().find("database system was interrupted"), std::string::npos);
}

// Servers of their own: made and destroyed in the test.
TEST(PostgresServerLifetime, StartAndStopLeaveNothingBehind)
{
    auto start = std::chrono::steady_clock::now();
    auto server = std::make_unique<TestPostgresServer>();
    const double started = secondsSince(start);
    ASSERT_EQ(server->problem(), "");
    const std::string dir = server->socketDir();
    const std::vector<pid_t> pids = server->processes();
    EXPECT_FALSE(pids.empty());
    EXPECT_TRUE(fs::is_directory(dir));

    start = std::chrono::steady_clock::now();
    server.reset();
    const double stopped = secondsSince(start);
    std::printf("[ postgres ] initdb + start %.0f ms, stop + remove %.0f ms\n", started * 1000, stopped * 1000);

    EXPECT_FALSE(fs::exists(dir));
    EXPECT_TRUE(TestPostgresServer::processesIn(dir).empty());
    for (pid_t p : pids)
        EXPECT_FALSE(alive(p)) << p;
}

TEST(PostgresServerLifetime, TheServerDiesWithATestKilledOutright)
{
    // The server's postmaster, orphaned, comes to this process to be reaped (not to an init that
    // may not reap).
    int wasSubreaper = 0;
    ::prctl(PR_GET_CHILD_SUBREAPER, &wasSubreaper);
    ::prctl(PR_SET_CHILD_SUBREAPER, 1);
    int fds[2];
    ASSERT_EQ(::pipe(fds), 0);
    const pid_t child = ::fork();
    ASSERT_GE(child, 0);
    if (child == 0) {
        // A test process that makes a server and is then killed: no destructor runs.
        ::close(fds[0]);
        TestPostgresServer server;
        const std::string line = server.problem().empty() ? server.socketDir() + "\n" : "!" + server.problem();
        if (::write(fds[1], line.data(), line.size()) < 0)
            ::_exit(2);
        ::pause();
        ::_exit(0);
    }
    ::close(fds[1]);
    std::string line;
    char c = 0;
    while (::read(fds[0], &c, 1) == 1 && c != '\n')
        line += c;
    ::close(fds[0]);
    ASSERT_FALSE(line.empty());
    ASSERT_NE(line[0], '!') << line;
    const std::string dir = line;
    const std::vector<pid_t> pids = TestPostgresServer::processesIn(dir);
    EXPECT_FALSE(pids.empty());

    ::kill(child, SIGKILL);
    ::waitpid(child, nullptr, 0);
    EXPECT_TRUE(waitUntil(10, [&]() { return TestPostgresServer::processesIn(dir).empty(); }))
        << "left running: " << TestPostgresServer::processesIn(dir).size();
    for (pid_t p : pids) {
        EXPECT_FALSE(alive(p)) << p;
        ::waitpid(p, nullptr, 0);  // the postmaster is this process's now; its children were its own
    }
    ::prctl(PR_SET_CHILD_SUBREAPER, wasSubreaper);
    // The folder of a test killed outright stays; this one is removed here.
    std::error_code ec;
    fs::remove_all(dir, ec);
}
