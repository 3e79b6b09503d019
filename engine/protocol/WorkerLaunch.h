#pragma once

#include <string>

namespace ps::protocol {

/// Everything needed to start a worker process.
struct WorkerLaunch {
    std::string executable;        ///< precompile-studio-worker
    std::string pythonEnv;         ///< the environment packaging/bootstrap.sh made
    std::string pythonPackageDir;  ///< the folder holding the precompile_studio package
};

}  // namespace ps::protocol
