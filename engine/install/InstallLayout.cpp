#include "install/InstallLayout.h"

#include "install/TorchSeries.h"

#include <algorithm>
#include <cstdlib>
#include <filesystem>
#include <fstream>

namespace ps::install {

namespace fs = std::filesystem;

namespace {

std::string fromEnvironment(const char* name)
{
    const char* value = std::getenv(name);
    return value && *value ? std::string(value) : std::string();
}

/// The value of `key` in a compiled-in "2.15=VALUE,2.14=VALUE" list; "" when absent.
std::string listed(const std::string& list, const std::string& key)
{
    std::size_t start = 0;
    while (start <= list.size()) {
        const auto end = std::min(list.find(',', start), list.size());
        const std::string item = list.substr(start, end - start);
        if (item.size() > key.size() && item.compare(0, key.size(), key) == 0 && item[key.size()] == '=')
            return item.substr(key.size() + 1);
        start = end + 1;
    }
    return {};
}

std::string requirementsName(const std::string& series)
{
    return series == TorchSeries::defaultSeries() ? "requirements.txt" : "requirements-torch" + series + ".txt";
}

}  // namespace

std::string InstallLayout::executableDir()
{
    std::error_code ec;
    const fs::path self = fs::read_symlink("/proc/self/exe", ec);
    return ec ? std::string(".") : self.parent_path().string();
}

std::string InstallLayout::installedPrefix()
{
    const fs::path prefix = fs::path(executableDir()).parent_path();
    std::error_code ec;
    if (fs::is_directory(prefix / "lib" / "precompile-studio" / "python" / "precompile_studio", ec))
        return prefix.string();
    return {};
}

std::string InstallLayout::workerExecutable(const std::string& series)
{
    const std::string name = "precompile-studio-worker-" + series;
    if (const auto prefix = installedPrefix(); !prefix.empty())
        return (fs::path(prefix) / "lib" / "precompile-studio" / name).string();
    return (fs::path(executableDir()) / name).string();
}

std::string InstallLayout::pythonPackageDir()
{
    if (auto dir = fromEnvironment("PS_PYTHON_PACKAGE_DIR"); !dir.empty())
        return dir;
    if (const auto prefix = installedPrefix(); !prefix.empty())
        return (fs::path(prefix) / "lib" / "precompile-studio" / "python").string();
    return PS_SOURCE_PYTHON_PACKAGE_DIR;
}

std::string InstallLayout::resourcesDir()
{
    if (auto dir = fromEnvironment("PS_RESOURCES_DIR"); !dir.empty())
        return dir;
    if (const auto prefix = installedPrefix(); !prefix.empty())
        return (fs::path(prefix) / "share" / "precompile-studio").string();
    return PS_SOURCE_RESOURCES_DIR;
}

std::string InstallLayout::requirementsFile(const std::string& series)
{
    if (const auto prefix = installedPrefix(); !prefix.empty())
        return (fs::path(prefix) / "share" / "precompile-studio" / requirementsName(series)).string();
    return (fs::path(PS_SOURCE_PACKAGING_DIR) / requirementsName(series)).string();
}

std::string InstallLayout::pythonEnv(const std::string& series)
{
    if (installedPrefix().empty())
        if (auto built = listed(PS_BUILD_TORCH_ENVS, series); !built.empty())
            return built;
    return perUserPythonEnv(series);
}

bool InstallLayout::complete(const std::string& env)
{
    std::error_code ec;
    return fs::exists(fs::path(env) / "bin" / "python", ec) && fs::exists(fs::path(env) / ".complete", ec);
}

std::string InstallLayout::defaultPythonEnv()
{
    if (auto env = fromEnvironment("PS_PYTHON_ENV"); !env.empty())
        return env;
    for (const auto& series : TorchSeries::supported())
        if (const auto env = pythonEnv(series); complete(env))
            return env;
    return pythonEnv(TorchSeries::defaultSeries());
}

std::string InstallLayout::perUserPythonEnv(const std::string& series)
{
    fs::path cache;
    if (auto xdg = fromEnvironment("XDG_CACHE_HOME"); !xdg.empty())
        cache = xdg;
    else if (auto home = fromEnvironment("HOME"); !home.empty())
        cache = fs::path(home) / ".cache";
    else
        cache = fs::temp_directory_path();
    return (cache / "precompile-studio" / ("env-" + listed(PS_ENVIRONMENT_KEYS, series))).string();
}

std::string InstallLayout::environmentCommand(const std::string& series)
{
    const bool other = series != TorchSeries::defaultSeries();
    if (!installedPrefix().empty())
        return other ? "`precompile-studio setup --torch " + TorchSeries::pinned(series) + "`"
                     : "`precompile-studio setup`";
    return other ? "`PS_TORCH_SERIES=" + series + " packaging/bootstrap.sh` (or `make test`)"
                 : "`packaging/bootstrap.sh` (or `make`)";
}

std::string InstallLayout::environmentCommand()
{
    return environmentCommand(TorchSeries::defaultSeries());
}

std::string InstallLayout::workerLibraryPath(const std::string& pythonEnv, const std::string& pythonVersion)
{
    if (installedPrefix().empty())
        return {};
    std::string path
        = (fs::path(pythonEnv) / "lib" / ("python" + pythonVersion) / "site-packages" / "torch" / "lib").string();
    std::ifstream cfg(fs::path(pythonEnv) / "pyvenv.cfg");
    std::string line;
    while (std::getline(cfg, line)) {
        if (line.rfind("home", 0) != 0)
            continue;
        const auto eq = line.find('=');
        if (eq == std::string::npos)
            break;
        const auto start = line.find_first_not_of(" \t", eq + 1);
        const fs::path home = start == std::string::npos ? fs::path() : fs::path(line.substr(start));
        const fs::path lib = home.parent_path() / "lib";
        std::error_code ec;
        if (!home.empty() && fs::exists(lib / ("libpython" + pythonVersion + ".so.1.0"), ec))
            path += ":" + lib.string();
        break;
    }
    return path;
}

}  // namespace ps::install
