#pragma once

#include <iosfwd>
#include <string_view>

namespace ps::model {

/// How grave one entry of a run's findings is (the Violations tab's rows, the editor's marks):
/// a broken contract, an error that stopped a step, an artifact that differs from eager, or a
/// warning that stops nothing. Ordered from the gravest.
enum class Severity {
    Violation,
    Error,
    Mismatch,
    Warning,
};

/// "violation", "error", "mismatch" or "warning".
std::string_view toString(Severity severity);
/// Whether the entry is a finding that stops the artifact from being trusted (not a warning).
constexpr bool isProblem(Severity severity)
{
    return severity != Severity::Warning;
}

std::ostream& operator<<(std::ostream& out, Severity severity);

}  // namespace ps::model
