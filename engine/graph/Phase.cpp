#include "graph/Phase.h"

namespace ps::graph {

std::string_view toString(Phase phase)
{
    switch (phase) {
    case Phase::Forward:
        return "forward";
    case Phase::Backward:
        return "backward";
    case Phase::None:
        break;
    }
    return "";
}

Phase phaseFromString(std::string_view word)
{
    for (Phase p : {Phase::Forward, Phase::Backward})
        if (toString(p) == word)
            return p;
    return Phase::None;
}

}  // namespace ps::graph
