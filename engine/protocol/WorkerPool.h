#pragma once

#include "protocol/ExitStatus.h"

#include <optional>
#include <string>
#include <sys/types.h>
#include <vector>

namespace ps::protocol {

/// Warm workers shared by every front end of this user, opt-in (docs/design/worker-pool.md):
/// with PRECOMPILE_STUDIO_WORKER_POOL naming a folder, a worker is not started but forked by a
/// pool process that imported torch once (precompile_studio/pool.py), so a run starts without
/// the seconds of `import torch`. One pool serves one key: the worker's command line, its
/// environment (but the variables nothing reads before a run, kKeyFree), the worker binary and
/// the studio's Python package as they are on disk; anything else gets a pool of its own.
///
/// No pool for a key yet: fork() returns nothing and the caller starts its worker itself; at the
/// key's second such start a pool is started (detached, in a session of its own) for the runs
/// after it, since a key seen once may never come again. A pool ends once idle for
/// PRECOMPILE_STUDIO_WORKER_POOL_IDLE seconds (default 60); KEY.sock.lock holds its pid.
///
/// Thread contract: none of its own; an instance is used by the thread of its WorkerProcess.
class WorkerPool {
public:
    static constexpr const char* kVariable = "PRECOMPILE_STUDIO_WORKER_POOL";
    static constexpr const char* kIdleVariable = "PRECOMPILE_STUDIO_WORKER_POOL_IDLE";

    struct Forked {
        pid_t pid = -1;
        int connection = -1;  ///< where the pool says how the worker ended (ended())
        std::string rest;     ///< what the pool said after the pid (the start of ended()'s buffer)
    };

    /// The pool of this launch, or nothing when pooling is off: the variable unset, a folder
    /// that cannot be made this user's alone, or a socket path too long for a Unix socket.
    static std::optional<WorkerPool> forLaunch(const std::vector<std::string>& argv,
        const std::vector<std::string>& environment, const std::string& packageDir);

    /// A worker forked with these descriptors as its stdin, stdout, stderr and channel, the
    /// given environment and this process's working folder; nothing when no pool answered.
    /// `sent`: the pool got the descriptors (then, answered or not, it may fork onto them).
    /// Every step is bounded (kAnswerMs): a pool that hangs costs a start that long.
    std::optional<Forked> fork(int in, int out, int err, int channel, bool& sent) const;

    /// How a forked worker ended, read from its connection (`buffer` keeps a partial line):
    /// nothing while it runs. A pool gone before it said, or one silent for kAnswerMs when
    /// `block`, counts as a SIGKILL.
    static std::optional<ExitStatus> ended(int connection, std::string& buffer, bool block);

    const std::string& socketPath() const { return m_socket; }

private:
    void startPool() const;

    std::string m_socket;
    std::vector<std::string> m_argv;
    std::vector<std::string> m_environment;
};

}  // namespace ps::protocol
