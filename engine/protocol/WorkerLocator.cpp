#include "protocol/WorkerLocator.h"

#include "install/InstallLayout.h"
#include "protocol/StartError.h"
#include "protocol/UserEnvironment.h"

#include <cstdlib>
#include <filesystem>

namespace ps::protocol {

namespace fs = std::filesystem;

std::string WorkerLocator::defaultPythonEnv()
{
    return install::InstallLayout::defaultPythonEnv();
}

std::string WorkerLocator::executableDir()
{
    return install::InstallLayout::executableDir();
}

namespace {

/// Whether `dir` is an environment of the worker's Python with torch in it, usable as the
/// studio's own when that is missing (an installed studio given --python-env before `setup`).
bool holdsTorch(const std::string& dir)
{
    std::error_code ec;
    const fs::path site = fs::path(dir) / "lib" / ("python" + UserEnvironment::workerPythonVersion()) / "site-packages";
    return fs::exists(fs::path(dir) / "bin" / "python", ec) && fs::exists(site / "torch" / "__init__.py", ec);
}

}  // namespace

WorkerLaunch WorkerLocator::locate(const std::optional<std::string>& userEnv)
{
    WorkerLaunch launch;
    launch.pythonEnv = defaultPythonEnv();
    const bool complete = fs::exists(fs::path(launch.pythonEnv) / "bin" / "python")
        && fs::exists(fs::path(launch.pythonEnv) / ".complete");
    // No environment of the studio's yet, but the user names one with torch: it is the studio's.
    const bool userIsStudios = !complete && userEnv && !userEnv->empty() && holdsTorch(*userEnv);
    if (userIsStudios)
        launch.pythonEnv = fs::absolute(*userEnv).lexically_normal().string();
    else if (!fs::exists(fs::path(launch.pythonEnv) / "bin" / "python"))
        throw StartError(model::StartFailure::Environment,
            "the studio's Python environment is missing: " + launch.pythonEnv + " has no bin/python; make it with "
                + install::InstallLayout::environmentCommand());
    else if (!complete)
        throw StartError(model::StartFailure::Environment,
            "the studio's Python environment " + launch.pythonEnv
                + " is incomplete (its set-up was interrupted); remake it with "
                + install::InstallLayout::environmentCommand());
    launch.executable = install::InstallLayout::workerExecutable();
    if (!fs::exists(launch.executable))
        throw StartError(model::StartFailure::Executable,
            "the worker executable is missing: " + launch.executable + "; build it with `make`");
    launch.pythonPackageDir = install::InstallLayout::pythonPackageDir();
    launch.libraryPath
        = install::InstallLayout::workerLibraryPath(launch.pythonEnv, UserEnvironment::workerPythonVersion());
    if (userIsStudios)
        return launch;
    if (userEnv && !userEnv->empty()) {
        const auto env = UserEnvironment::resolve(*userEnv);
        std::error_code ec;
        // The studio's own environment named as the user's: nothing to add.
        if (!fs::equivalent(env.path, launch.pythonEnv, ec)) {
            launch.userEnv = env.path;
            launch.userSiteDirs = env.siteDirs;
        }
    }
    return launch;
}

}  // namespace ps::protocol
