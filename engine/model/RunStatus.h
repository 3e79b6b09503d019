#pragma once

#include <iosfwd>
#include <optional>
#include <string>
#include <string_view>

namespace ps::model {

/// How a run ended (docs/design/outcomes.md). The order is the order of severity the
/// window sorts by; only the JSON edge (Report) turns it into words.
enum class RunStatus {
    Ok,              ///< every capture ok, verification (where it ran) matched, runtime checks passed
    Mismatch,        ///< an artifact ran, but its results differ from eager fn
    Violation,       ///< the programming-model contract was broken (capture, load, call or runtime)
    Error,           ///< the script or a capture failed for another reason
    Timeout,         ///< the worker was killed past the run's timeout
    WorkerDied,      ///< the worker process ended without a report (signal, os._exit, ...)
    Cancelled,       ///< the user cancelled the run
    ProtocolError,   ///< the worker's channel carried something that is not the protocol
    ConnectionLost,  ///< the connection to a remote worker ended during the run
};

/// "ok", "mismatch", "violation", "error", "timeout", "worker_died", "cancelled", "protocol_error",
/// "connection_lost".
std::string_view toString(RunStatus status);
/// The status a word names; nullopt for any other word.
std::optional<RunStatus> runStatusFromString(std::string_view text);
/// The script ran to the end of its captures: the outcome is about the artifact, not about
/// the run itself (Ok, Mismatch, Violation, Error).
bool ranToTheEnd(RunStatus status);

/// Writes the word (for test messages and logs).
std::ostream& operator<<(std::ostream& out, RunStatus status);

}  // namespace ps::model
