#include "host/RunWatchdog.h"

#include <chrono>
#include <csignal>
#include <cstdio>
#include <unistd.h>

namespace ps::host {

RunWatchdog::RunWatchdog(double seconds)
{
    if (seconds <= 0)
        return;
    const auto deadline = std::chrono::steady_clock::now() + std::chrono::duration<double>(seconds);
    m_thread = std::thread([this, deadline]() {
        std::unique_lock lock(m_mutex);
        if (m_done.wait_until(lock, deadline, [this]() { return m_finished; }))
            return;
        static const char note[] = "precompile-studio-worker: the run outlived its timeout; the worker stops\n";
        (void)!::write(2, note, sizeof note - 1);
        ::kill(0, SIGKILL);
    });
}

RunWatchdog::~RunWatchdog()
{
    if (!m_thread.joinable())
        return;
    {
        std::lock_guard lock(m_mutex);
        m_finished = true;
    }
    m_done.notify_all();
    m_thread.join();
}

}  // namespace ps::host
