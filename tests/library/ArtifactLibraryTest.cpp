// Insert, list, show, search, export, trust, rm and gc: the same behaviour over both stores (a
// SQLite file, a PostgreSQL database), and what only a file has.

#include <gtest/gtest.h>

#include <cstdlib>
#include <filesystem>

#include "LibraryTestSupport.h"
#include "StoreBackends.h"
#include "library/core/ArtifactLibrary.h"
#include "library/core/DefaultLibraryPath.h"
#include "library/core/LibraryError.h"
#include "library/core/Sha256.h"
#include "library/sqlite/SqliteSchema.h"

namespace ps::library {
namespace {

using test::makeRun;
using test::TempDir;
using json = nlohmann::json;

template <class Backend> std::string codecOf(const Backend& store, const std::string& sha)
{
    return store.query("SELECT codec FROM blobs WHERE sha256 = '" + sha + "'");
}

template <class Backend> class ArtifactLibraryOn : public ::testing::Test { };
TYPED_TEST_SUITE(ArtifactLibraryOn, test::StoreBackends, test::StoreBackendNames);

TYPED_TEST(ArtifactLibraryOn, CreatesAFreshLibraryAtTheCurrentSchema)
{
    TypeParam store;
    EXPECT_FALSE(store.created());
    ArtifactLibrary library(store.location());
    EXPECT_EQ(library.schemaVersion(), TypeParam::kSchemaVersion);
    EXPECT_EQ(library.path(), store.location());
    EXPECT_TRUE(store.created());
    EXPECT_EQ(library.list().size(), 0u);
}

TEST(SqliteStore, CreatesTheFileAndItsFoldersInWalModeWithIncrementalVacuum)
{
    TempDir dir;
    const std::string path = dir.file("nested/folder/library.sqlite3");
    ArtifactLibrary library(path);
    EXPECT_EQ(library.schemaVersion(), SqliteSchema::kVersion);
    EXPECT_TRUE(std::filesystem::exists(path));
    EXPECT_EQ(test::rawQueryText(path, "PRAGMA journal_mode"), "wal");
    EXPECT_EQ(test::rawQueryText(path, "PRAGMA auto_vacuum"), "2");
}

TYPED_TEST(ArtifactLibraryOn, InsertThenShowGivesTheReportBackWithRunId)
{
    TypeParam store;
    ArtifactLibrary library(store.location());
    NewRun run = makeRun("linear", "def forward(x):\n    return x\n", "cache bytes");
    run.report["custom_field"] = {{"kept", true}};
    const std::int64_t id = library.insert(run);
    EXPECT_EQ(id, 1);

    const RunRecord record = library.show(id);
    EXPECT_EQ(record.summary.id, id);
    EXPECT_EQ(record.summary.name, "linear");
    EXPECT_EQ(record.summary.status, ps::model::RunStatus::Ok);
    EXPECT_EQ(record.summary.origin, ps::library::RunOrigin::Run);
    EXPECT_TRUE(record.summary.trusted);
    EXPECT_EQ(record.summary.scriptPath, "/home/user/scripts/linear.py");
    EXPECT_EQ(record.scriptText, run.scriptText);
    EXPECT_TRUE(record.damaged.empty());
    ASSERT_EQ(record.summary.captures.size(), 1u);
    const CaptureRecord& c = record.summary.captures[0];
    EXPECT_EQ(c.name, "linear");
    EXPECT_EQ(c.backend, "inductor");
    EXPECT_EQ(c.tracer, "make_fx");
    EXPECT_EQ(c.pythonCodeBytes, 29);
    EXPECT_EQ(c.cacheBytes, 11);

    json expected = run.report;
    expected["run_id"] = id;
    expected["captures"][0]["artifact"] = {{"python_code_sha256", Sha256::hex(*run.captures[0].pythonCode)},
        {"python_code_bytes", 29}, {"cache_sha256", Sha256::hex("cache bytes")}, {"cache_bytes", 11}};
    EXPECT_EQ(record.report, expected);

    const CaptureArtifact artifact = library.artifact(id, 0);
    EXPECT_EQ(artifact.pythonCode, *run.captures[0].pythonCode);
    EXPECT_EQ(artifact.cache, "cache bytes");
}

TYPED_TEST(ArtifactLibraryOn, RefusesAReportWhoseHashesDoNotMatchItsBytesAndStoresNothing)
{
    TypeParam store;
    ArtifactLibrary library(store.location());
    NewRun run = makeRun("f", "code", "cache");
    run.report["captures"][0]["artifact"] = {{"python_code_sha256", std::string(64, 'a')}};
    try {
        library.insert(run);
        FAIL() << "insert accepted a wrong python_code_sha256";
    } catch (const LibraryError& e) {
        EXPECT_EQ(e.kind(), LibraryError::Kind::Invalid);
        EXPECT_NE(std::string(e.what()).find(std::string(64, 'a')), std::string::npos) << e.what();
    }
    EXPECT_EQ(library.list().size(), 0u);
    EXPECT_EQ(store.query("SELECT count(*) FROM blobs"), "0");
}

TYPED_TEST(ArtifactLibraryOn, RefusesARunItCannotStoreSayingWhyAndStoresNothing)
{
    TypeParam store;
    ArtifactLibrary library(store.location());
    struct Case {
        const char* why;
        NewRun run;
    };
    std::vector<Case> cases;
    cases.push_back({"the report is not a JSON object", makeRun("f", "code", "cache")});
    cases.back().run.report = json::array({1, 2});
    cases.push_back({"report captures is not a list", makeRun("f", "code", "cache")});
    cases.back().run.report["captures"] = "none";
    cases.push_back({"2 artifacts for 1 captures", makeRun("f", "code", "cache")});
    cases.back().run.captures.push_back(NewCapture{"more", std::nullopt});
    cases.push_back({"capture 1 is not an object", makeRun("f", "code", "cache")});
    cases.back().run.report["captures"].push_back(7);
    for (const Case& c : cases) {
        try {
            library.insert(c.run);
            ADD_FAILURE() << "insert accepted a run whose " << c.why;
        } catch (const LibraryError& e) {
            EXPECT_EQ(e.kind(), LibraryError::Kind::Invalid) << c.why;
            EXPECT_NE(std::string(e.what()).find(c.why), std::string::npos) << e.what();
        }
    }
    EXPECT_EQ(library.list().size(), 0u);
    EXPECT_EQ(store.query("SELECT count(*) FROM blobs"), "0");
}

TYPED_TEST(ArtifactLibraryOn, RefusesAReportNestedDeeperThanAnyReaderParses)
{
    TypeParam store;
    ArtifactLibrary library(store.location());
    NewRun run = test::makeRun("deep", "code", "cache");
    nlohmann::json deep = 1;
    for (int i = 0; i < 200; ++i)
        deep = nlohmann::json::array({deep});
    run.report["extra"] = deep;
    try {
        library.insert(run);
        FAIL() << "stored a report no reader could parse";
    } catch (const LibraryError& e) {
        EXPECT_EQ(e.kind(), LibraryError::Kind::Invalid);
        EXPECT_NE(std::string(e.what()).find("nests deeper than 128 levels"), std::string::npos) << e.what();
    }
    EXPECT_EQ(library.list().size(), 0u);
}

TYPED_TEST(ArtifactLibraryOn, NamesARunByItsScriptElseItsFirstCaptureElseRun)
{
    TypeParam store;
    ArtifactLibrary library(store.location());
    NewRun byScript = makeRun("f", "code", "cache");
    byScript.report["name"] = "";
    NewRun byCapture = byScript;
    byCapture.report.erase("script");
    byCapture.report["captures"][0]["name"] = "first_capture";
    NewRun unnamed = byCapture;
    unnamed.report["captures"] = json::array();
    unnamed.captures.clear();
    unnamed.report.erase("status");
    NewRun given = byScript;
    given.name = "given";
    EXPECT_EQ(library.show(library.insert(byScript)).summary.name, "f");
    EXPECT_EQ(library.show(library.insert(byCapture)).summary.name, "first_capture");
    const RunRecord none = library.show(library.insert(unnamed));
    EXPECT_EQ(none.summary.name, "run");
    EXPECT_EQ(none.summary.status, std::nullopt) << "a report without a status is stored as unknown";
    EXPECT_EQ(library.show(library.insert(given)).summary.name, "given");
}

TYPED_TEST(ArtifactLibraryOn, KeepsFailedRunsAndTheirMessages)
{
    TypeParam store;
    ArtifactLibrary library(store.location());
    NewRun run;
    run.report = {{"schema", 1}, {"script", "/s/global_tensor.py"}, {"status", "violation"},
        {"message", "a capture ended in a violation"},
        {"captures", json::array({test::captureReport("fn", "inductor", "violation")})}};
    const std::int64_t id = library.insert(run);
    const RunRecord record = library.show(id);
    EXPECT_EQ(record.summary.status, ps::model::RunStatus::Violation);
    EXPECT_EQ(record.summary.name, "global_tensor");
    ASSERT_EQ(record.summary.captures.size(), 1u);
    EXPECT_EQ(record.summary.captures[0].invariant, 1);
    EXPECT_EQ(record.summary.captures[0].pythonCodeSha256, std::nullopt);
    EXPECT_EQ(record.report["captures"][0]["artifact"], nullptr);
    try {
        library.artifact(id, 0);
        FAIL() << "a violation has no artifact";
    } catch (const LibraryError& e) {
        EXPECT_EQ(e.kind(), LibraryError::Kind::NotFound);
    }
}

TYPED_TEST(ArtifactLibraryOn, BlobsOfZeroAndOneByteRoundTrip)
{
    TypeParam store;
    ArtifactLibrary library(store.location());
    const std::int64_t id = library.insert(makeRun("tiny", "", "x"));
    const CaptureArtifact artifact = library.artifact(id, 0);
    EXPECT_EQ(artifact.pythonCode, "");
    EXPECT_EQ(artifact.cache, "x");
    EXPECT_EQ(codecOf(store, Sha256::hex("")), "raw");
    EXPECT_EQ(codecOf(store, Sha256::hex("x")), "raw");
    EXPECT_EQ(library.show(id).summary.captures[0].pythonCodeBytes, 0);
    EXPECT_TRUE(library.verify().ok());
}

TYPED_TEST(ArtifactLibraryOn, BlobOf200MegabytesRoundTrips)
{
    TypeParam store;
    ArtifactLibrary library(store.location());
    const std::size_t size = 200u * 1000u * 1000u;
    const std::string code = test::pythonCodeText(size, 3);
    const std::string cache = test::semiRandomBytes(8u << 20, 4);
    const std::string codeSha = Sha256::hex(code), cacheSha = Sha256::hex(cache);
    const std::int64_t id = library.insert(makeRun("huge", code, cache));

    const CaptureArtifact artifact = library.artifact(id, 0);
    EXPECT_EQ(artifact.pythonCode.size(), size);
    EXPECT_EQ(Sha256::hex(artifact.pythonCode), codeSha);
    EXPECT_TRUE(artifact.pythonCode == code);  // 200 MB: not printed on failure
    EXPECT_EQ(Sha256::hex(artifact.cache), cacheSha);
    EXPECT_EQ(codecOf(store, codeSha), "zstd");
    const auto stored = std::stoll(store.query("SELECT length(data) FROM blobs WHERE sha256 = '" + codeSha + "'"));
    EXPECT_LT(stored, static_cast<long long>(size / 4)) << "python_code text should compress";
}

TYPED_TEST(ArtifactLibraryOn, StoresIncompressibleBytesRaw)
{
    TypeParam store;
    ArtifactLibrary library(store.location());
    std::string noise(64 * 1024, '\0');
    std::uint32_t x = 12345;
    for (char& ch : noise) {
        x = x * 1103515245u + 12345u;
        ch = static_cast<char>(x >> 24);
    }
    library.insert(makeRun("noise", "print(1)\n", noise));
    EXPECT_EQ(codecOf(store, Sha256::hex(noise)), "raw");
    EXPECT_EQ(store.query("SELECT length(data) FROM blobs WHERE codec = 'raw' AND size = 65536"), "65536");
}

TYPED_TEST(ArtifactLibraryOn, IdenticalContentIsStoredOnce)
{
    TypeParam store;
    ArtifactLibrary library(store.location());
    library.insert(makeRun("a", "same code", "same cache"));
    library.insert(makeRun("b", "same code", "same cache"));
    EXPECT_EQ(store.query("SELECT count(*) FROM blobs"), "2");
    EXPECT_EQ(library.list().size(), 2u);
}

TYPED_TEST(ArtifactLibraryOn, ListsNewestFirstWithFilters)
{
    TypeParam store;
    ArtifactLibrary library(store.location());
    library.insert(makeRun("first", "c1", "k1", "eager"));
    NewRun failed;
    failed.report = {{"schema", 1}, {"script", "/s/second.py"}, {"status", "violation"}, {"message", "bad"},
        {"captures", json::array({test::captureReport("second", "inductor", "violation")})}};
    library.insert(failed);
    library.insert(makeRun("third", "c3", "k3", "inductor"));

    const auto all = library.list();
    ASSERT_EQ(all.size(), 3u);
    EXPECT_EQ(all[0].name, "third");
    EXPECT_EQ(all[1].name, "second");
    EXPECT_EQ(all[2].name, "first");
    ASSERT_EQ(all[2].captures.size(), 1u);
    EXPECT_EQ(all[2].captures[0].backend, "eager");

    ListQuery byStatus;
    byStatus.status = ps::model::RunStatus::Violation;
    const auto violations = library.list(byStatus);
    ASSERT_EQ(violations.size(), 1u);
    EXPECT_EQ(violations[0].name, "second");

    ListQuery byBackend;
    byBackend.backend = "inductor";
    const auto inductor = library.list(byBackend);
    ASSERT_EQ(inductor.size(), 2u);
    EXPECT_EQ(inductor[0].name, "third");
    EXPECT_EQ(inductor[1].name, "second");

    ListQuery limited;
    limited.limit = 1;
    const auto newest = library.list(limited);
    ASSERT_EQ(newest.size(), 1u);
    EXPECT_EQ(newest[0].name, "third");
    EXPECT_EQ(newest[0].captures.size(), 1u);
}

TYPED_TEST(ArtifactLibraryOn, SearchFindsRunsByNameMessageAndScript)
{
    TypeParam store;
    ArtifactLibrary library(store.location());
    const auto a = library.insert(makeRun("resnet_block", "c1", "k1"));
    NewRun failed;
    failed.report = {{"schema", 1}, {"script", "/s/attention.py"}, {"status", "violation"},
        {"message", "a capture ended in a violation"},
        {"captures", json::array({test::captureReport("attn", "inductor", "violation")})}};
    failed.scriptText = "import torch\nWEIGHTS = torch.randn(4)\n";
    const auto b = library.insert(failed);

    const auto byName = library.search("resnet");
    ASSERT_EQ(byName.size(), 1u);
    EXPECT_EQ(byName[0].id, a);
    const auto byWholeName = library.search("resnet_block");
    ASSERT_EQ(byWholeName.size(), 1u);
    EXPECT_EQ(byWholeName[0].id, a);

    const auto byMessage = library.search("neither a graph input");
    ASSERT_EQ(byMessage.size(), 1u);
    EXPECT_EQ(byMessage[0].id, b);
    const auto byRunMessage = library.search("violation");
    ASSERT_EQ(byRunMessage.size(), 1u);
    EXPECT_EQ(byRunMessage[0].id, b);
    const auto byScript = library.search("WEIGHTS");
    ASSERT_EQ(byScript.size(), 1u);
    EXPECT_EQ(byScript[0].id, b);

    EXPECT_EQ(library.search("nothing-like-this").size(), 0u);
    EXPECT_EQ(library.search("\"*:()").size(), 0u);  // operators are not syntax errors
    EXPECT_EQ(library.search("").size(), 2u);

    ListQuery combined;
    combined.search = "attention";
    combined.status = ps::model::RunStatus::Ok;
    EXPECT_EQ(library.list(combined).size(), 0u);
}

TYPED_TEST(ArtifactLibraryOn, RemoveThenGcDropsOnlyUnreferencedBlobs)
{
    TypeParam store;
    ArtifactLibrary library(store.location());
    const std::string big = test::semiRandomBytes(2u << 20, 9);
    const auto a = library.insert(makeRun("alpha", "shared code", big));
    const auto b = library.insert(makeRun("b", "shared code", "own cache"));
    EXPECT_EQ(store.query("SELECT count(*) FROM blobs"), "3");

    library.remove(a);
    EXPECT_EQ(library.list().size(), 1u);
    EXPECT_EQ(library.search("alpha").size(), 0u);
    EXPECT_EQ(store.query("SELECT count(*) FROM captures WHERE run_id = " + std::to_string(a)), "0");
    try {
        library.remove(a);
        FAIL() << "removed a run twice";
    } catch (const LibraryError& e) {
        EXPECT_EQ(e.kind(), LibraryError::Kind::NotFound);
    }

    const GcResult gc = library.gc();
    EXPECT_EQ(gc.blobsRemoved, 1);
    EXPECT_GT(gc.bytesRemoved, 1'000'000);
    EXPECT_LT(gc.fileBytesAfter, gc.fileBytesBefore);
    EXPECT_EQ(store.query("SELECT count(*) FROM blobs"), "2");
    EXPECT_EQ(library.artifact(b, 0).pythonCode, "shared code");
    EXPECT_EQ(library.gc().blobsRemoved, 0);
    EXPECT_TRUE(library.verify().ok());

    // Ids are never reused.
    EXPECT_EQ(library.insert(makeRun("c", "x", "y")), b + 1);
}

TYPED_TEST(ArtifactLibraryOn, TrustMarksARun)
{
    TypeParam store;
    ArtifactLibrary library(store.location());
    NewRun run = makeRun("imported", "c", "k");
    run.origin = ps::library::RunOrigin::Import;
    run.trusted = false;
    const auto id = library.insert(run);
    EXPECT_FALSE(library.show(id).summary.trusted);
    EXPECT_EQ(library.show(id).summary.origin, ps::library::RunOrigin::Import);
    library.trust(id);
    EXPECT_TRUE(library.show(id).summary.trusted);
    EXPECT_THROW(library.trust(id + 5), LibraryError);
}

TYPED_TEST(ArtifactLibraryOn, ShowOfAMissingRunIsNotFound)
{
    TypeParam store;
    ArtifactLibrary library(store.location());
    try {
        library.show(42);
        FAIL();
    } catch (const LibraryError& e) {
        EXPECT_EQ(e.kind(), LibraryError::Kind::NotFound);
        EXPECT_NE(std::string(e.what()).find(library.path()), std::string::npos) << e.what();
        EXPECT_NE(std::string(e.what()).find("42"), std::string::npos) << e.what();
    }
}

TYPED_TEST(ArtifactLibraryOn, ExportWritesEachCaptureByteExact)
{
    TypeParam store;
    TempDir dir;
    ArtifactLibrary library(store.location());
    NewRun run;
    run.report = {{"schema", 1}, {"script", "/s/two.py"}, {"status", "ok"}, {"message", ""},
        {"captures",
            json::array({test::captureReport("fn"), test::captureReport("helper/part"), test::captureReport("fn"),
                test::captureReport("bad", "eager", "violation")})}};
    const std::string binary("\0\x01\xff\r\n\x1a", 6);
    run.captures = {NewCapture{"code one\r\n", "cache" + binary}, NewCapture{"code two", binary},
        NewCapture{"code three", "cache three"}};
    const auto id = library.insert(run);

    const auto written = library.exportRun(id, dir.file("out"));
    EXPECT_EQ(written.size(), 9u);
    EXPECT_EQ(test::readBytes(dir.file("out/fn.py")), "code one\r\n");
    EXPECT_EQ(test::readBytes(dir.file("out/fn.cache")), "cache" + binary);
    EXPECT_EQ(test::readBytes(dir.file("out/helper_part.py")), "code two");
    EXPECT_EQ(test::readBytes(dir.file("out/helper_part.cache")), binary);
    EXPECT_EQ(test::readBytes(dir.file("out/fn-2.py")), "code three");
    EXPECT_EQ(test::readBytes(dir.file("out/fn-2.cache")), "cache three");
    EXPECT_FALSE(std::filesystem::exists(dir.file("out/bad.py")));
    const json report = json::parse(test::readBytes(dir.file("out/fn.json")));
    EXPECT_EQ(report, library.show(id).report);
    EXPECT_EQ(report["run_id"], id);
}

TYPED_TEST(ArtifactLibraryOn, ExportOfARunWithoutArtifactsWritesNothing)
{
    TypeParam store;
    TempDir dir;
    ArtifactLibrary library(store.location());
    NewRun run;
    run.report
        = {{"schema", 1}, {"script", "/s/x.py"}, {"status", "error"}, {"message", "boom"}, {"captures", json::array()}};
    const auto id = library.insert(run);
    try {
        library.exportRun(id, dir.file("out"));
        FAIL();
    } catch (const LibraryError& e) {
        EXPECT_EQ(e.kind(), LibraryError::Kind::NotFound);
    }
    EXPECT_FALSE(std::filesystem::exists(dir.file("out")));
}

TEST(DefaultLibraryPath, FollowsXdgDataHome)
{
    const char* oldXdg = std::getenv("XDG_DATA_HOME");
    const std::string saved = oldXdg ? oldXdg : "";
    ::setenv("XDG_DATA_HOME", "/data/home", 1);
    EXPECT_EQ(defaultLibraryPath(), "/data/home/precompile-studio/library.sqlite3");
    ::setenv("XDG_DATA_HOME", "relative/ignored", 1);
    const std::string home = std::getenv("HOME") ? std::getenv("HOME") : "";
    ASSERT_FALSE(home.empty());
    EXPECT_EQ(defaultLibraryPath(), home + "/.local/share/precompile-studio/library.sqlite3");
    ::unsetenv("XDG_DATA_HOME");
    EXPECT_EQ(defaultLibraryPath(), home + "/.local/share/precompile-studio/library.sqlite3");
    if (oldXdg)
        ::setenv("XDG_DATA_HOME", saved.c_str(), 1);
}

}  // namespace
}  // namespace ps::library
