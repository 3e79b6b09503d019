#include "graph/NodeKind.h"

#include <array>
#include <utility>

namespace ps::graph {

namespace {

// The one table of the words: both directions read it.
constexpr std::array<std::pair<NodeKind, std::string_view>, 6> kNodeKindWords{{
    {NodeKind::Parameter, "parameter"},
    {NodeKind::Buffer, "buffer"},
    {NodeKind::Input, "input"},
    {NodeKind::Constant, "constant"},
    {NodeKind::Compute, "compute"},
    {NodeKind::Output, "output"},
}};

}  // namespace

std::string_view toString(NodeKind kind)
{
    for (const auto& [k, word] : kNodeKindWords)
        if (k == kind)
            return word;
    return "";
}

NodeKind nodeKindFromString(std::string_view word)
{
    for (const auto& [k, w] : kNodeKindWords)
        if (w == word)
            return k;
    return NodeKind::Other;
}

}  // namespace ps::graph
