#pragma once

#include <string>
#include <vector>

namespace ps::protocol {

/// Everything needed to start a worker process.
struct WorkerLaunch {
    std::string executable;                 ///< precompile-studio-worker
    std::string pythonEnv;                  ///< the environment packaging/bootstrap.sh made
    std::string pythonPackageDir;           ///< the folder holding the precompile_studio package
    std::string userEnv;                    ///< the user's own environment ("" none): UserEnvironment
    std::vector<std::string> userSiteDirs;  ///< its site folders, ahead of the studio's on sys.path
};

}  // namespace ps::protocol
