#pragma once

#include <string>

namespace ps::install {

/// Where the studio's parts are, for the running executable. Two layouts:
///  - the build tree: build/bin/{precompile-studio,precompile-studio-worker-SERIES}, the Python
///    package and resources in the source tree, the environments the build was configured with;
///  - installed (the Debian package, or any PREFIX): PREFIX/bin/precompile-studio, the workers and
///    the Python package in PREFIX/lib/precompile-studio/, examples, lessons and the requirements
///    files in PREFIX/share/precompile-studio/, the environments per user in
///    ${XDG_CACHE_HOME:-$HOME/.cache}/precompile-studio/env-<key of the series' requirements>.
/// A worker and an environment per torch series (TorchSeries; docs/design/torch-versions.md).
/// Installed is recognised by PREFIX/lib/precompile-studio/python next to the executable's
/// folder, so a package unpacked into any root (dpkg -x) works unchanged.
/// Environment variables override each part: PS_PYTHON_ENV, PS_PYTHON_PACKAGE_DIR, PS_RESOURCES_DIR.
class InstallLayout {
public:
    /// The folder of the running executable.
    static std::string executableDir();
    /// PREFIX when the running executable is an installed one (PREFIX/bin/...), else empty.
    static std::string installedPrefix();
    /// The path of the worker built against `series`' LibTorch (precompile-studio-worker-2.15).
    static std::string workerExecutable(const std::string& series);
    /// The folder that holds the precompile_studio Python package.
    static std::string pythonPackageDir();
    /// The folder that holds examples/ and lessons/.
    static std::string resourcesDir();
    /// The requirements file the studio's environment for `series` is made from
    /// (requirements.txt for the default series, requirements-torchX.Y.txt for another).
    static std::string requirementsFile(const std::string& series);
    /// The studio's environment for `series`: the build's (build tree, when it was configured
    /// with one of that series), else the per-user one.
    static std::string pythonEnv(const std::string& series);
    /// The environment a run uses when nothing names a torch: $PS_PYTHON_ENV, else the default
    /// series' environment when it is complete, else another series' complete one, else the
    /// default series' (which the studio then offers to make).
    static std::string defaultPythonEnv();
    /// ${XDG_CACHE_HOME:-$HOME/.cache}/precompile-studio/env-<key>: where `setup` makes the
    /// environment and an installed studio looks for it (packaging/python-env-path.sh's path).
    static std::string perUserPythonEnv(const std::string& series);
    /// Whether `env` holds a finished environment (bin/python and the .complete marker).
    static bool complete(const std::string& env);
    /// The command that makes the studio's environment for `series`, for messages (installed:
    /// "`precompile-studio setup`", another series "`precompile-studio setup --torch 2.14.1`";
    /// a clone: "`packaging/bootstrap.sh` (or `make`)", another series
    /// "`PS_TORCH_SERIES=2.14 packaging/bootstrap.sh` (or `make test`)").
    static std::string environmentCommand(const std::string& series);
    static std::string environmentCommand();  ///< the default series' command
    /// For an installed worker ("" in the build tree, whose worker has a RUNPATH): the folders
    /// its libraries come from in this environment, for LD_LIBRARY_PATH: torch/lib of its
    /// site-packages (LibTorch) and, when the environment's base interpreter keeps its own
    /// libpythonX.Y.so.1.0 beside it (pyvenv.cfg's home/../lib, e.g. pyenv), that folder, so the
    /// worker embeds the same CPython as the environment's; Debian's python3.X has it in the
    /// system's library folder, found without help.
    static std::string workerLibraryPath(const std::string& pythonEnv, const std::string& pythonVersion);
};

}  // namespace ps::install
