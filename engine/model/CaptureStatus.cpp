#include "model/CaptureStatus.h"

#include <ostream>

namespace ps::model {

std::string_view toString(CaptureStatus status)
{
    switch (status) {
    case CaptureStatus::Ok:
        return "ok";
    case CaptureStatus::Mismatch:
        return "mismatch";
    case CaptureStatus::Violation:
        return "violation";
    case CaptureStatus::Error:
        return "error";
    }
    return "error";
}

std::optional<CaptureStatus> captureStatusFromString(std::string_view text)
{
    for (auto s : {CaptureStatus::Ok, CaptureStatus::Mismatch, CaptureStatus::Violation, CaptureStatus::Error})
        if (toString(s) == text)
            return s;
    return std::nullopt;
}

std::ostream& operator<<(std::ostream& out, CaptureStatus status)
{
    return out << toString(status);
}

}  // namespace ps::model
