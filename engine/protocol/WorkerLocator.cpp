#include "protocol/WorkerLocator.h"

#include "install/InstallLayout.h"
#include "install/TorchSeries.h"
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

std::string sitePackages(const std::string& env)
{
    return (fs::path(env) / "lib" / ("python" + UserEnvironment::workerPythonVersion()) / "site-packages").string();
}

/// The torch version in the first of the user's site folders that holds one.
std::optional<std::string> userTorch(const UserEnvironment& env)
{
    for (const auto& dir : env.siteDirs)
        if (auto version = install::TorchSeries::installedVersion(dir))
            return version;
    return std::nullopt;
}

std::string missingEnvironment(const std::string& env, const std::string& series)
{
    return "the studio's Python environment is missing: " + env + " (for torch " + series
        + ") has no bin/python; make it with " + install::InstallLayout::environmentCommand(series);
}

}  // namespace

std::optional<std::string> WorkerLocator::torchSeriesOf(const std::string& env)
{
    const auto version = install::TorchSeries::installedVersion(sitePackages(env));
    return version ? install::TorchSeries::of(*version) : std::nullopt;
}

WorkerLaunch WorkerLocator::locate(const std::optional<std::string>& userEnv)
{
    using install::InstallLayout;
    using install::TorchSeries;
    std::optional<UserEnvironment> user;
    std::optional<std::string> userVersion;
    std::string series;
    if (userEnv && !userEnv->empty()) {
        user = UserEnvironment::resolve(*userEnv);
        userVersion = userTorch(*user);
        if (userVersion && !userVersion->empty()) {
            const auto s = TorchSeries::of(*userVersion);
            if (!s)
                throw StartError(model::StartFailure::Environment,
                    "the Python environment " + user->path + " has torch " + *userVersion + " but the studio runs "
                        + TorchSeries::supportedWords() + ": install one of them in it, or leave torch out of it");
            series = *s;
        }
    }

    WorkerLaunch launch;
    const char* forced = std::getenv("PS_PYTHON_ENV");
    if (forced && *forced) {
        launch.pythonEnv = forced;
        const auto own = torchSeriesOf(launch.pythonEnv);
        if (!series.empty() && own && *own != series)
            throw StartError(model::StartFailure::Environment,
                "the Python environment " + user->path + " has torch " + *userVersion + " but PS_PYTHON_ENV ("
                    + launch.pythonEnv + ") has torch " + *own + ": name an environment of torch " + series
                    + " in PS_PYTHON_ENV, or unset it");
        if (series.empty())
            series = own.value_or(TorchSeries::defaultSeries());
    } else if (!series.empty()) {
        launch.pythonEnv = InstallLayout::pythonEnv(series);
    } else {
        launch.pythonEnv = InstallLayout::defaultPythonEnv();
        series = torchSeriesOf(launch.pythonEnv).value_or(TorchSeries::defaultSeries());
    }

    const bool complete = InstallLayout::complete(launch.pythonEnv);
    // No environment of the studio's for that torch yet, but the user names one with it: it is the
    // studio's (an installed studio given --python-env before `setup`).
    const bool userIsStudios = !complete && user && userVersion && !userVersion->empty()
        && fs::exists(fs::path(user->path) / "bin" / "python")
        && fs::exists(fs::path(sitePackages(user->path)) / "torch" / "__init__.py");
    if (userIsStudios)
        launch.pythonEnv = fs::absolute(user->path).lexically_normal().string();
    else if (!fs::exists(fs::path(launch.pythonEnv) / "bin" / "python"))
        throw StartError(model::StartFailure::Environment, missingEnvironment(launch.pythonEnv, series));
    else if (!complete)
        throw StartError(model::StartFailure::Environment,
            "the studio's Python environment " + launch.pythonEnv
                + " is incomplete (its set-up was interrupted); remake it with "
                + InstallLayout::environmentCommand(series));
    launch.executable = InstallLayout::workerExecutable(series);
    if (!fs::exists(launch.executable))
        throw StartError(model::StartFailure::Executable,
            "the worker for torch " + series + " is missing: " + launch.executable
                + "; build it with `make` (`make test` builds the workers of both torch versions)");
    launch.pythonPackageDir = InstallLayout::pythonPackageDir();
    launch.libraryPath = InstallLayout::workerLibraryPath(launch.pythonEnv, UserEnvironment::workerPythonVersion());
    if (userIsStudios || !user)
        return launch;
    std::error_code ec;
    // The studio's own environment named as the user's: nothing to add.
    if (!fs::equivalent(user->path, launch.pythonEnv, ec)) {
        launch.userEnv = user->path;
        launch.userSiteDirs = user->siteDirs;
    }
    return launch;
}

}  // namespace ps::protocol
