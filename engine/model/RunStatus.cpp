#include "model/RunStatus.h"

#include <array>
#include <utility>

#include <ostream>

namespace ps::model {

namespace {
constexpr std::array<std::pair<RunStatus, std::string_view>, 9> kWords{{
    {RunStatus::Ok, "ok"},
    {RunStatus::Mismatch, "mismatch"},
    {RunStatus::Violation, "violation"},
    {RunStatus::Error, "error"},
    {RunStatus::Timeout, "timeout"},
    {RunStatus::WorkerDied, "worker_died"},
    {RunStatus::Cancelled, "cancelled"},
    {RunStatus::ProtocolError, "protocol_error"},
    {RunStatus::ConnectionLost, "connection_lost"},
}};
}  // namespace

std::string_view toString(RunStatus status)
{
    for (const auto& [s, word] : kWords)
        if (s == status)
            return word;
    return "error";
}

std::optional<RunStatus> runStatusFromString(std::string_view text)
{
    for (const auto& [s, word] : kWords)
        if (word == text)
            return s;
    return std::nullopt;
}

bool ranToTheEnd(RunStatus status)
{
    return status == RunStatus::Ok || status == RunStatus::Mismatch || status == RunStatus::Violation
        || status == RunStatus::Error;
}

std::ostream& operator<<(std::ostream& out, RunStatus status)
{
    return out << toString(status);
}

}  // namespace ps::model
