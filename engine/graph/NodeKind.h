#pragma once

#include <cstdint>
#include <string_view>

namespace ps::graph {

/// What a node of the captured graph is (the report's node "kind", precompile_studio/capture/
/// graph.py): an input of one sort, a computation, or the output. Other: a word this build does
/// not know, or none (a report made before kinds were recorded).
enum class NodeKind : std::uint8_t { Other, Parameter, Buffer, Input, Constant, Compute, Output };

/// "parameter", "buffer", "input", "constant", "compute", "output"; "" for Other.
std::string_view toString(NodeKind kind);
/// The report's word; Other for any other.
NodeKind nodeKindFromString(std::string_view word);

/// A model's weight: a parameter or a buffer.
constexpr bool isWeight(NodeKind kind)
{
    return kind == NodeKind::Parameter || kind == NodeKind::Buffer;
}

}  // namespace ps::graph
