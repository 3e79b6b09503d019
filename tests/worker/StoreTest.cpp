// A run is kept in the library (run_id in the report), verified in the worker with LibTorch,
// and comes back out whole: show, ls and export.
#include "StudioRun.h"

#include <gtest/gtest.h>

#include <filesystem>
#include <fstream>
#include <sstream>

using namespace ps::test;

namespace {
std::string slurp(const std::string& path)
{
    std::ifstream f(path, std::ios::binary);
    std::ostringstream ss;
    ss << f.rdbuf();
    return ss.str();
}

StudioRun runStored(const std::string& script, const std::string& library, const std::vector<std::string>& args = {})
{
    std::vector<std::string> argv = {PS_TEST_STUDIO, "--library", library, "run", script, "--json"};
    argv.insert(argv.end(), args.begin(), args.end());
    StudioRun run;
    run.process = runProcess(argv);
    run.report = nlohmann::json::parse(run.process.out, nullptr, false);
    if (const auto problems = schemaProblems(run.report); !problems.empty())
        ADD_FAILURE() << "the report does not follow docs/report.schema.json:\n" << problems;
    return run;
}
}  // namespace

TEST(Store, VerifiedRunIsStoredAndComesBackWhole)
{
    TempDir dir;
    const std::string lib = dir.file("lib.sqlite3");
    const auto r = runStored(example("training_step.py"), lib, {"--backend", "eager"});
    ASSERT_EQ(r.process.exitCode, 0) << r.process.out << r.process.err.substr(0, 3000);
    ASSERT_TRUE(r.report["run_id"].is_number_integer()) << r.report.dump();
    const auto id = std::to_string(r.report["run_id"].get<long long>());
    const auto& verify = r.report["captures"][0]["verify"];
    EXPECT_EQ(verify["ran"], true);
    EXPECT_EQ(verify["matches_eager"], true) << verify.dump(2);
    EXPECT_EQ(verify["grads_match"], true);
    ASSERT_FALSE(verify["grads"].empty());
    EXPECT_EQ(verify["grads"][0]["result"]["compared_by"], "libtorch") << "tensors are compared in C++";

    const auto show = runProcess({PS_TEST_STUDIO, "--library", lib, "library", "show", id, "--json"});
    ASSERT_EQ(show.exitCode, 0) << show.err;
    const auto stored = nlohmann::json::parse(show.out);
    const auto& report = stored.contains("report") ? stored["report"] : stored;
    EXPECT_EQ(report["captures"][0]["artifact"], r.report["captures"][0]["artifact"]);
    EXPECT_EQ(report["stored"], true);
    // The worker's files lived in a temporary folder that is gone: nothing points there.
    EXPECT_FALSE(r.report["captures"][0]["artifact"].contains("files")) << r.report["captures"][0]["artifact"];
    EXPECT_FALSE(report["captures"][0]["artifact"].contains("files"));

    const auto ls = runProcess({PS_TEST_STUDIO, "--library", lib, "library", "ls", "--json"});
    ASSERT_EQ(ls.exitCode, 0) << ls.err;
    EXPECT_NE(ls.out.find("training_step"), std::string::npos) << ls.out;

    const std::string out = dir.file("export");
    const auto ex = runProcess({PS_TEST_STUDIO, "--library", lib, "library", "export", id, out});
    ASSERT_EQ(ex.exitCode, 0) << ex.err;
    const auto py = slurp(out + "/training_step.py");
    EXPECT_EQ(
        static_cast<long long>(py.size()), r.report["captures"][0]["artifact"]["python_code_bytes"].get<long long>());
}

TEST(Store, FailedRunsAreKeptToo)
{
    TempDir dir;
    const std::string lib = dir.file("lib.sqlite3");
    const auto r = runStored(fixture("no_fn.py"), lib);
    EXPECT_EQ(r.process.exitCode, 2);
    ASSERT_TRUE(r.report["run_id"].is_number_integer()) << r.report.dump();
    const auto ls = runProcess({PS_TEST_STUDIO, "--library", lib, "library", "ls", "--status", "error", "--json"});
    EXPECT_NE(ls.out.find("no_fn"), std::string::npos) << ls.out;
}

TEST(Store, AnUnusableLibraryDoesNotLoseTheRunsOutcome)
{
    TempDir dir;
    const std::string lib = dir.write("lib.sqlite3", "this is not a database\n");
    const auto r = runStored(fixture("no_fn.py"), lib);
    EXPECT_EQ(r.process.exitCode, 2);
    EXPECT_EQ(r.report["status"], "error");
    EXPECT_TRUE(r.report["run_id"].is_null());
    EXPECT_NE(r.report.value("store_error", "").find(lib), std::string::npos) << r.report.dump();
    EXPECT_EQ(slurp(lib), "this is not a database\n") << "nothing overwritten";
}

TEST(Store, AnOkRunThatCouldNotBeStoredExitsThreeAndSaysSoFirst)
{
    TempDir dir;
    const std::string lib = dir.write("lib.sqlite3", "this is not a database\n");
    // Global options after the subcommand work as well as before it.
    const auto json = runProcess(
        {PS_TEST_STUDIO, "run", example("mlp_inference.py"), "--backend", "eager", "--library", lib, "--json"});
    EXPECT_EQ(json.exitCode, 3) << json.err;
    const auto report = nlohmann::json::parse(json.out, nullptr, false);
    EXPECT_EQ(schemaProblems(report), "");
    EXPECT_EQ(report["status"], "ok") << "the run itself kept the contract";
    EXPECT_EQ(report["stored"], false);
    EXPECT_NE(report.value("store_error", "").find(lib), std::string::npos) << report.dump();

    const auto text
        = runProcess({PS_TEST_STUDIO, "run", example("mlp_inference.py"), "--backend", "eager", "--library", lib});
    EXPECT_EQ(text.exitCode, 3);
    const std::string first = text.out.substr(0, text.out.find('\n'));
    EXPECT_NE(first.find(": not stored: "), std::string::npos) << first;
    EXPECT_EQ(first.find(": ok"), std::string::npos) << first;
    EXPECT_EQ(slurp(lib), "this is not a database\n") << "nothing overwritten";
}
