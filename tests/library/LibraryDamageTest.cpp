// A blob changed behind the library's back: show, export and verify call it damaged, and its
// bytes are never handed out; in either store, damaged through its own raw access.

#include <gtest/gtest.h>

#include <filesystem>

#include "LibraryTestSupport.h"
#include "StoreBackends.h"
#include "library/core/ArtifactLibrary.h"
#include "library/core/LibraryError.h"
#include "library/core/Sha256.h"
#include "library/core/ZstdCodec.h"

namespace ps::library {
namespace {

using test::TempDir;

template <class Backend> struct DamagedLibrary {
    Backend store;
    TempDir dir;  // exports
    const std::string& location = store.location();
    std::string code = test::pythonCodeText(50'000, 1);   // stored zstd
    std::string cache = test::semiRandomBytes(1'000, 2);  // mostly noise: stored raw
    std::int64_t damagedRun = 0;
    std::int64_t goodRun = 0;
};

/// A library of two runs, the victim's blobs to be damaged behind the store's back (through the
/// store's own raw access: plain sqlite3 on the file, the superuser on the database).
template <class Backend> class LibraryDamageIn : public ::testing::Test {
protected:
    void SetUp() override
    {
        ArtifactLibrary library(d.location);
        d.damagedRun = library.insert(test::makeRun("victim", d.code, d.cache));
        d.goodRun = library.insert(test::makeRun("bystander", "other code", "other cache"));
        ASSERT_EQ(d.store.query("SELECT codec FROM blobs WHERE sha256 = '" + Sha256::hex(d.cache) + "'"), "raw");
    }
    DamagedLibrary<Backend> d;
};
TYPED_TEST_SUITE(LibraryDamageIn, test::StoreBackends, test::StoreBackendNames);

TYPED_TEST(LibraryDamageIn, RawBlobWithAFlippedByteIsReportedEverywhere)
{
    const std::string sha = Sha256::hex(this->d.cache);
    this->d.store.flipByte(sha, 500);
    ArtifactLibrary library(this->d.location);

    const VerifyReport verify = library.verify();
    EXPECT_FALSE(verify.ok());
    EXPECT_TRUE(verify.integrityErrors.empty());
    ASSERT_EQ(verify.damaged.size(), 1u);
    EXPECT_EQ(verify.damaged[0].sha256, sha);
    EXPECT_EQ(verify.damaged[0].role, "cache");
    EXPECT_EQ(verify.damaged[0].runIds, std::vector<std::int64_t>{this->d.damagedRun});
    EXPECT_NE(verify.damaged[0].detail.find("hashes to"), std::string::npos) << verify.damaged[0].detail;
    EXPECT_EQ(verify.blobsChecked, 4);

    const RunRecord shown = library.show(this->d.damagedRun);
    ASSERT_EQ(shown.damaged.size(), 1u);
    EXPECT_EQ(shown.damaged[0].sha256, sha);
    EXPECT_NE(shown.damaged[0].detail.find("run " + std::to_string(this->d.damagedRun)), std::string::npos);
    EXPECT_TRUE(library.show(this->d.goodRun).damaged.empty());

    try {
        library.artifact(this->d.damagedRun, 0);
        FAIL() << "damaged bytes were handed out";
    } catch (const LibraryError& e) {
        EXPECT_EQ(e.kind(), LibraryError::Kind::Damaged);
        const std::string what = e.what();
        EXPECT_NE(what.find(sha), std::string::npos) << what;
        EXPECT_NE(what.find("run " + std::to_string(this->d.damagedRun)), std::string::npos) << what;
        EXPECT_NE(what.find(this->d.location), std::string::npos) << what;
    }

    const std::string out = this->d.dir.file("export");
    try {
        library.exportRun(this->d.damagedRun, out);
        FAIL() << "exported a damaged blob";
    } catch (const LibraryError& e) {
        EXPECT_EQ(e.kind(), LibraryError::Kind::Damaged);
    }
    EXPECT_FALSE(std::filesystem::exists(out + "/victim.cache"));
    EXPECT_FALSE(std::filesystem::exists(out + "/victim.py"));

    EXPECT_EQ(library.artifact(this->d.goodRun, 0).cache, "other cache");
}

TYPED_TEST(LibraryDamageIn, CompressedBlobWithAFlippedByteIsDamaged)
{
    const std::string sha = Sha256::hex(this->d.code);
    this->d.store.flipByte(sha, 300);
    ArtifactLibrary library(this->d.location);
    const VerifyReport verify = library.verify();
    ASSERT_EQ(verify.damaged.size(), 1u);
    EXPECT_EQ(verify.damaged[0].sha256, sha);
    EXPECT_EQ(verify.damaged[0].role, "python_code");
    EXPECT_THROW(library.artifact(this->d.damagedRun, 0), LibraryError);
    EXPECT_EQ(library.show(this->d.damagedRun).damaged.size(), 1u);
}

TYPED_TEST(LibraryDamageIn, MissingBlobIsDamaged)
{
    const std::string sha = Sha256::hex(this->d.cache);
    this->d.store.deleteReferencedBlob(sha);
    ArtifactLibrary library(this->d.location);
    const VerifyReport verify = library.verify();
    ASSERT_EQ(verify.damaged.size(), 1u);
    EXPECT_EQ(verify.damaged[0].sha256, sha);
    EXPECT_NE(verify.damaged[0].detail.find("missing"), std::string::npos);
    EXPECT_EQ(verify.damaged[0].runIds, std::vector<std::int64_t>{this->d.damagedRun});
    EXPECT_FALSE(verify.integrityErrors.empty()) << "foreign_key_check should name the dangling capture";
    EXPECT_EQ(library.show(this->d.damagedRun).damaged.size(), 1u);
    EXPECT_THROW(library.exportRun(this->d.damagedRun, this->d.dir.file("out")), LibraryError);
}

TYPED_TEST(LibraryDamageIn, ABlobWhoseRecordedSizeLiesIsDamaged)
{
    const std::string sha = Sha256::hex(this->d.cache);
    this->d.store.exec("UPDATE blobs SET size = size + 1 WHERE sha256 = '" + sha + "'");
    ArtifactLibrary library(this->d.location);
    ASSERT_EQ(library.verify().damaged.size(), 1u);
    EXPECT_THROW(library.artifact(this->d.damagedRun, 0), LibraryError);
}

TYPED_TEST(LibraryDamageIn, AStoredReportNestedTooDeepIsRefusedNotCrashed)
{
    const std::string deep = std::string(100'000, '[') + std::string(100'000, ']');
    this->d.store.exec(
        "UPDATE run_documents SET report_json = '" + deep + "' WHERE run_id = " + std::to_string(this->d.damagedRun));
    ArtifactLibrary library(this->d.location);
    EXPECT_EQ(library.list().size(), 2u);
    try {
        library.show(this->d.damagedRun);
        FAIL() << "parsed a report nested 100,000 deep";
    } catch (const LibraryError& e) {
        EXPECT_EQ(e.kind(), LibraryError::Kind::Corrupt);
        const std::string what = e.what();
        EXPECT_NE(
            what.find("the report of run " + std::to_string(this->d.damagedRun) + " nests deeper"), std::string::npos)
            << what;
    }
    EXPECT_THROW(library.exportRun(this->d.damagedRun, this->d.dir.file("out")), LibraryError);
    EXPECT_TRUE(library.show(this->d.goodRun).damaged.empty());
}

// --- damage only one store can have ------------------------------------------------------

class SqliteLibraryDamage : public LibraryDamageIn<test::SqliteBackend> { };

TEST_F(SqliteLibraryDamage, ADamagedSearchIndexIsFoundWithoutTheWriteLock)
{
    // Garbage over every segment of the FTS5 index (rows 1 and 10 are its structure and averages).
    std::string garbage;
    for (int i = 0; i < 4096; ++i)
        garbage += "5A";
    d.store.exec("UPDATE run_search_data SET block = substr(X'" + garbage + "', 1, length(block)) WHERE id > 10");
    const VerifyReport verify = ArtifactLibrary(d.location, ArtifactLibrary::OpenOptions{false, true}).verify();
    ASSERT_EQ(verify.integrityErrors.size(), 1u);
    EXPECT_NE(verify.integrityErrors[0].find("the search index is damaged"), std::string::npos)
        << verify.integrityErrors[0];
    EXPECT_TRUE(verify.damaged.empty());
}

class PostgresLibraryDamage : public LibraryDamageIn<test::PostgresBackend> { };

TEST_F(PostgresLibraryDamage, ARunWithoutItsDocumentIsFoundReadOnly)
{
    d.store.exec("DELETE FROM run_documents WHERE run_id = " + std::to_string(d.damagedRun));
    const VerifyReport verify = ArtifactLibrary(d.location, ArtifactLibrary::OpenOptions{false, true}).verify();
    ASSERT_EQ(verify.integrityErrors.size(), 1u);
    EXPECT_NE(verify.integrityErrors[0].find("1 run(s) without their document"), std::string::npos)
        << verify.integrityErrors[0];
    EXPECT_TRUE(verify.damaged.empty());
    ASSERT_EQ(verify.runProblems.size(), 1u);
    EXPECT_EQ(verify.runProblems[0], "run " + std::to_string(d.damagedRun) + ": its report and script are missing");
}

TEST_F(PostgresLibraryDamage, AMissingBlobIsNamedAsADanglingReference)
{
    d.store.deleteReferencedBlob(Sha256::hex(d.code));
    const VerifyReport verify = ArtifactLibrary(d.location).verify();
    ASSERT_EQ(verify.integrityErrors.size(), 1u);
    EXPECT_NE(verify.integrityErrors[0].find("capture 0 of run " + std::to_string(d.damagedRun)), std::string::npos)
        << verify.integrityErrors[0];
    ASSERT_EQ(verify.damaged.size(), 1u);
    EXPECT_EQ(verify.damaged[0].role, "python_code");
}

// --- a damaged blob is never trusted by its key alone -------------------------------------

/// Stores the victim's bytes again in a new run and checks that both runs read whole, export
/// and verify clean: the damaged copy was replaced, not reused.
template <class Backend> void expectRepairedByReinsert(DamagedLibrary<Backend>& d)
{
    ArtifactLibrary library(d.location);
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
    EXPECT_EQ(d.store.query("SELECT count(*) FROM blobs"), "4");
}

TYPED_TEST(LibraryDamageIn, InsertingTheBytesOfADamagedRawBlobAgainReplacesIt)
{
    this->d.store.flipByte(Sha256::hex(this->d.cache), 500);
    expectRepairedByReinsert(this->d);
}

TYPED_TEST(LibraryDamageIn, InsertingTheBytesOfADamagedCompressedBlobAgainReplacesIt)
{
    this->d.store.flipByte(Sha256::hex(this->d.code), 300);
    expectRepairedByReinsert(this->d);
}

TYPED_TEST(LibraryDamageIn, InsertingTheBytesOfABlobWhoseSizeLiesAgainReplacesIt)
{
    this->d.store.exec("UPDATE blobs SET size = size + 1 WHERE sha256 = '" + Sha256::hex(this->d.code) + "'");
    expectRepairedByReinsert(this->d);
}

TYPED_TEST(LibraryDamageIn, InsertingTheBytesOfAMissingBlobAgainRestoresIt)
{
    this->d.store.deleteReferencedBlob(Sha256::hex(this->d.cache));
    expectRepairedByReinsert(this->d);
}

TYPED_TEST(LibraryDamageIn, AWholeBlobIsReusedNotRewritten)
{
    const std::string sha = Sha256::hex(this->d.code);
    const std::string before
        = this->d.store.query("SELECT " + TypeParam::hexOf("data") + " FROM blobs WHERE sha256 = '" + sha + "'");
    ArtifactLibrary library(this->d.location);
    library.insert(test::makeRun("victim", this->d.code, this->d.cache));
    EXPECT_EQ(
        this->d.store.query("SELECT " + TypeParam::hexOf("data") + " FROM blobs WHERE sha256 = '" + sha + "'"), before);
    EXPECT_EQ(this->d.store.query("SELECT count(*) FROM blobs"), "4");
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
