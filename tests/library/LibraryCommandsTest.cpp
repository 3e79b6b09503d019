// The `library` subcommands, parsed by CLI11 and run in-process as main() runs them: output,
// messages and exit codes.

#include <gtest/gtest.h>
#include <sys/stat.h>

#include <CLI/CLI.hpp>

#include <filesystem>

#include "LibraryCommands.h"
#include "LibraryTestSupport.h"
#include "library/ArtifactLibrary.h"
#include "library/Sha256.h"

#ifndef PS_LIBRARY_FIXTURES
#error "PS_LIBRARY_FIXTURES must name tests/library/fixtures"
#endif

namespace ps::library {
namespace {

using test::TempDir;
using json = nlohmann::json;

struct Outcome {
    int exitCode = -1;
    std::string out;
    std::string err;
};

/// Parses and runs `precompile-studio --library PATH ARGS...` the way main() will.
Outcome runCli(const std::string& libraryPath, std::vector<std::string> args)
{
    CLI::App app("precompile-studio");
    std::string library;
    int exitCode = 0;
    app.add_option("--library", library, "The artifact library");
    addLibraryCommands(app, &library, &exitCode);
    args.insert(args.begin(), {"precompile-studio", "--library", libraryPath});
    std::vector<char*> argv;
    for (auto& a : args)
        argv.push_back(a.data());
    testing::internal::CaptureStdout();
    testing::internal::CaptureStderr();
    Outcome outcome;
    try {
        app.parse(static_cast<int>(argv.size()), argv.data());
        outcome.exitCode = exitCode;
    } catch (const CLI::ParseError& e) {
        outcome.exitCode = 2;  // what main() does with a usage error
    }
    outcome.out = testing::internal::GetCapturedStdout();
    outcome.err = testing::internal::GetCapturedStderr();
    return outcome;
}

bool contains(const std::string& text, const std::string& part)
{
    return text.find(part) != std::string::npos;
}

class LibraryCommands : public ::testing::Test {
protected:
    void SetUp() override
    {
        ArtifactLibrary library(path);
        okRun = library.insert(test::makeRun("resnet_block", "def forward():\n    pass\n", "cache", "inductor"));
        NewRun failed;
        failed.report = {{"schema", 1}, {"script", "/s/global_tensor.py"}, {"status", "violation"},
            {"message", "a capture ended in a violation"},
            {"captures", json::array({test::captureReport("fn", "eager", "violation")})}};
        failedRun = library.insert(failed);
    }
    TempDir dir;
    std::string path = dir.file("lib.sqlite3");
    std::int64_t okRun = 0, failedRun = 0;
};

TEST_F(LibraryCommands, LsPrintsATableNewestFirst)
{
    const Outcome o = runCli(path, {"library", "ls"});
    EXPECT_EQ(o.exitCode, 0) << o.err;
    EXPECT_TRUE(contains(o.out, "resnet_block")) << o.out;
    EXPECT_TRUE(contains(o.out, "global_tensor")) << o.out;
    EXPECT_LT(o.out.find("global_tensor"), o.out.find("resnet_block")) << o.out;
    EXPECT_EQ(o.err, "");
}

TEST_F(LibraryCommands, LsJsonWithFilters)
{
    Outcome o = runCli(path, {"library", "ls", "--json"});
    ASSERT_EQ(o.exitCode, 0) << o.err;
    json all = json::parse(o.out);
    EXPECT_EQ(all["library"], path);
    ASSERT_EQ(all["runs"].size(), 2u);
    EXPECT_EQ(all["runs"][0]["run_id"], failedRun);
    EXPECT_EQ(all["runs"][0]["captures"][0]["invariant"], 1);

    o = runCli(path, {"library", "ls", "--json", "--status", "ok"});
    json ok = json::parse(o.out);
    ASSERT_EQ(ok["runs"].size(), 1u);
    EXPECT_EQ(ok["runs"][0]["run_id"], okRun);

    o = runCli(path, {"library", "ls", "--json", "--backend", "eager"});
    ASSERT_EQ(json::parse(o.out)["runs"].size(), 1u);
    EXPECT_EQ(json::parse(o.out)["runs"][0]["run_id"], failedRun);

    o = runCli(path, {"library", "ls", "--json", "--search", "graph input"});
    ASSERT_EQ(json::parse(o.out)["runs"].size(), 1u);
    EXPECT_EQ(json::parse(o.out)["runs"][0]["run_id"], failedRun);
}

TEST_F(LibraryCommands, LsOfALibraryNotYetMadeIsEmptyAndCreatesNothing)
{
    const std::string absent = dir.file("absent/lib.sqlite3");
    const Outcome o = runCli(absent, {"library", "ls", "--json"});
    EXPECT_EQ(o.exitCode, 0);
    EXPECT_EQ(json::parse(o.out)["runs"], json::array());
    EXPECT_FALSE(std::filesystem::exists(absent));
}

TEST_F(LibraryCommands, ShowJsonIsTheStoredReport)
{
    const Outcome o = runCli(path, {"library", "show", std::to_string(okRun), "--json"});
    EXPECT_EQ(o.exitCode, 0) << o.err;
    ArtifactLibrary library(path);
    EXPECT_EQ(json::parse(o.out), library.show(okRun).report);
    EXPECT_EQ(json::parse(o.out)["run_id"], okRun);

    const Outcome human = runCli(path, {"library", "show", std::to_string(okRun)});
    EXPECT_EQ(human.exitCode, 0);
    EXPECT_TRUE(contains(human.out, "python_code")) << human.out;
    EXPECT_TRUE(contains(human.out, Sha256::hex("cache"))) << human.out;
}

TEST_F(LibraryCommands, ShowOfAMissingRunExits1NamingTheLibrary)
{
    const Outcome o = runCli(path, {"library", "show", "99"});
    EXPECT_EQ(o.exitCode, 1);
    EXPECT_TRUE(contains(o.err, path)) << o.err;
    EXPECT_TRUE(contains(o.err, "no run 99")) << o.err;
}

TEST_F(LibraryCommands, ExportImportTrustRmGc)
{
    const std::string out = dir.file("export");
    Outcome o = runCli(path, {"library", "export", std::to_string(okRun), out});
    EXPECT_EQ(o.exitCode, 0) << o.err;
    EXPECT_EQ(test::readBytes(out + "/resnet_block.py"), "def forward():\n    pass\n");
    EXPECT_EQ(test::readBytes(out + "/resnet_block.cache"), "cache");

    // The fixture pair, a real precompile artifact.
    for (const char* ext : {".py", ".cache", ".json"})
        std::filesystem::copy_file(
            std::string(PS_LIBRARY_FIXTURES) + "/sin_plus_one" + ext, dir.file(std::string("pair") + ext));
    o = runCli(path, {"library", "import", dir.file("pair.py"), "--json"});
    ASSERT_EQ(o.exitCode, 0) << o.err;
    const std::int64_t imported = json::parse(o.out)["run_id"];
    o = runCli(path, {"library", "ls", "--json", "--search", "pair"});
    ASSERT_EQ(json::parse(o.out)["runs"].size(), 1u);
    EXPECT_EQ(json::parse(o.out)["runs"][0]["trusted"], false);

    o = runCli(path, {"library", "trust", std::to_string(imported)});
    EXPECT_EQ(o.exitCode, 0) << o.err;
    o = runCli(path, {"library", "ls", "--json", "--search", "pair"});
    EXPECT_EQ(json::parse(o.out)["runs"][0]["trusted"], true);

    o = runCli(path, {"library", "rm", std::to_string(imported)});
    EXPECT_EQ(o.exitCode, 0) << o.err;
    o = runCli(path, {"library", "rm", std::to_string(imported)});
    EXPECT_EQ(o.exitCode, 1);
    o = runCli(path, {"library", "gc", "--json"});
    EXPECT_EQ(o.exitCode, 0) << o.err;
    EXPECT_EQ(json::parse(o.out)["blobs_removed"], 2);
}

TEST_F(LibraryCommands, ImportRefusesAMismatchedPair)
{
    for (const char* ext : {".py", ".cache", ".json"})
        std::filesystem::copy_file(
            std::string(PS_LIBRARY_FIXTURES) + "/sin_plus_one" + ext, dir.file(std::string("pair") + ext));
    const std::string original = test::readBytes(dir.file("pair.py"));
    test::writeBytes(dir.file("pair.py"), original + "import os\n");
    const Outcome o = runCli(path, {"library", "import", dir.file("pair.py")});
    EXPECT_EQ(o.exitCode, 1);
    EXPECT_TRUE(contains(o.err, Sha256::hex(original))) << o.err;
    EXPECT_TRUE(contains(o.err, Sha256::hex(original + "import os\n"))) << o.err;
    EXPECT_TRUE(contains(o.err, "refused")) << o.err;
    EXPECT_EQ(json::parse(runCli(path, {"library", "ls", "--json"}).out)["runs"].size(), 2u);
}

TEST_F(LibraryCommands, VerifyExits1WhenABlobIsDamaged)
{
    Outcome o = runCli(path, {"library", "verify"});
    EXPECT_EQ(o.exitCode, 0) << o.out << o.err;
    EXPECT_TRUE(contains(o.out, "ok")) << o.out;

    test::rawExec(path, "UPDATE blobs SET data = CAST('cachf' AS BLOB) WHERE sha256 = '" + Sha256::hex("cache") + "'");
    o = runCli(path, {"library", "verify", "--json"});
    EXPECT_EQ(o.exitCode, 1);
    const json report = json::parse(o.out);
    EXPECT_EQ(report["ok"], false);
    ASSERT_EQ(report["damaged"].size(), 1u);
    EXPECT_EQ(report["damaged"][0]["sha256"], Sha256::hex("cache"));
    EXPECT_EQ(report["damaged"][0]["runs"], json::array({okRun}));

    o = runCli(path, {"library", "show", std::to_string(okRun)});
    EXPECT_EQ(o.exitCode, 1);
    EXPECT_TRUE(contains(o.err, "damaged blob " + Sha256::hex("cache"))) << o.err;
    o = runCli(path, {"library", "export", std::to_string(okRun), dir.file("out")});
    EXPECT_EQ(o.exitCode, 1);
    EXPECT_TRUE(contains(o.err, "damaged")) << o.err;
}

TEST_F(LibraryCommands, AnUnusableLibraryFileExits2NamingIt)
{
    const std::string junk = dir.file("junk.sqlite3");
    test::writeBytes(junk, std::string(4096, 'j'));
    for (const std::vector<std::string>& args : std::vector<std::vector<std::string>> {
             {"library", "ls"}, {"library", "show", "1"}, {"library", "verify"}, {"library", "gc"}}) {
        const Outcome o = runCli(junk, args);
        EXPECT_EQ(o.exitCode, 2) << args[1];
        EXPECT_TRUE(contains(o.err, junk)) << o.err;
        EXPECT_TRUE(contains(o.err, "not an SQLite database")) << o.err;
    }
    EXPECT_EQ(test::readBytes(junk), std::string(4096, 'j'));

    ::chmod(path.c_str(), 0444);
    const Outcome o = runCli(path, {"library", "rm", "1"});
    EXPECT_EQ(o.exitCode, 2);
    EXPECT_TRUE(contains(o.err, "read-only")) << o.err;
}

TEST_F(LibraryCommands, UsageErrorsExit2)
{
    EXPECT_EQ(runCli(path, {"library"}).exitCode, 2);
    EXPECT_EQ(runCli(path, {"library", "show"}).exitCode, 2);
    EXPECT_EQ(runCli(path, {"library", "show", "abc"}).exitCode, 2);
    EXPECT_EQ(runCli(path, {"library", "frobnicate"}).exitCode, 2);
}

}  // namespace
}  // namespace ps::library
