#pragma once

// Test support: a test that needs its worker to be its own child turns the worker pool off.

#include <cstdlib>
#include <string>

/// For a test of a worker this process starts itself (its child, its slow hello): no worker
/// pool (protocol::WorkerPool, which `make test` turns on) while the object lives.
class WithoutWorkerPool {
public:
    WithoutWorkerPool()
    {
        if (const char* folder = std::getenv(kVariable))
            m_folder = folder;
        ::unsetenv(kVariable);
    }
    ~WithoutWorkerPool()
    {
        if (!m_folder.empty())
            ::setenv(kVariable, m_folder.c_str(), 1);
    }
    WithoutWorkerPool(const WithoutWorkerPool&) = delete;
    WithoutWorkerPool& operator=(const WithoutWorkerPool&) = delete;

private:
    static constexpr const char* kVariable = "PRECOMPILE_STUDIO_WORKER_POOL";
    std::string m_folder;
};
