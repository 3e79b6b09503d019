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
    }
    return "died";
}

std::optional<StartFailure> startFailureFromString(std::string_view text)
{
    for (auto c : {StartFailure::Environment, StartFailure::Executable, StartFailure::Spawn, StartFailure::Python,
             StartFailure::Died, StartFailure::Timeout, StartFailure::Protocol})
        if (toString(c) == text)
            return c;
    return std::nullopt;
}

}  // namespace ps::model
