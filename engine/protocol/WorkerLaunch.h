#pragma once

#include <string>
#include <vector>

namespace ps::protocol {

/// Everything needed to start a worker process.
struct WorkerLaunch {
    std::string executable;                 ///< precompile-studio-worker-SERIES (the torch it links)
    std::string pythonEnv;                  ///< the environment packaging/bootstrap.sh made
    std::string pythonPackageDir;           ///< the folder holding the precompile_studio package
    std::string userEnv;                    ///< the user's own environment ("" none): UserEnvironment
    std::vector<std::string> userSiteDirs;  ///< its site folders, ahead of the studio's on sys.path
    /// Folders put ahead in the worker's LD_LIBRARY_PATH ("" none): an installed worker has no
    /// RUNPATH into a per-user environment, so LibTorch and the environment's libpython come
    /// from here (InstallLayout::workerLibraryPath).
    std::string libraryPath;
};

}  // namespace ps::protocol
