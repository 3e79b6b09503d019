#include "model/StartFailure.h"

namespace ps::model {

std::string_view toString(StartFailure cause)
{
    switch (cause) {
    case StartFailure::Environment:
        return "environment";
    case StartFailure::Executable:
        return "executable";
    case StartFailure::Spawn:
        return "spawn";
    case StartFailure::Python:
        return "python";
    case StartFailure::Died:
        return "died";
    case StartFailure::Timeout:
        return "timeout";
    case StartFailure::Protocol:
        return "protocol";
    case StartFailure::Unreachable:
        return "unreachable";
    case StartFailure::Authentication:
        return "authentication";
    case StartFailure::NoStudio:
        return "no_studio";
    case StartFailure::Version:
        return "version";
    }
    return "died";
}

std::optional<StartFailure> startFailureFromString(std::string_view text)
{
    for (auto c : {StartFailure::Environment, StartFailure::Executable, StartFailure::Spawn, StartFailure::Python,
             StartFailure::Died, StartFailure::Timeout, StartFailure::Protocol, StartFailure::Unreachable,
             StartFailure::Authentication, StartFailure::NoStudio, StartFailure::Version})
        if (toString(c) == text)
            return c;
    return std::nullopt;
}

bool isHostFailure(StartFailure cause)
{
    return cause == StartFailure::Unreachable || cause == StartFailure::Authentication
        || cause == StartFailure::NoStudio || cause == StartFailure::Version;
}

}  // namespace ps::model
