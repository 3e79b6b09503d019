// The team library on a real PostgreSQL server (TestPostgresServer): what only PostgreSQL has
// (roles, many machines, the server going away). What both stores share is covered by the typed
// suites over both.

#include "../LibraryTestSupport.h"
#include "TestPostgresServer.h"

#include "library/core/ArtifactLibrary.h"
#include "library/core/LibraryError.h"

#include <gtest/gtest.h>

#include <cstdlib>
#include <filesystem>
#include <functional>
#include <memory>

using namespace ps::library;
using ps::test::TestPostgresServer;
using Access = TestPostgresServer::Access;

namespace {

class PostgresStore : public ::testing::Test {
protected:
    static void SetUpTestSuite() { server = std::make_unique<TestPostgresServer>(); }
    static void TearDownTestSuite() { server.reset(); }
    void SetUp() override
    {
        ASSERT_EQ(server->problem(), "");
        database = std::string("t_") + ::testing::UnitTest::GetInstance()->current_test_info()->name();
        for (char& c : database)
            c = static_cast<char>(std::tolower(static_cast<unsigned char>(c)));
        server->createDatabase(database);
        server->createRole(database + "_w", database, Access::Owner);
        server->createRole(database + "_r", database, Access::ReadOnly);
    }
    std::string writer() const { return server->connectionString(database, database + "_w"); }
    std::string reader() const { return server->connectionString(database, database + "_r"); }

