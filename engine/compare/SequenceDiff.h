#pragma once

#include <cstdint>
#include <utility>
#include <vector>

namespace ps::compare {

/// Aligns two sequences of keys (hashed lines, hashed node signatures): the longest common
/// subsequence where it can afford it, so that one inserted block reads as one inserted block.
///
/// Myers' O((N+M)·D) algorithm on what is left after the common prefix and suffix, with D capped
/// (kMaxEdits); past the cap, or on a memory budget, keys are paired by occurrence (the k-th `x`
/// of one side with the k-th `x` of the other) and the longest increasing run of those pairs is
/// kept (O(N log N)). Either way the result is monotone: pairs are increasing in both indices.
class SequenceDiff {
public:
    /// Edits beyond which the exact algorithm gives way to occurrence pairing.
    static constexpr int kMaxEdits = 4000;

    /// Matched index pairs (a, b), increasing in both.
    static std::vector<std::pair<int, int>> align(
        const std::vector<std::uint64_t>& a, const std::vector<std::uint64_t>& b);

    /// Aligns by the first level of keys, then each gap between two matches by the next level,
    /// and so on (levels[k] holds one key per item; every level has the same length per side):
    /// identical things pair first, similar ones in the gaps between them.
    static std::vector<std::pair<int, int>> alignLevels(
        const std::vector<std::vector<std::uint64_t>>& a, const std::vector<std::vector<std::uint64_t>>& b);

    /// Whether the last align() on this thread fell back to occurrence pairing (for tests and
    /// the report's honesty: the alignment is then good, not minimal).
    static bool lastWasApproximate();
};

}  // namespace ps::compare
