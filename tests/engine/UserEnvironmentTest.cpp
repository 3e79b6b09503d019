// The user's own Python environment (--python-env): which folders go on the worker's sys.path,
// and the one-line refusals for what cannot be used.
#include "protocol/UserEnvironment.h"
#include "protocol/StartError.h"

#include "../support/StudioProcess.h"

#include <gtest/gtest.h>

#include <filesystem>
#include <fstream>

namespace fs = std::filesystem;
using ps::protocol::StartError;
using ps::protocol::UserEnvironment;

namespace {

std::string refusal(const std::string& path, const std::string& version = "3.11")
{
    try {
        UserEnvironment::resolve(path, version);
    } catch (const StartError& e) {
        EXPECT_EQ(e.cause(), ps::model::StartFailure::Environment);
        return e.what();
    }
    ADD_FAILURE() << path << " was accepted";
    return {};
}

void touch(const fs::path& p)
{
    fs::create_directories(p.parent_path());
    std::ofstream(p) << "";
}

}  // namespace

TEST(UserEnvironment, AVenvGivesItsSitePackagesForTheWorkersPython)
{
    ps::test::TempDir dir;
    const fs::path venv = fs::path(dir.path()) / "venv";
    fs::create_directories(venv / "lib/python3.11/site-packages");
    fs::create_directories(venv / "lib/python3.12/site-packages");  // another Python's: ignored
    touch(venv / "bin/python");
    const auto env = UserEnvironment::resolve(venv.string(), "3.11");
    EXPECT_EQ(env.path, venv.string());
    ASSERT_EQ(env.siteDirs.size(), 1u);
    EXPECT_EQ(env.siteDirs[0], fs::canonical(venv / "lib/python3.11/site-packages").string());

    // Its interpreter named instead of its folder.
    EXPECT_EQ(UserEnvironment::resolve((venv / "bin/python").string(), "3.11").path, venv.string());
}

TEST(UserEnvironment, Lib64LinkedToLibCountsOnce)
{
    ps::test::TempDir dir;
    const fs::path venv = fs::path(dir.path()) / "venv";
    fs::create_directories(venv / "lib/python3.11/site-packages");
    fs::create_directory_symlink("lib", venv / "lib64");
    EXPECT_EQ(UserEnvironment::resolve(venv.string(), "3.11").siteDirs.size(), 1u);
}

TEST(UserEnvironment, AFolderPipInstalledIntoIsItsOwnSiteFolder)
{
    ps::test::TempDir dir;
    const fs::path target = fs::path(dir.path()) / "pkgs";
    fs::create_directories(target / "timm-1.0.dist-info");
    const auto env = UserEnvironment::resolve(target.string(), "3.11");
    ASSERT_EQ(env.siteDirs.size(), 1u);
    EXPECT_EQ(env.siteDirs[0], fs::canonical(target).string());
}

TEST(UserEnvironment, EachRefusalNamesTheCauseAndWhatToDo)
{
    ps::test::TempDir dir;
    const fs::path root = dir.path();

    EXPECT_NE(refusal((root / "absent").string()).find("does not exist"), std::string::npos);
    EXPECT_NE(refusal("").find("empty"), std::string::npos);

    touch(root / "file.txt");
    EXPECT_NE(refusal((root / "file.txt").string()).find("is not a folder"), std::string::npos);

    fs::create_directories(root / "old/lib/python3.9/site-packages");
    const auto wrongPython = refusal((root / "old").string());
    EXPECT_NE(wrongPython.find("is for Python 3.9"), std::string::npos) << wrongPython;
    EXPECT_NE(wrongPython.find("python3.11 -m venv"), std::string::npos) << wrongPython;

    fs::create_directories(root / "empty");
    const auto empty = refusal((root / "empty").string());
    EXPECT_NE(empty.find("no lib/python3.11/site-packages"), std::string::npos) << empty;
}

TEST(UserEnvironment, TheBuildKnowsTheWorkersPython)
{
    const auto v = UserEnvironment::workerPythonVersion();
    EXPECT_EQ(v.rfind("3.", 0), 0u) << v;
}
