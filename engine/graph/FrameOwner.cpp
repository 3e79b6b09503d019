#include "graph/FrameOwner.h"

namespace ps::graph {

std::string_view toString(FrameOwner owner)
{
    switch (owner) {
    case FrameOwner::User:
        return "user";
    case FrameOwner::Package:
        return "package";
    case FrameOwner::Torch:
        return "torch";
    case FrameOwner::Unknown:
        break;
    }
    return "";
}

FrameOwner frameOwnerFromString(std::string_view word)
{
    for (FrameOwner o : {FrameOwner::User, FrameOwner::Package, FrameOwner::Torch})
        if (toString(o) == word)
            return o;
    return FrameOwner::Unknown;
}

}  // namespace ps::graph
