#pragma once

#include "model/RunStatus.h"

#include <iosfwd>
#include <string_view>

namespace ps::model {

/// A run's verdict, the first thing every report says: its status, with two finer words for an
/// ok run, NotStored (asked to be stored and was not: exit code 3) and NumericsDrift (an
/// artifact drifted from eager's numerics yet broke no contract: exit code 0, shown amber).
enum class RunVerdict {
    Ok,
    NumericsDrift,
    NotStored,
    Mismatch,
    Violation,
    Error,
    Timeout,
    WorkerDied,
    Cancelled,
    ProtocolError,
    ConnectionLost,
};

/// The verdict of a run that ended with this status (Ok for Ok: the finer words need the report).
RunVerdict verdictOf(RunStatus status);
/// "ok", "numerics drift", "not stored", then the status words ("mismatch", "worker_died", ...).
std::string_view toString(RunVerdict verdict);

std::ostream& operator<<(std::ostream& out, RunVerdict verdict);

}  // namespace ps::model