    static std::unique_ptr<TestPostgresServer> server;
    std::string database;
};

std::unique_ptr<TestPostgresServer> PostgresStore::server;

TEST_F(PostgresStore, StoresListsSearchesShowsAndReadsArtifacts)
{
    ArtifactLibrary library(writer());
    EXPECT_EQ(library.identity().role, database + "_w");
    const std::string code = test::pythonCodeText(20'000, 1), cache = test::semiRandomBytes(300'000, 2);
    const std::int64_t a = library.insert(test::makeRun("alpha", code, cache));
    const std::int64_t b = library.insert(test::makeRun("bravo", code, cache, "aot_eager"));
    EXPECT_GT(b, a);
    const auto runs = library.list();
    ASSERT_EQ(runs.size(), 2u);
    EXPECT_EQ(runs[0].id, b);
    EXPECT_EQ(runs[0].captures.size(), 1u);
    EXPECT_EQ(runs[0].captures[0].backend, "aot_eager");
    EXPECT_EQ(runs[0].storedBy.role, database + "_w");
    EXPECT_EQ(library.search("brav").size(), 1u);
    EXPECT_EQ(library.search("scripts alpha").size(), 1u);
    EXPECT_EQ(library.search("!!").size(), 0u);
    ListQuery byBackend;
    byBackend.backend = "inductor";
    ASSERT_EQ(library.list(byBackend).size(), 1u);
    const RunRecord shown = library.show(a);
    EXPECT_EQ(shown.summary.name, "alpha");
    EXPECT_TRUE(shown.damaged.empty());
    EXPECT_EQ(shown.report["run_id"], a);
    EXPECT_EQ(*shown.summary.captures[0].cacheBytes, 300'000);
    const CaptureArtifact artifact = library.artifact(a, 0);
    EXPECT_TRUE(artifact.pythonCode == code);
    EXPECT_TRUE(artifact.cache == cache);
    // Shared blobs: stored once.
    EXPECT_EQ(test::TempDir().path().empty(), false);
    const VerifyReport verified = library.verify();
    EXPECT_TRUE(verified.ok());
    EXPECT_EQ(verified.blobsChecked, 2);
    library.remove(a);
    EXPECT_EQ(library.gc().blobsRemoved, 0);  // bravo still holds them
    library.remove(b);
    EXPECT_EQ(library.gc().blobsRemoved, 2);
}

TEST_F(PostgresStore, AReadOnlyRoleBrowsesAndIsRefusedInOneLine)
{
    std::int64_t id = 0;
    {
        ArtifactLibrary library(writer());
        id = library.insert(test::makeRun("alpha", "code", "cache"));
    }
    ArtifactLibrary library(reader());
    // Said before anything is tried, so that the window turns its writing actions off.
    EXPECT_EQ(library.readOnlyReason(), "role " + database + "_r may only read this library");
    EXPECT_EQ(ArtifactLibrary(writer()).readOnlyReason(), "");
    EXPECT_EQ(library.list().size(), 1u);
    EXPECT_EQ(library.artifact(id, 0).cache, "cache");
    test::TempDir dir;
    EXPECT_EQ(library.exportRun(id, dir.path()).size(), 3u);
    for (const auto& write : std::vector<std::function<void()>>{[&] { library.insert(test::makeRun("b", "x", "y")); },
             [&] { library.remove(id); },
             [&] {
                 CheckRecord check;
                 check.target = "here";
                 check.outcome = "loads";
                 library.addCheck(id, check);
             }}) {
        try {
            write();
            ADD_FAILURE() << "a read-only role wrote";
        } catch (const LibraryError& e) {
            EXPECT_EQ(e.kind(), LibraryError::Kind::ReadOnly) << e.what();
            const std::string what = e.what();
            EXPECT_NE(what.find("role " + database + "_r may only read"), std::string::npos) << what;
            EXPECT_EQ(what.find('\n'), std::string::npos) << what;
        }
    }
    EXPECT_EQ(ArtifactLibrary(writer()).list().size(), 1u);
    // Trusting the writer's run is the reader's own business: it goes in the reader's own file
    // (XDG_DATA_HOME, here the test's folder), never into the library.
    const char* before = std::getenv("XDG_DATA_HOME");
    const std::string saved = before ? before : "";
    ::setenv("XDG_DATA_HOME", dir.path().c_str(), 1);
    ArtifactLibrary again(reader());
    const RunSummary writers = again.list().front();
    EXPECT_FALSE(again.trustOf(writers).trusted());
    again.trust(id);
    EXPECT_TRUE(again.trustOf(writers).trusted());
    EXPECT_TRUE(std::filesystem::exists(dir.path() + "/precompile-studio/trusted-runs.json"));
    if (before)
        ::setenv("XDG_DATA_HOME", saved.c_str(), 1);
    else
        ::unsetenv("XDG_DATA_HOME");
}

TEST_F(PostgresStore, WhoCheckedARunIsTheServersWord)
{
    ArtifactLibrary library(writer());
    const std::int64_t id = library.insert(test::makeRun("alpha", "code", "cache"));
    CheckRecord check;
    check.target = "here";
    check.outcome = "loads";
    check.runs = true;
    library.addCheck(id, check);
    // A member writing the row by hand, claiming to be someone else.
    const auto forged = TestPostgresServer::execAs(writer(),
        "INSERT INTO checks (run_id, checked_at, target, outcome, runs, checked_role) VALUES (" + std::to_string(id)
            + ", 'now', 'forged', 'loads', 1, 'postgres')");
    ASSERT_TRUE(forged.ok) << forged.error;
    const auto checks = library.checks(id);
    ASSERT_EQ(checks.size(), 2u);
    for (const CheckRecord& c : checks)
        EXPECT_EQ(c.checkedBy.role, database + "_w") << c.target;
}

TEST_F(PostgresStore, ALibraryOfTheSchemaBeforeChecksIsStillBrowsedByAReader)
{
    std::int64_t id = 0;
    {
        ArtifactLibrary library(writer());
        id = library.insert(test::makeRun("alpha", "code", "cache"));
    }
    // As the owner left it before checks were kept: schema 2, no checks table.
    server->exec("DROP TABLE checks; UPDATE studio_library SET version = 2", database);
    ArtifactLibrary library(reader(), {.create = false, .readOnly = true});  // as `library ls` opens it
    ASSERT_EQ(library.list().size(), 1u);
    EXPECT_TRUE(library.list()[0].checks.empty());
    EXPECT_EQ(library.show(id).summary.name, "alpha");
    EXPECT_TRUE(library.checks(id).empty());
    CheckRecord check;
    check.target = "here";
    check.outcome = "loads";
    try {
        library.addCheck(id, check);
        ADD_FAILURE() << "a check was kept in tables that have no place for it";
    } catch (const LibraryError& e) {
        EXPECT_EQ(e.kind(), LibraryError::Kind::ReadOnly) << e.what();
    }
}

TEST_F(PostgresStore, TheSameRunIsStoredOnceAndAnUnreachableServerSaysSo)
{
    ArtifactLibrary library(writer());
    NewRun run = test::makeRun("alpha", "code", "cache");
    run.uid = "0123456789abcdef0123456789abcdef";
    const std::int64_t first = library.insert(run);
    EXPECT_EQ(library.insert(run), first);
    EXPECT_EQ(library.list().size(), 1u);
    try {
        ArtifactLibrary gone(server->connectionString(database, database + "_w") + "&port=1");
        ADD_FAILURE() << "connected to nothing";
    } catch (const LibraryError& e) {
        EXPECT_EQ(e.kind(), LibraryError::Kind::Unreachable) << e.what();
    }
}

TEST_F(PostgresStore, ANewerSchemaIsRefusedForWritingAndStillBrowsed)
{
    {
        ArtifactLibrary library(writer());
        library.insert(test::makeRun("alpha", "code", "cache"));
    }
    // A newer studio only adds to the schema.
    server->exec("UPDATE studio_library SET version = 99; ALTER TABLE runs ADD COLUMN from_the_future TEXT", database);
    try {
        ArtifactLibrary library(writer());
        ADD_FAILURE() << "opened a newer schema for writing";
    } catch (const LibraryError& e) {
        EXPECT_EQ(e.kind(), LibraryError::Kind::NewerSchema) << e.what();
        EXPECT_NE(std::string(e.what()).find("99"), std::string::npos) << e.what();
    }
    ArtifactLibrary library(writer(), ArtifactLibrary::OpenOptions{false, true});
    ASSERT_EQ(library.list().size(), 1u);
    EXPECT_EQ(library.artifact(library.list().front().id, 0).cache, "cache");
    EXPECT_EQ(server->exec("SELECT version FROM studio_library", database).at(0).at(0), "99");
}

TEST_F(PostgresStore, SomeoneElsesDatabaseIsLeftAlone)
{
    server->exec("CREATE TABLE orders (id int)", database);
    try {
        ArtifactLibrary library(writer());
        ADD_FAILURE() << "opened someone else's database";
    } catch (const LibraryError& e) {
        EXPECT_EQ(e.kind(), LibraryError::Kind::NotLibrary) << e.what();
    }
}

}  // namespace
