#include "protocol/UserEnvironment.h"

#include "protocol/StartError.h"

#include <algorithm>
#include <filesystem>

namespace ps::protocol {

namespace fs = std::filesystem;

namespace {

[[noreturn]] void refuse(const std::string& what)
{
    throw StartError(model::StartFailure::Environment, what);
}

bool isDir(const fs::path& p)
{
    std::error_code ec;
    return fs::is_directory(p, ec);
}

/// A folder pip installed into: it holds a package's *.dist-info or *.egg-info.
bool holdsPackages(const fs::path& dir)
{
    std::error_code ec;
    for (fs::directory_iterator it(dir, ec), end; !ec && it != end; it.increment(ec)) {
        const std::string ext = it->path().extension().string();
        if (ext == ".dist-info" || ext == ".egg-info")
            return true;
    }
    return false;
}

/// The "X.Y" of every lib/pythonX.Y/site-packages under `prefix`, sorted.
std::vector<std::string> pythonsIn(const fs::path& prefix)
{
    std::vector<std::string> found;
    for (const char* lib : {"lib", "lib64"}) {
        std::error_code ec;
        for (fs::directory_iterator it(prefix / lib, ec), end; !ec && it != end; it.increment(ec)) {
            const std::string name = it->path().filename().string();
            if (name.rfind("python", 0) == 0 && isDir(it->path() / "site-packages"))
                found.push_back(name.substr(6));
        }
    }
    std::sort(found.begin(), found.end());
    found.erase(std::unique(found.begin(), found.end()), found.end());
    return found;
}

}  // namespace

std::string UserEnvironment::workerPythonVersion()
{
    return PS_WORKER_PYTHON_VERSION;
}

UserEnvironment UserEnvironment::resolve(const std::string& given, const std::string& pythonVersion)
{
    if (given.empty())
        refuse("the Python environment option is empty: name a venv folder");
    std::error_code ec;
    fs::path prefix = fs::absolute(given, ec);
    if (ec || !fs::exists(prefix, ec))
        refuse("the Python environment " + given + " does not exist");
    // Its interpreter named instead of the folder: V/bin/python -> V.
    if (!isDir(prefix)) {
        const fs::path bin = prefix.parent_path();
        if (bin.filename() == "bin" && prefix.filename().string().rfind("python", 0) == 0)
            prefix = bin.parent_path();
        else
            refuse("the Python environment " + given + " is not a folder (name the venv's folder)");
    }
    UserEnvironment env;
    env.path = prefix.lexically_normal().string();
    for (const char* lib : {"lib", "lib64"}) {
        const fs::path site = prefix / lib / ("python" + pythonVersion) / "site-packages";
        if (!isDir(site))
            continue;
        const fs::path canonical = fs::canonical(site, ec);
        const std::string s = (ec ? site : canonical).string();
        if (std::find(env.siteDirs.begin(), env.siteDirs.end(), s) == env.siteDirs.end())
            env.siteDirs.push_back(s);
    }
    if (!env.siteDirs.empty())
        return env;
    if (const auto others = pythonsIn(prefix); !others.empty())
        refuse("the Python environment " + env.path + " is for Python " + others.front()
            + " but the studio's worker runs Python " + pythonVersion + ": make it with python" + pythonVersion
            + " -m venv " + env.path);
    if (holdsPackages(prefix)) {
        env.siteDirs.push_back(fs::canonical(prefix, ec).string());
        return env;
    }
    refuse("the Python environment " + env.path + " has no lib/python" + pythonVersion
        + "/site-packages and no installed packages: name a venv folder (python" + pythonVersion
        + " -m venv DIR) or a folder pip installed into");
}

}  // namespace ps::protocol
