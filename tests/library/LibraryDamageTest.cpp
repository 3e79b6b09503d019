// A blob changed behind the library's back: show, export and verify call it damaged, and its
// bytes are never handed out.

#include <gtest/gtest.h>

#include <filesystem>

#include "LibraryTestSupport.h"
#include "library/ArtifactLibrary.h"
#include "library/LibraryError.h"
#include "library/Sha256.h"
#include "library/ZstdCodec.h"

namespace ps::library {
namespace {

using test::TempDir;

/// Flips one byte of a stored blob through plain SQLite, as a disk error or a stray program would.
void flipByte(const std::string& libraryPath, const std::string& sha, int offset)
{
    sqlite3* db = nullptr;
    ASSERT_EQ(sqlite3_open(libraryPath.c_str(), &db), SQLITE_OK);
    sqlite3_stmt* st = nullptr;
    ASSERT_EQ(sqlite3_prepare_v2(db, "SELECT rowid FROM blobs WHERE sha256 = ?", -1, &st, nullptr), SQLITE_OK);
    sqlite3_bind_text(st, 1, sha.c_str(), -1, SQLITE_TRANSIENT);
    ASSERT_EQ(sqlite3_step(st), SQLITE_ROW);
    const sqlite3_int64 rowid = sqlite3_column_int64(st, 0);
    sqlite3_finalize(st);
    sqlite3_blob* blob = nullptr;
    ASSERT_EQ(sqlite3_blob_open(db, "main", "blobs", "data", rowid, 1, &blob), SQLITE_OK);
    unsigned char byte = 0;
    ASSERT_EQ(sqlite3_blob_read(blob, &byte, 1, offset), SQLITE_OK);
    byte ^= 0x20;
    ASSERT_EQ(sqlite3_blob_write(blob, &byte, 1, offset), SQLITE_OK);
    sqlite3_blob_close(blob);
    sqlite3_close(db);
}

struct DamagedLibrary {
    TempDir dir;
    std::string path = dir.file("lib.sqlite3");
    std::string code = test::pythonCodeText(50'000, 1);   // stored zstd
    std::string cache = test::semiRandomBytes(1'000, 2);  // mostly noise: stored raw
    std::int64_t damagedRun = 0;
    std::int64_t goodRun = 0;
};

class LibraryDamage : public ::testing::Test {
protected:
    void SetUp() override
    {
        ArtifactLibrary library(d.path);
        d.damagedRun = library.insert(test::makeRun("victim", d.code, d.cache));
        d.goodRun = library.insert(test::makeRun("bystander", "other code", "other cache"));
        ASSERT_EQ(
            test::rawQueryText(d.path, "SELECT codec FROM blobs WHERE sha256 = '" + Sha256::hex(d.cache) + "'"), "raw");
    }
    DamagedLibrary d;
};

TEST_F(LibraryDamage, RawBlobWithAFlippedByteIsReportedEverywhere)
{
    const std::string sha = Sha256::hex(d.cache);
    flipByte(d.path, sha, 500);
    ArtifactLibrary library(d.path);

    const VerifyReport verify = library.verify();
    EXPECT_FALSE(verify.ok());
    EXPECT_TRUE(verify.integrityErrors.empty());
    ASSERT_EQ(verify.damaged.size(), 1u);
    EXPECT_EQ(verify.damaged[0].sha256, sha);
    EXPECT_EQ(verify.damaged[0].role, "cache");
    EXPECT_EQ(verify.damaged[0].runIds, std::vector<std::int64_t>{d.damagedRun});
    EXPECT_NE(verify.damaged[0].detail.find("hashes to"), std::string::npos) << verify.damaged[0].detail;
    EXPECT_EQ(verify.blobsChecked, 4);

    const RunRecord shown = library.show(d.damagedRun);
    ASSERT_EQ(shown.damaged.size(), 1u);
    EXPECT_EQ(shown.damaged[0].sha256, sha);
    EXPECT_NE(shown.damaged[0].detail.find("run " + std::to_string(d.damagedRun)), std::string::npos);
    EXPECT_TRUE(library.show(d.goodRun).damaged.empty());

    try {
        library.artifact(d.damagedRun, 0);
        FAIL() << "damaged bytes were handed out";
    } catch (const LibraryError& e) {
        EXPECT_EQ(e.kind(), LibraryError::Kind::Damaged);
        const std::string what = e.what();
        EXPECT_NE(what.find(sha), std::string::npos) << what;
        EXPECT_NE(what.find("run " + std::to_string(d.damagedRun)), std::string::npos) << what;
        EXPECT_NE(what.find(d.path), std::string::npos) << what;
    }

    const std::string out = d.dir.file("export");
    try {
        library.exportRun(d.damagedRun, out);
        FAIL() << "exported a damaged blob";
    } catch (const LibraryError& e) {
        EXPECT_EQ(e.kind(), LibraryError::Kind::Damaged);
    }
    EXPECT_FALSE(std::filesystem::exists(out + "/victim.cache"));
    EXPECT_FALSE(std::filesystem::exists(out + "/victim.py"));

    EXPECT_EQ(library.artifact(d.goodRun, 0).cache, "other cache");
}

TEST_F(LibraryDamage, CompressedBlobWithAFlippedByteIsDamaged)
{
    const std::string sha = Sha256::hex(d.code);
    flipByte(d.path, sha, 300);
    ArtifactLibrary library(d.path);
    const VerifyReport verify = library.verify();
    ASSERT_EQ(verify.damaged.size(), 1u);
    EXPECT_EQ(verify.damaged[0].sha256, sha);
    EXPECT_EQ(verify.damaged[0].role, "python_code");
    EXPECT_THROW(library.artifact(d.damagedRun, 0), LibraryError);
    EXPECT_EQ(library.show(d.damagedRun).damaged.size(), 1u);
}

TEST_F(LibraryDamage, MissingBlobIsDamaged)
{
    const std::string sha = Sha256::hex(d.cache);
    test::rawExec(d.path, "PRAGMA foreign_keys = OFF; DELETE FROM blobs WHERE sha256 = '" + sha + "'");
    ArtifactLibrary library(d.path);
    const VerifyReport verify = library.verify();
    ASSERT_EQ(verify.damaged.size(), 1u);
    EXPECT_EQ(verify.damaged[0].sha256, sha);
    EXPECT_NE(verify.damaged[0].detail.find("missing"), std::string::npos);
    EXPECT_EQ(verify.damaged[0].runIds, std::vector<std::int64_t>{d.damagedRun});
    EXPECT_FALSE(verify.integrityErrors.empty()) << "foreign_key_check should name the dangling capture";
    EXPECT_EQ(library.show(d.damagedRun).damaged.size(), 1u);
    EXPECT_THROW(library.exportRun(d.damagedRun, d.dir.file("out")), LibraryError);
}

TEST_F(LibraryDamage, ABlobWhoseRecordedSizeLiesIsDamaged)
{
    const std::string sha = Sha256::hex(d.cache);
    test::rawExec(d.path, "UPDATE blobs SET size = size + 1 WHERE sha256 = '" + sha + "'");
    ArtifactLibrary library(d.path);
    ASSERT_EQ(library.verify().damaged.size(), 1u);
    EXPECT_THROW(library.artifact(d.damagedRun, 0), LibraryError);
}

TEST_F(LibraryDamage, ADamagedSearchIndexIsFoundWithoutTheWriteLock)
{
    // Garbage over every segment of the index (rows 1 and 10 are its structure and averages).
    std::string garbage;
    for (int i = 0; i < 4096; ++i)
        garbage += "5A";
    test::rawExec(
        d.path, "UPDATE run_search_data SET block = substr(X'" + garbage + "', 1, length(block)) WHERE id > 10");
    const VerifyReport verify = ArtifactLibrary(d.path, ArtifactLibrary::OpenOptions{false, true}).verify();
    ASSERT_EQ(verify.integrityErrors.size(), 1u);
    EXPECT_NE(verify.integrityErrors[0].find("the search index is damaged"), std::string::npos)
        << verify.integrityErrors[0];
    EXPECT_TRUE(verify.damaged.empty());
}

TEST_F(LibraryDamage, AStoredReportNestedTooDeepIsRefusedNotCrashed)
{
    const std::string deep = std::string(100'000, '[') + std::string(100'000, ']');
    test::rawExec(
        d.path, "UPDATE run_documents SET report_json = '" + deep + "' WHERE run_id = " + std::to_string(d.damagedRun));
    ArtifactLibrary library(d.path);
    EXPECT_EQ(library.list().size(), 2u);
    try {
        library.show(d.damagedRun);
        FAIL() << "parsed a report nested 100,000 deep";
    } catch (const LibraryError& e) {
        EXPECT_EQ(e.kind(), LibraryError::Kind::Corrupt);
        const std::string what = e.what();
        EXPECT_NE(what.find("the report of run " + std::to_string(d.damagedRun) + " nests deeper"), std::string::npos)
            << what;
    }
    EXPECT_THROW(library.exportRun(d.damagedRun, d.dir.file("out")), LibraryError);
    EXPECT_TRUE(library.show(d.goodRun).damaged.empty());
}

TEST(LibraryInsert, RefusesAReportNestedDeeperThanAnyReaderParses)
{
    TempDir dir;
    ArtifactLibrary library(dir.file("lib.sqlite3"));
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

// --- a damaged blob is never trusted by its key alone -------------------------------------

/// Stores the victim's bytes again in a new run and checks that both runs read whole, export
/// and verify clean: the damaged copy was replaced, not reused.
void expectRepairedByReinsert(DamagedLibrary& d)
{
    ArtifactLibrary library(d.path);
    ASSERT_FALSE(library.verify().ok()) << "the damage under test did not take";
    const std::int64_t again = library.insert(test::makeRun("victim", d.code, d.cache));
    for (const std::int64_t run : {d.damagedRun, again}) {
        SCOPED_TRACE("run " + std::to_string(run));
        const CaptureArtifact artifact = library.artifact(run, 0);
        EXPECT_TRUE(artifact.pythonCode == d.code);
        EXPECT_TRUE(artifact.cache == d.cache);
        EXPECT_TRUE(library.show(run).damaged.empty());
    }
    const std::string out = d.dir.file("export");
    library.exportRun(d.damagedRun, out);
    EXPECT_TRUE(test::readBytes(out + "/victim.cache") == d.cache);
    EXPECT_TRUE(test::readBytes(out + "/victim.py") == d.code);
    const VerifyReport verify = library.verify();
    EXPECT_TRUE(verify.ok()) << (verify.damaged.empty() ? "integrity" : verify.damaged[0].detail);
    EXPECT_EQ(test::rawQueryText(d.path, "SELECT count(*) FROM blobs"), "4");
}

TEST_F(LibraryDamage, InsertingTheBytesOfADamagedRawBlobAgainReplacesIt)
{
    flipByte(d.path, Sha256::hex(d.cache), 500);
    expectRepairedByReinsert(d);
}

TEST_F(LibraryDamage, InsertingTheBytesOfADamagedCompressedBlobAgainReplacesIt)
{
    flipByte(d.path, Sha256::hex(d.code), 300);
    expectRepairedByReinsert(d);
}

TEST_F(LibraryDamage, InsertingTheBytesOfABlobWhoseSizeLiesAgainReplacesIt)
{
    test::rawExec(d.path, "UPDATE blobs SET size = size + 1 WHERE sha256 = '" + Sha256::hex(d.code) + "'");
    expectRepairedByReinsert(d);
}

TEST_F(LibraryDamage, InsertingTheBytesOfAMissingBlobAgainRestoresIt)
{
    test::rawExec(d.path, "PRAGMA foreign_keys = OFF; DELETE FROM blobs WHERE sha256 = '" + Sha256::hex(d.cache) + "'");
    expectRepairedByReinsert(d);
}

TEST_F(LibraryDamage, AWholeBlobIsReusedNotRewritten)
{
    const std::string sha = Sha256::hex(d.code);
    const std::string before = test::rawQueryText(d.path, "SELECT hex(data) FROM blobs WHERE sha256 = '" + sha + "'");
    ArtifactLibrary library(d.path);
    library.insert(test::makeRun("victim", d.code, d.cache));
    EXPECT_EQ(test::rawQueryText(d.path, "SELECT hex(data) FROM blobs WHERE sha256 = '" + sha + "'"), before);
    EXPECT_EQ(test::rawQueryText(d.path, "SELECT count(*) FROM blobs"), "4");
}

TEST(ZstdCodec, DecompressesToComparesEveryByteWithoutTrustingTheFrame)
{
    const std::string content = test::pythonCodeText(3'000'000, 7);  // past zstd's 128 KiB output block
    const std::string frame = ZstdCodec::compress(content);
    EXPECT_TRUE(ZstdCodec::decompressesTo(frame, content));
    std::string changed = content;
    changed.back() ^= 1;
    EXPECT_FALSE(ZstdCodec::decompressesTo(frame, changed));
    changed = content;
    changed[1'500'000] ^= 1;
    EXPECT_FALSE(ZstdCodec::decompressesTo(frame, changed));
    EXPECT_FALSE(ZstdCodec::decompressesTo(frame, content.substr(0, content.size() - 1)));
    EXPECT_FALSE(ZstdCodec::decompressesTo(frame, content + "x"));
    EXPECT_FALSE(ZstdCodec::decompressesTo(frame.substr(0, frame.size() / 2), content));
    EXPECT_FALSE(ZstdCodec::decompressesTo(frame + "junk", content));
    EXPECT_FALSE(ZstdCodec::decompressesTo("not a frame", content));
    EXPECT_TRUE(ZstdCodec::decompressesTo(ZstdCodec::compress(""), ""));
}

}  // namespace
}  // namespace ps::library
