// Import of NAME.py + NAME.cache + NAME.json: a real precompile pair (fixtures/, made by
// make_import_fixture.py) is accepted, a mismatched one refused; into either store.

#include <gtest/gtest.h>

#include <filesystem>

#include "LibraryTestSupport.h"
#include "StoreBackends.h"
#include "library/core/ArtifactFiles.h"
#include "library/core/ArtifactLibrary.h"
#include "library/core/LibraryError.h"
#include "library/core/Sha256.h"

#ifndef PS_LIBRARY_FIXTURES
#error "PS_LIBRARY_FIXTURES must name tests/library/fixtures"
#endif

namespace ps::library {
namespace {

using test::TempDir;
using json = nlohmann::json;

const std::string kFixture = std::string(PS_LIBRARY_FIXTURES) + "/sin_plus_one";

/// Copies the fixture pair into `dir` under `name`.
std::string copyPair(const TempDir& dir, const std::string& name = "sin_plus_one")
{
    for (const char* ext : {".py", ".cache", ".json"})
        std::filesystem::copy_file(kFixture + ext, dir.file(name + ext));
    return dir.file(name + ".py");
}

void expectMismatch(ArtifactLibrary& library, const std::string& py, const std::vector<std::string>& mentions)
{
    try {
        library.importArtifact(py);
        ADD_FAILURE() << "imported a mismatched pair";
    } catch (const LibraryError& e) {
        EXPECT_EQ(e.kind(), LibraryError::Kind::Mismatch) << e.what();
        for (const std::string& m : mentions)
            EXPECT_NE(std::string(e.what()).find(m), std::string::npos) << e.what();
    }
    EXPECT_EQ(library.list().size(), 0u) << "a refused import left a run behind";
}

TEST(ArtifactFiles, FindsTheCodeHashInARealCache)
{
    const std::string code = test::readBytes(kFixture + ".py");
    const std::string cache = test::readBytes(kFixture + ".cache");
    EXPECT_EQ(ArtifactFiles::codeHashOf(cache), Sha256::hex(code));
    EXPECT_EQ(ArtifactFiles::codeHashOf("no hash in here"), std::nullopt);
    const std::string hex(64, 'e');
    const std::string longForm("X\x40\0\0\0", 5), shortForm("\x8c\x40", 2);
    EXPECT_EQ(ArtifactFiles::codeHashOf("code_hashq\x06" + longForm + hex + "q\x07"), hex);
    EXPECT_EQ(ArtifactFiles::codeHashOf("code_hash\x94" + shortForm + hex + "\x94"), hex);
    EXPECT_EQ(ArtifactFiles::codeHashOf("code_hashq\x06" + longForm + hex.substr(1) + "q"), std::nullopt);
    EXPECT_EQ(ArtifactFiles::codeHashOf("code_hashq\x06" + longForm + hex + "f"), std::nullopt);
    EXPECT_EQ(ArtifactFiles::codeHashOf("code_hashq\x06" + hex), std::nullopt);
}

TEST(ArtifactFiles, FileStemsAreSafe)
{
    EXPECT_EQ(ArtifactFiles::fileStem("fn"), "fn");
    EXPECT_EQ(ArtifactFiles::fileStem("model.forward#2"), "model.forward#2");
    EXPECT_EQ(ArtifactFiles::fileStem("../../etc/passwd"), "_.._etc_passwd");
    EXPECT_EQ(ArtifactFiles::fileStem(""), "artifact");
    EXPECT_EQ(ArtifactFiles::fileStem("a b/c"), "a_b_c");
}

template <class Backend> class LibraryImportInto : public ::testing::Test { };
TYPED_TEST_SUITE(LibraryImportInto, test::StoreBackends, test::StoreBackendNames);

TYPED_TEST(LibraryImportInto, ImportsARealPairAsUntrustedAndExportsItByteExact)
{
    TypeParam store;
    TempDir dir;
    ArtifactLibrary library(store.location());
    const std::string py = copyPair(dir);
    const std::int64_t id = library.importArtifact(py);

    const RunRecord record = library.show(id);
    EXPECT_EQ(record.summary.origin, ps::library::RunOrigin::Import);
    EXPECT_FALSE(record.summary.trusted);
    EXPECT_EQ(record.summary.name, "sin_plus_one");
    EXPECT_EQ(record.summary.status, ps::model::RunStatus::Ok);
    EXPECT_EQ(record.report["run_id"], id);
    EXPECT_EQ(record.report["imported_from"], py);
    ASSERT_EQ(record.summary.captures.size(), 1u);
    EXPECT_EQ(record.summary.captures[0].backend, "eager");

    const auto written = library.exportRun(id, dir.file("out"));
    EXPECT_EQ(written.size(), 3u);
    EXPECT_TRUE(test::readBytes(dir.file("out/sin_plus_one.py")) == test::readBytes(kFixture + ".py"));
    EXPECT_TRUE(test::readBytes(dir.file("out/sin_plus_one.cache")) == test::readBytes(kFixture + ".cache"));

    // What export wrote imports again.
    const std::int64_t again = library.importArtifact(dir.file("out/sin_plus_one.py"));
    EXPECT_EQ(library.artifact(again, 0).cache, library.artifact(id, 0).cache);
    EXPECT_EQ(store.query("SELECT count(*) FROM blobs"), "2");
}

TYPED_TEST(LibraryImportInto, ARunExportsAndComesBackUnderItsRowsName)
{
    // The row is called my_script; its one capture is still called what the report says.
    TypeParam store;
    TempDir dir;
    ArtifactLibrary library(store.location());
    const std::int64_t id = library.importArtifact(copyPair(dir, "my_script"));
    const RunRecord record = library.show(id);
    ASSERT_EQ(record.summary.name, "my_script");
    ASSERT_NE(record.report["captures"][0].value("name", std::string()), "my_script");

    const auto written = library.exportRun(id, dir.file("out"));
    ASSERT_EQ(written.size(), 3u);
    EXPECT_EQ(std::filesystem::path(written[0]).filename(), "my_script.py");
    const std::int64_t again = library.importArtifact(dir.file("out/my_script.py"));
    EXPECT_EQ(library.show(again).summary.name, "my_script");
}

TYPED_TEST(LibraryImportInto, RefusesPythonCodeThatIsNotTheCachesCode)
{
    TypeParam store;
    TempDir dir;
    ArtifactLibrary library(store.location());
    const std::string py = copyPair(dir);
    const std::string original = test::readBytes(py);
    const std::string edited = original + "\n# an innocent edit\n";
    test::writeBytes(py, edited);
    expectMismatch(
        library, py, {Sha256::hex(original), Sha256::hex(edited), "code_hash", dir.file("sin_plus_one.cache")});
}

TYPED_TEST(LibraryImportInto, RefusesACacheOfAnotherArtifact)
{
    TypeParam store;
    TempDir dir;
    ArtifactLibrary library(store.location());
    const std::string py = copyPair(dir);
    std::string cache = test::readBytes(dir.file("sin_plus_one.cache"));
    const std::string hash = Sha256::hex(test::readBytes(py));
    const std::string other = Sha256::hex("some other python_code");
    cache.replace(cache.find(hash), 64, other);
    test::writeBytes(dir.file("sin_plus_one.cache"), cache);
    expectMismatch(library, py, {hash, other});
}

TYPED_TEST(LibraryImportInto, RefusesACacheThatIsNotAPrecompileCache)
{
    TypeParam store;
    TempDir dir;
    ArtifactLibrary library(store.location());
    const std::string py = copyPair(dir);
    test::writeBytes(dir.file("sin_plus_one.cache"), "just some bytes");
    expectMismatch(library, py, {"no code_hash"});
}

TYPED_TEST(LibraryImportInto, RefusesAReportThatDescribesOtherBytes)
{
    TypeParam store;
    TempDir dir;
    ArtifactLibrary library(store.location());
    const std::string py = copyPair(dir);
    json report = json::parse(test::readBytes(dir.file("sin_plus_one.json")));
    report["captures"][0]["artifact"]["cache_sha256"] = std::string(64, 'b');
    test::writeBytes(dir.file("sin_plus_one.json"), report.dump());
    expectMismatch(library, py, {std::string(64, 'b')});

    report["captures"][0]["artifact"]["python_code_sha256"] = std::string(64, 'c');
    test::writeBytes(dir.file("sin_plus_one.json"), report.dump());
    expectMismatch(library, py, {std::string(64, 'c'), Sha256::hex(test::readBytes(py))});
}

TYPED_TEST(LibraryImportInto, NeedsAllThreeFiles)
{
    TypeParam store;
    TempDir dir;
    ArtifactLibrary library(store.location());
    const std::string py = copyPair(dir);
    std::filesystem::remove(dir.file("sin_plus_one.cache"));
    try {
        library.importArtifact(py);
        FAIL();
    } catch (const LibraryError& e) {
        EXPECT_EQ(e.kind(), LibraryError::Kind::Io);
        EXPECT_EQ(e.file(), dir.file("sin_plus_one.cache"));
    }
    try {
        library.importArtifact(dir.file("sin_plus_one.json"));
        FAIL();
    } catch (const LibraryError& e) {
        EXPECT_EQ(e.kind(), LibraryError::Kind::Invalid);
    }
}

TYPED_TEST(LibraryImportInto, PicksTheCaptureOfAMultiCaptureReport)
{
    TypeParam store;
    TempDir dir;
    ArtifactLibrary library(store.location());
    const std::string py = copyPair(dir);
    json report = json::parse(test::readBytes(dir.file("sin_plus_one.json")));
    json other = test::captureReport("other", "inductor");
    other["artifact"] = {{"python_code_sha256", std::string(64, 'd')}};
    report["captures"].insert(report["captures"].begin(), other);
    test::writeBytes(dir.file("sin_plus_one.json"), report.dump());
    const std::int64_t id = library.importArtifact(py);
    const RunRecord record = library.show(id);
    ASSERT_EQ(record.summary.captures.size(), 1u);
    EXPECT_EQ(record.summary.captures[0].name, "sin_plus_one");
}

// --- crafted NAME.json ----------------------------------------------------------------------

/// Imports `py` expecting an Invalid refusal whose one-line message names `file` and `words`,
/// and nothing stored.
void expectRefusedReport(
    ArtifactLibrary& library, const std::string& py, const std::string& file, const std::string& words)
{
    try {
        library.importArtifact(py);
        ADD_FAILURE() << "imported a hostile NAME.json";
    } catch (const LibraryError& e) {
        const std::string what = e.what();
        EXPECT_EQ(e.file(), file) << what;
        EXPECT_NE(what.find(words), std::string::npos) << what.substr(0, 300);
        EXPECT_EQ(what.find('\n'), std::string::npos) << "not one line";
    }
    EXPECT_EQ(library.list().size(), 0u);
}

TYPED_TEST(LibraryImportInto, RefusesANameJsonNestedDeeperThanAnyReport)
{
    TypeParam store;
    TempDir dir;
    ArtifactLibrary library(store.location());
    const std::string py = copyPair(dir);
    test::writeBytes(dir.file("sin_plus_one.json"), std::string(100'000, '[') + std::string(100'000, ']'));
    expectRefusedReport(library, py, dir.file("sin_plus_one.json"), "nests deeper than 128 levels");

    // Deep inside a real report, where the old parser and the recursive copies would go.
    json report = json::parse(test::readBytes(kFixture + ".json"));
    report["captures"][0]["graph"] = "DEEP";
    std::string deep;
    for (int i = 0; i < 100'000; ++i)
        deep += "{\"a\":";
    deep += "1" + std::string(100'000, '}');
    std::string text = report.dump();
    text.replace(text.find("\"DEEP\""), 6, deep);
    test::writeBytes(dir.file("sin_plus_one.json"), text);
    expectRefusedReport(library, py, dir.file("sin_plus_one.json"), "nests deeper than 128 levels");
}

TYPED_TEST(LibraryImportInto, RefusesAHugeNameJsonBeforeReadingIt)
{
    TypeParam store;
    TempDir dir;
    ArtifactLibrary library(store.location());
    const std::string py = copyPair(dir);
    // Sparse: 129 MiB on paper, nothing on disk; read whole it would not be JSON at all.
    std::filesystem::resize_file(dir.file("sin_plus_one.json"), (std::uintmax_t{129} << 20));
    expectRefusedReport(library, py, dir.file("sin_plus_one.json"), "129 MiB), over the limit of 128 MiB");

    // Nor is a device that never ends read.
    std::filesystem::remove(dir.file("sin_plus_one.json"));
    std::filesystem::create_symlink("/dev/zero", dir.file("sin_plus_one.json"));
    try {
        library.importArtifact(py);
        ADD_FAILURE() << "read /dev/zero as a report";
    } catch (const LibraryError& e) {
        EXPECT_NE(std::string(e.what()).find("not a regular file"), std::string::npos) << e.what();
    }
}

TYPED_TEST(LibraryImportInto, AReportJustUnderTheLimitsIsImported)
{
    TypeParam store;
    TempDir dir;
    ArtifactLibrary library(store.location());
    const std::string py = copyPair(dir);
    json report = json::parse(test::readBytes(kFixture + ".json"));
    json deep = 1;
    for (int i = 0; i < 120; ++i)  // with the report, its captures and the capture: 123 levels
        deep = json::array({deep});
    report["captures"][0]["extra"] = deep;
    test::writeBytes(dir.file("sin_plus_one.json"), report.dump());
    const std::int64_t id = library.importArtifact(py);
    EXPECT_EQ(library.show(id).report["captures"][0]["extra"], deep);
}

}  // namespace
}  // namespace ps::library
