#pragma once

#include <optional>
#include <string>
#include <sys/types.h>

namespace ps::protocol {

/// Finds every process a worker started, however it left the worker's process group (a child
/// that called setsid(), a daemonised grandchild), so that none outlives its run.
///
/// Each worker is started with PS_WORKER_TOKEN=<front end pid>:<its start time>:<n> in its
/// environment, which every descendant inherits. killTagged() kills the processes that carry
/// one token; sweepOrphans() kills those whose front end is gone (a front end killed with
/// kill -9 could not clean up: its next start, or any other front end's, does). Linux only
/// (/proc); a process that clears its own environment is out of reach.
class ProcessTree {
public:
    static constexpr const char* kVariable = "PS_WORKER_TOKEN";

    /// A token unique to this front end process and call.
    static std::string newToken();
    /// SIGKILLs every process (but this one) whose environment holds kVariable=token; returns
    /// how many it signalled. Scans /proc twice, so a fork racing the first scan is caught.
    static int killTagged(const std::string& token);
    /// SIGKILLs every process carrying a token of a front end that no longer runs.
    static int sweepOrphans();
    /// The start time of a process (clock ticks since boot, /proc/PID/stat field 22).
    static std::optional<unsigned long long> startTime(pid_t pid);
};

}  // namespace ps::protocol
