#include "model/RunVerdict.h"

#include <ostream>

namespace ps::model {

RunVerdict verdictOf(RunStatus status)
{
    switch (status) {
    case RunStatus::Ok:
        return RunVerdict::Ok;
    case RunStatus::Mismatch:
        return RunVerdict::Mismatch;
    case RunStatus::Violation:
        return RunVerdict::Violation;
    case RunStatus::Error:
        return RunVerdict::Error;
    case RunStatus::Timeout:
        return RunVerdict::Timeout;
    case RunStatus::WorkerDied:
        return RunVerdict::WorkerDied;
    case RunStatus::Cancelled:
        return RunVerdict::Cancelled;
    case RunStatus::ProtocolError:
        return RunVerdict::ProtocolError;
    case RunStatus::ConnectionLost:
        return RunVerdict::ConnectionLost;
    }
    return RunVerdict::Error;
}

std::string_view toString(RunVerdict verdict)
{
    switch (verdict) {
    case RunVerdict::Ok:
        return "ok";
    case RunVerdict::NumericsDrift:
        return "numerics drift";
    case RunVerdict::NotStored:
        return "not stored";
    case RunVerdict::Mismatch:
        return toString(RunStatus::Mismatch);
    case RunVerdict::Violation:
        return toString(RunStatus::Violation);
    case RunVerdict::Error:
        return toString(RunStatus::Error);
    case RunVerdict::Timeout:
        return toString(RunStatus::Timeout);
    case RunVerdict::WorkerDied:
        return toString(RunStatus::WorkerDied);
    case RunVerdict::Cancelled:
        return toString(RunStatus::Cancelled);
    case RunVerdict::ProtocolError:
        return toString(RunStatus::ProtocolError);
    case RunVerdict::ConnectionLost:
        return toString(RunStatus::ConnectionLost);
    }
    return "error";
}

std::ostream& operator<<(std::ostream& out, RunVerdict verdict)
{
    return out << toString(verdict);
}

}  // namespace ps::model
