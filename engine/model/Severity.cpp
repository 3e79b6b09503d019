#include "model/Severity.h"

#include <ostream>

namespace ps::model {

std::string_view toString(Severity severity)
{
    switch (severity) {
    case Severity::Violation:
        return "violation";
    case Severity::Error:
        return "error";
    case Severity::Mismatch:
        return "mismatch";
    case Severity::Warning:
        return "warning";
    }
    return "error";
}

std::ostream& operator<<(std::ostream& out, Severity severity)
{
    return out << toString(severity);
}

}  // namespace ps::model
