#pragma once

#include "protocol/WorkerLaunch.h"

#include <optional>
#include <string>

namespace ps::protocol {

/// Finds the worker executable beside the running front end, the studio's Python environment
/// and the user's.
class WorkerLocator {
public:
    /// The environment the build was configured with (packaging/bootstrap.sh made it).
    static std::string defaultPythonEnv();
    /// Throws StartError naming the missing piece and the command that makes it. `userEnv`:
    /// the user's own environment (UserEnvironment), whose packages the script needs; the
    /// worker always runs the studio's Python and torch (PS_PYTHON_ENV overrides which).
    static WorkerLaunch locate(const std::optional<std::string>& userEnv = std::nullopt);
    /// The folder of the running executable.
    static std::string executableDir();
};

}  // namespace ps::protocol
