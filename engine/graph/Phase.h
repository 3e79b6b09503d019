#pragma once

#include <cstdint>
#include <string_view>

namespace ps::graph {

/// Which pass of a training step a node or module belongs to; None in an inference graph (and
/// for a node the report gives no phase).
enum class Phase : std::uint8_t { None, Forward, Backward };

/// "forward", "backward"; "" for None.
std::string_view toString(Phase phase);
/// The report's word; None for any other.
Phase phaseFromString(std::string_view word);

}  // namespace ps::graph
