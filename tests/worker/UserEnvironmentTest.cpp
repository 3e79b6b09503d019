// A user's own environment (--python-env V, PYTHONPATH): the script imports its packages
// without editing sys.path; the worker keeps the studio's torch; another torch build is
// refused in one line naming both versions.
#include "StudioRun.h"

#include <gtest/gtest.h>

#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <sstream>

namespace fs = std::filesystem;
using namespace ps::test;

namespace {

const char* kScript = R"(import torch
import studio_user_pkg
import studio_editable_pkg


def fn(x):
    return x * studio_user_pkg.SCALE + studio_editable_pkg.SHIFT


def example_inputs():
    return (torch.ones(4),)
)";

void write(const fs::path& p, const std::string& text)
{
    fs::create_directories(p.parent_path());
    std::ofstream(p) << text;
}

/// A venv-shaped folder for the worker's Python, with one package and one editable install
/// (a .pth file naming a source folder elsewhere, as `pip install -e` makes).
fs::path makeUserEnv(const TempDir& dir)
{
    const fs::path venv = fs::path(dir.path()) / "user-venv";
    const fs::path site = venv / ("lib/python" + std::string(PS_TEST_PYTHON_VERSION)) / "site-packages";
    write(site / "studio_user_pkg/__init__.py", "SCALE = 3.0\n");
    write(site / "studio_user_pkg-1.0.dist-info/METADATA", "Name: studio_user_pkg\nVersion: 1.0\n");
    write(fs::path(dir.path()) / "project/src/studio_editable_pkg/__init__.py", "SHIFT = 1.0\n");
    write(site / "studio_editable.pth", (fs::path(dir.path()) / "project/src").string() + "\n");
    return venv;
}

/// The studio's torch/version.py, as a user environment with the same torch build holds it.
std::string studioTorchVersionFile()
{
    // The torch of the environment this run of the suite uses (PS_PYTHON_ENV for torch 2.14's).
    std::ifstream f(fs::path(suiteEnvironment()) / ("lib/python" + std::string(PS_TEST_PYTHON_VERSION))
        / "site-packages/torch/version.py");
    return std::string(std::istreambuf_iterator<char>(f), {});
}

}  // namespace

TEST(UserEnvironment, AScriptImportsThePackagesOfTheEnvironmentItIsGiven)
{
    TempDir dir;
    const auto venv = makeUserEnv(dir);
    const std::string script = dir.write("uses_user_pkg.py", kScript);

    const auto without = runStudio(script);
    EXPECT_EQ(without.process.exitCode, 2) << without.process.err;  // an error before any capture
    EXPECT_NE(without.report["message"].get<std::string>().find("studio_user_pkg"), std::string::npos)
        << without.report.dump();

    const auto with = runStudio(script, {"--python-env", venv.string()});
    EXPECT_EQ(with.process.exitCode, 0) << with.report.dump() << with.process.err;
    EXPECT_EQ(with.report["status"], "ok");
}

TEST(UserEnvironment, PythonPathIsHonoured)
{
    TempDir dir;
    const auto venv = makeUserEnv(dir);
    const std::string site = (venv / ("lib/python" + std::string(PS_TEST_PYTHON_VERSION)) / "site-packages").string();
    const std::string script = dir.write("uses_user_pkg.py", kScript);
    ::setenv("PYTHONPATH", (site + ":" + dir.path() + "/project/src").c_str(), 1);
    const auto r = runStudio(script);
    ::unsetenv("PYTHONPATH");
    EXPECT_EQ(r.process.exitCode, 0) << r.report.dump() << r.process.err;
}

TEST(UserEnvironment, TheSameTorchBuildIsAcceptedAndTheStudiosCopyIsTheOneImported)
{
    TempDir dir;
    const auto venv = makeUserEnv(dir);
    const fs::path torch = venv / ("lib/python" + std::string(PS_TEST_PYTHON_VERSION)) / "site-packages/torch";
    write(torch / "version.py", studioTorchVersionFile());
    write(torch / "__init__.py", "raise ImportError('the user environment torch was imported')\n");
    const auto r = runStudio(dir.write("uses_user_pkg.py", kScript), {"--python-env", venv.string()});
    EXPECT_EQ(r.process.exitCode, 0) << r.report.dump() << r.process.err;
}

