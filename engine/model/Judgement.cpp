#include "model/Judgement.h"

#include <ostream>

namespace ps::model {

std::string_view toString(Judgement judgement)
{
    switch (judgement) {
    case Judgement::Matches:
        return "matches";
    case Judgement::Drift:
        return "numerics drift";
    case Judgement::Wrong:
        return "wrong";
    case Judgement::None:
        return "no verdict";
    }
    return "no verdict";
}

std::optional<Judgement> judgementFromString(std::string_view text)
{
    if (text == "matches")
        return Judgement::Matches;
    if (text == "drift" || text == "numerics drift")
        return Judgement::Drift;
    if (text == "wrong")
        return Judgement::Wrong;
    return std::nullopt;
}

std::ostream& operator<<(std::ostream& out, Judgement judgement)
{
    return out << toString(judgement);
}

}  // namespace ps::model
