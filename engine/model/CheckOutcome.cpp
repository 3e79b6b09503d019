#include "model/CheckOutcome.h"

namespace ps::model {

std::string_view toString(CheckOutcome outcome)
{
    switch (outcome) {
    case CheckOutcome::Loads:
        return "loads";
    case CheckOutcome::Fallback:
        return "fallback";
    case CheckOutcome::Refused:
        return "refused";
    case CheckOutcome::Error:
        return "error";
    }
    return "error";
}

std::optional<CheckOutcome> checkOutcomeFromString(std::string_view text)
{
    for (auto o : {CheckOutcome::Loads, CheckOutcome::Fallback, CheckOutcome::Refused, CheckOutcome::Error})
        if (toString(o) == text)
            return o;
    return std::nullopt;
}

std::string_view words(CheckOutcome outcome)
{
    switch (outcome) {
    case CheckOutcome::Loads:
        return "loads with its cache";
    case CheckOutcome::Fallback:
        return "compiles its kernels";
    case CheckOutcome::Refused:
        return "refused";
    case CheckOutcome::Error:
        return "not checked";
    }
    return "not checked";
}

std::string keptCheckWords(std::string_view outcome, bool runs)
{
    const auto known = checkOutcomeFromString(outcome);
    if (!known)
        return "unknown outcome";
    if (!runs && (*known == CheckOutcome::Loads || *known == CheckOutcome::Fallback))
        return "runs, with other numbers than eager";
    return std::string(words(*known));
}

}  // namespace ps::model
