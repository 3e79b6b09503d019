#pragma once

#include <string>

namespace ps::install {

/// Where the studio's parts are, for the running executable. Two layouts:
///  - the build tree: build/bin/{precompile-studio,precompile-studio-worker}, the Python package
///    and resources in the source tree, the environment the build was configured with;
///  - installed (the Debian package, or any PREFIX): PREFIX/bin/precompile-studio, the worker and
///    the Python package in PREFIX/lib/precompile-studio/, examples, lessons and requirements.txt
///    in PREFIX/share/precompile-studio/, the environment per user in
///    ${XDG_CACHE_HOME:-$HOME/.cache}/precompile-studio/env-<key of requirements.txt>.
/// Installed is recognised by PREFIX/lib/precompile-studio/precompile-studio-worker next to the
/// executable's folder, so a package unpacked into any root (dpkg -x) works unchanged.
/// Environment variables override each part: PS_PYTHON_ENV, PS_PYTHON_PACKAGE_DIR, PS_RESOURCES_DIR.
class InstallLayout {
public:
    /// The folder of the running executable.
    static std::string executableDir();
    /// PREFIX when the running executable is an installed one (PREFIX/bin/...), else empty.
    static std::string installedPrefix();
    /// The worker executable's path.
    static std::string workerExecutable();
    /// The folder that holds the precompile_studio Python package.
    static std::string pythonPackageDir();
    /// The folder that holds examples/ and lessons/.
    static std::string resourcesDir();
    /// The requirements file the studio's environment is made from.
    static std::string requirementsFile();
    /// The studio's Python environment: $PS_PYTHON_ENV, else the per-user one (installed) or the
    /// build's (build tree).
    static std::string defaultPythonEnv();
    /// ${XDG_CACHE_HOME:-$HOME/.cache}/precompile-studio/env-<key>: where `setup` makes the
    /// environment and an installed studio looks for it (packaging/python-env-path.sh's path).
    static std::string perUserPythonEnv();
    /// The command that makes the studio's environment, for messages: "`precompile-studio setup`"
    /// when installed, else "`packaging/bootstrap.sh` (or `make`)".
    static std::string environmentCommand();
    /// For an installed worker ("" in the build tree, whose worker has a RUNPATH): the folders
    /// its libraries come from in this environment, for LD_LIBRARY_PATH: torch/lib of its
    /// site-packages (LibTorch) and, when the environment's base interpreter keeps its own
    /// libpythonX.Y.so.1.0 beside it (pyvenv.cfg's home/../lib, e.g. pyenv), that folder, so the
    /// worker embeds the same CPython as the environment's; Debian's python3.X has it in the
    /// system's library folder, found without help.
    static std::string workerLibraryPath(const std::string& pythonEnv, const std::string& pythonVersion);
};

}  // namespace ps::install
