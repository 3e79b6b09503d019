#pragma once

#include "protocol/FrameDecoder.h"
#include "protocol/WorkerLaunch.h"

#include <nlohmann/json.hpp>

#include <chrono>
#include <optional>
#include <string>
#include <sys/types.h>

namespace ps::protocol {

/// How a worker process ended.
struct ExitStatus {
    bool exited = false;  ///< ended by exit()/_exit(): code is valid
    int code = 0;
    bool signaled = false;  ///< killed by a signal
    int signal = 0;
    long peakMemoryKiB = 0;  ///< the worker's peak resident memory (getrusage ru_maxrss)
    std::string describe() const;
};

/// One worker process: spawns it with the channel on fd 3 and its fd 1/2 on pipes, and turns
/// whatever happens into events. POSIX only (fork/exec, poll); no threads.
///
/// Thread contract: one thread owns an instance; nothing here is thread-safe.
/// The worker runs in a process group of its own and carries a ProcessTree token, so kill()
/// (and the reaping of a worker that died) also ends what it started (g++ compiling Inductor
/// kernels, a user's subprocesses, a child that called setsid()). It dies with the thread that
/// started it (PR_SET_PDEATHSIG), so a front end killed with kill -9 leaves no worker behind.
class WorkerProcess {
public:
    struct Event {
        enum class Kind { Message, Output, Exited };
        Kind kind;
        nlohmann::json message;  ///< Message
        int stream = 0;          ///< Output: 1 or 2
        std::string data;        ///< Output
        ExitStatus status;       ///< Exited
    };

    explicit WorkerProcess(WorkerLaunch launch);
    ~WorkerProcess();
    WorkerProcess(const WorkerProcess&) = delete;
    WorkerProcess& operator=(const WorkerProcess&) = delete;

    /// Throws ProtocolError when the process cannot be started.
    void start();
    /// Sends one message; returns false when the channel is closed (the worker died).
    bool send(const nlohmann::json& message);
    /// The next event, or nothing when the deadline passes first.
    std::optional<Event> next(std::chrono::steady_clock::time_point deadline);
    /// SIGKILL to the worker's process group, then reap it.
    void kill();
    bool running() const { return m_pid > 0 && !m_reaped; }
    pid_t pid() const { return m_pid; }

private:
    void closeAll();
    std::optional<Event> reap(bool block);

    WorkerLaunch m_launch;
    pid_t m_pid = -1;
    bool m_reaped = false;
    std::string m_token;  ///< ProcessTree token of this worker and its descendants
    int m_channel = -1;
    int m_out = -1;
    int m_err = -1;
    FrameDecoder m_decoder;
    std::optional<std::chrono::steady_clock::time_point> m_channelClosedAt;
};

}  // namespace ps::protocol
