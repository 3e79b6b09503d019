#pragma once

#include "protocol/WorkerLaunch.h"

#include <optional>
#include <string>

namespace ps::protocol {

/// Finds the worker executable beside the running front end, and the Python environment.
class WorkerLocator {
public:
    /// The environment the build was configured with (packaging/bootstrap.sh made it).
    static std::string defaultPythonEnv();
    /// Throws StartError naming the missing piece and the command that makes it.
    static WorkerLaunch locate(const std::optional<std::string>& pythonEnv = std::nullopt);
    /// The folder of the running executable.
    static std::string executableDir();
};

}  // namespace ps::protocol
