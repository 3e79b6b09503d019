// A blob changed behind the library's back: show, export and verify call it damaged, and its
// bytes are never handed out.

#include <gtest/gtest.h>

#include <filesystem>

#include "LibraryTestSupport.h"
#include "library/ArtifactLibrary.h"
#include "library/LibraryError.h"
#include "library/Sha256.h"

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
    EXPECT_EQ(verify.damaged[0].runIds, std::vector<std::int64_t> {d.damagedRun});
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
    EXPECT_EQ(verify.damaged[0].runIds, std::vector<std::int64_t> {d.damagedRun});
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

}  // namespace
}  // namespace ps::library
