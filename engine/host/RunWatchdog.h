#pragma once

#include <condition_variable>
#include <mutex>
#include <thread>

namespace ps::host {

/// Kills the worker's whole process group when a run outlives `seconds`, unless destroyed
/// first. The front end normally stops a run at its timeout; this is the worker's own copy, for
/// when the front end is gone. 0 seconds: no watchdog.
///
/// Thread contract: made and destroyed by the thread that runs the script; its own thread only
/// waits and, at the deadline, calls kill(0, SIGKILL) (async-signal-safe, needs no GIL).
class RunWatchdog {
public:
    explicit RunWatchdog(double seconds);
    ~RunWatchdog();
    RunWatchdog(const RunWatchdog&) = delete;
    RunWatchdog& operator=(const RunWatchdog&) = delete;

private:
    std::mutex m_mutex;
    std::condition_variable m_done;
    bool m_finished = false;
    std::thread m_thread;
};

}  // namespace ps::host
