#pragma once

#include "model/StartFailure.h"

#include <optional>
#include <string>

namespace ps::protocol {

/// How a worker ended: the process's own exit (code or signal), or, for a worker on another
/// host, the connection that ended first.
struct ExitStatus {
    bool exited = false;  ///< ended by exit()/_exit(): code is valid
    int code = 0;
    bool signaled = false;  ///< killed by a signal
    int signal = 0;
    long peakMemoryKiB = 0;  ///< the worker's peak resident memory (getrusage ru_maxrss)
    /// A remote worker's connection ended before the worker said how it ended: one line naming
    /// the host and ssh's own last words. Empty for a worker of this computer.
    std::string connectionLost;
    /// The connection ended before the worker could start: why, typed (unreachable host,
    /// refused login, no studio there, another protocol version).
    std::optional<model::StartFailure> startFailure;

    std::string describe() const;
};

}  // namespace ps::protocol