TEST(UserEnvironment, AnotherTorchBuildIsRefusedNamingBothVersions)
{
    TempDir dir;
    const auto venv = makeUserEnv(dir);
    const fs::path torch = venv / ("lib/python" + std::string(PS_TEST_PYTHON_VERSION)) / "site-packages/torch";
    write(torch / "version.py", "__version__ = '2.9.1+cpu'\ngit_version = 'abcdef'\n");
    write(torch / "__init__.py", "");
    const auto r = runStudio(dir.write("uses_user_pkg.py", kScript), {"--python-env", venv.string()});
    EXPECT_EQ(r.process.exitCode, 2) << r.process.err;
    EXPECT_EQ(r.report["status"], "error") << r.report.dump();
    EXPECT_EQ(r.report["start_failure"], "environment") << r.report.dump();
    const std::string message = r.report["message"];
    EXPECT_NE(message.find("torch 2.9.1+cpu"), std::string::npos) << message;
    EXPECT_NE(message.find("torch 2.14"), std::string::npos) << message;
    EXPECT_NE(message.find(venv.string()), std::string::npos) << message;
    EXPECT_EQ(message.find('\n'), std::string::npos) << message;
}

TEST(UserEnvironment, AMissingEnvironmentIsNamed)
{
    TempDir dir;
    const auto r = runStudio(dir.write("tiny.py", kScript), {"--python-env", dir.file("absent")});
    EXPECT_EQ(r.process.exitCode, 2);
    EXPECT_EQ(r.report["start_failure"], "environment") << r.report.dump();
    EXPECT_NE(r.report["message"].get<std::string>().find("absent does not exist"), std::string::npos)
        << r.report.dump();
}

// One worker per torch series, each linking its own LibTorch: the torch in the user's environment
// picks which one runs the script, and the report's worker object says which torch and which
// precompile API ran (2.14's call, 2.15's capture block).
TEST(UserEnvironment, TheTorchOfTheEnvironmentPicksTheWorkerThatRuns)
{
    const std::string envs = PS_TEST_TORCH_ENVS;  // "2.15=/env,2.14=/env"
    if (envs.find(',') == std::string::npos)
        GTEST_SKIP() << "this build has one torch environment (" << envs << "); make test builds both";
    const char* forced = std::getenv("PS_PYTHON_ENV");
    const std::string saved = forced ? forced : "";
    ::unsetenv("PS_PYTHON_ENV");  // the user's environment decides, not the suite's registration
    std::stringstream list(envs);
    std::string item;
    int ran = 0;
    while (std::getline(list, item, ',')) {
        const std::string series = item.substr(0, item.find('='));
        const fs::path env = item.substr(item.find('=') + 1);
        TempDir dir;
        const auto venv = makeUserEnv(dir);
        const fs::path site = "lib/python" + std::string(PS_TEST_PYTHON_VERSION) + "/site-packages";
        std::ifstream studioVersion(env / site / "torch/version.py");
        write(venv / site / "torch/version.py",
            std::string(std::istreambuf_iterator<char>(studioVersion), std::istreambuf_iterator<char>()));
        write(venv / site / "torch/__init__.py", "raise ImportError('the user environment torch was imported')\n");
        const auto r = runStudio(dir.write("uses_user_pkg.py", kScript), {"--python-env", venv.string()});
        EXPECT_EQ(r.process.exitCode, 0) << series << ": " << r.report.dump() << r.process.err;
        const auto& worker = r.report["worker"];
        EXPECT_EQ(worker.value("torch", "").rfind(series + ".", 0), 0u) << series << ": " << worker.dump();
        EXPECT_EQ(worker.value("precompile_api", ""), series == "2.14" ? "precompile-call" : "capture-load")
            << worker.dump();
        ++ran;
    }
    if (!saved.empty())
        ::setenv("PS_PYTHON_ENV", saved.c_str(), 1);
    EXPECT_EQ(ran, 2);
}
