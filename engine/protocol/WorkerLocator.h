#pragma once

#include "protocol/WorkerLaunch.h"

#include <optional>
#include <string>

namespace ps::protocol {

/// Finds the worker executable beside the running front end, the studio's Python environment
/// and the user's. One worker per torch series (install::TorchSeries), each linking its own
/// LibTorch: the run's environment decides which (docs/design/torch-versions.md).
class WorkerLocator {
public:
    /// The environment the build was configured with (packaging/bootstrap.sh made it).
    static std::string defaultPythonEnv();
    /// Throws StartError naming the missing piece and the command that makes it. `userEnv`:
    /// the user's own environment (UserEnvironment), whose packages the script needs. The torch
    /// series is the one of the user's environment when it holds torch (a series the studio does
    /// not support is refused, naming the supported ones), else the one of PS_PYTHON_ENV when set,
    /// else that of InstallLayout::defaultPythonEnv(); the worker runs the studio's environment
    /// of that series (PS_PYTHON_ENV overrides which) and its worker.
    static WorkerLaunch locate(const std::optional<std::string>& userEnv = std::nullopt);
    /// The series of the torch in an environment (read from its torch/version.py), nullopt when
    /// it holds none or one no worker is built for.
    static std::optional<std::string> torchSeriesOf(const std::string& env);
    /// The folder of the running executable.
    static std::string executableDir();
};

}  // namespace ps::protocol
