#pragma once

#include <string>
#include <vector>

namespace ps::protocol {

/// A user's own Python environment: the packages a script needs (transformers, timm, the
/// user's project) without touching the studio's. The worker keeps the studio's Python and
/// torch; it puts these site folders on sys.path ahead of the studio's own (see
/// engine/python/precompile_studio/script/environment.py, which also checks that a torch in them is
/// the build the worker links).
///
/// Accepted forms: a venv or any prefix with lib/pythonX.Y/site-packages (X.Y the worker's
/// Python), that prefix's bin/python, or a plain folder of packages (`pip install --target`).
struct UserEnvironment {
    std::string path;                   ///< absolute, as the user named it
    std::vector<std::string> siteDirs;  ///< the folders that go on sys.path, in order

    /// Throws StartError(Environment) with one line naming what is wrong and what to do.
    /// `pythonVersion` ("3.11"): the worker's Python; the default is the build's.
    static UserEnvironment resolve(const std::string& path, const std::string& pythonVersion = workerPythonVersion());

    /// "3.11": the Python the worker embeds.
    static std::string workerPythonVersion();
};

}  // namespace ps::protocol
