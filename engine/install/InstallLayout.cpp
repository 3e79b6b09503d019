#include "install/InstallLayout.h"

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
    if (fs::is_regular_file(prefix / "lib" / "precompile-studio" / "precompile-studio-worker", ec))
        return prefix.string();
    return {};
}

std::string InstallLayout::workerExecutable()
{
    if (const auto prefix = installedPrefix(); !prefix.empty())
        return (fs::path(prefix) / "lib" / "precompile-studio" / "precompile-studio-worker").string();
    return (fs::path(executableDir()) / "precompile-studio-worker").string();
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

std::string InstallLayout::requirementsFile()
{
    if (const auto prefix = installedPrefix(); !prefix.empty())
        return (fs::path(prefix) / "share" / "precompile-studio" / "requirements.txt").string();
    return PS_SOURCE_REQUIREMENTS;
}

std::string InstallLayout::defaultPythonEnv()
{
    if (auto env = fromEnvironment("PS_PYTHON_ENV"); !env.empty())
        return env;
    if (!installedPrefix().empty())
        return perUserPythonEnv();
    return PS_BUILD_PYTHON_ENV;
}

std::string InstallLayout::perUserPythonEnv()
{
    fs::path cache;
    if (auto xdg = fromEnvironment("XDG_CACHE_HOME"); !xdg.empty())
        cache = xdg;
    else if (auto home = fromEnvironment("HOME"); !home.empty())
        cache = fs::path(home) / ".cache";
    else
        cache = fs::temp_directory_path();
    return (cache / "precompile-studio" / (std::string("env-") + PS_ENVIRONMENT_KEY)).string();
}

std::string InstallLayout::environmentCommand()
{
    return installedPrefix().empty() ? "`packaging/bootstrap.sh` (or `make`)" : "`precompile-studio setup`";
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
