#include "protocol/WorkerLocator.h"

#include "protocol/StartError.h"
#include "protocol/UserEnvironment.h"

#include <cstdlib>
#include <filesystem>

namespace ps::protocol {

namespace fs = std::filesystem;

std::string WorkerLocator::defaultPythonEnv()
{
    if (const char* env = std::getenv("PS_PYTHON_ENV"); env && *env)
        return env;
    return PS_DEFAULT_PYTHON_ENV;
}

std::string WorkerLocator::executableDir()
{
    std::error_code ec;
    const fs::path self = fs::read_symlink("/proc/self/exe", ec);
    return ec ? std::string(".") : self.parent_path().string();
}

WorkerLaunch WorkerLocator::locate(const std::optional<std::string>& userEnv)
{
    WorkerLaunch launch;
    launch.pythonEnv = defaultPythonEnv();
    if (!fs::exists(fs::path(launch.pythonEnv) / "bin" / "python"))
        throw StartError(model::StartFailure::Environment,
            "the studio's Python environment is missing: " + launch.pythonEnv
                + " has no bin/python; make it with `packaging/bootstrap.sh` (or `make`)");
    if (!fs::exists(fs::path(launch.pythonEnv) / ".complete"))
        throw StartError(model::StartFailure::Environment,
            "the studio's Python environment " + launch.pythonEnv
                + " is incomplete (its set-up was interrupted); remake it with `packaging/bootstrap.sh`");
    launch.executable = (fs::path(executableDir()) / "precompile-studio-worker").string();
    if (!fs::exists(launch.executable))
        throw StartError(model::StartFailure::Executable,
            "the worker executable is missing: " + launch.executable + "; build it with `make`");
    launch.pythonPackageDir = PS_PYTHON_PACKAGE_DIR;
    if (const char* dir = std::getenv("PS_PYTHON_PACKAGE_DIR"); dir && *dir)
        launch.pythonPackageDir = dir;
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
