#pragma once

#include "protocol/WorkerLaunch.h"
#include "protocol/WorkerLocator.h"

#include <cstdlib>
#include <filesystem>
#include <string>

namespace ps::test {

/// A launch of the built worker that matches the environment the test runs with: PS_PYTHON_ENV
/// when the suite is registered for another torch series (ctest label torch-2.14), else the
/// build's default environment; the worker is the one of that environment's torch.
inline ps::protocol::WorkerLaunch testWorkerLaunch()
{
    namespace fs = std::filesystem;
    const auto bin = fs::path(PS_TEST_STUDIO).parent_path();
    const char* forced = std::getenv("PS_PYTHON_ENV");
    const fs::path env = forced && *forced ? fs::path(forced) : fs::path(PS_TEST_PYTHON).parent_path().parent_path();
    const std::string series = ps::protocol::WorkerLocator::torchSeriesOf(env.string()).value_or("unknown");
    return {.executable = (bin / ("precompile-studio-worker-" + series)).string(),
        .torchSeries = series,
        .pythonEnv = env.string(),
        .pythonPackageDir = std::string(PS_TEST_SOURCE_DIR) + "/engine/python"};
}

}  // namespace ps::test
