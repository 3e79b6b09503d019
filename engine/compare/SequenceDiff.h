#pragma once

#include <cstdint>
#include <utility>
#include <vector>

namespace ps::compare {

/// What SequenceDiff found: the matched index pairs (a, b), increasing in both; and whether it
/// fell back to occurrence pairing somewhere (the alignment is then good, not minimal: the
/// report says so).
struct Alignment {
    std::vector<std::pair<int, int>> pairs;
    bool approximate = false;
};

/// Aligns two sequences of keys (hashed lines, hashed node signatures): the longest common
/// subsequence where it can afford it, so that one inserted block reads as one inserted block.
///
/// Myers' O((N+M)·D) algorithm on what is left after the common prefix and suffix, with D capped
/// (kMaxEdits); past the cap, or on a memory budget, keys are paired by occurrence (the k-th `x`
/// of one side with the k-th `x` of the other) and the longest increasing run of those pairs is
/// kept (O(N log N)); that is exact too where no key comes twice on a side (keys with node names
/// in them), and only otherwise approximate. Either way the result is monotone: pairs are
/// increasing in both indices.
class SequenceDiff {
public:
    /// Edits beyond which the exact algorithm gives way to occurrence pairing.
    static constexpr int kMaxEdits = 4000;

    static Alignment align(const std::vector<std::uint64_t>& a, const std::vector<std::uint64_t>& b);

    /// Aligns by the first level of keys, then each gap between two matches by the next level,
    /// and so on (levels[k] holds one key per item; every level has the same length per side):
    /// identical things pair first, similar ones in the gaps between them.
    static Alignment alignLevels(
        const std::vector<std::vector<std::uint64_t>>& a, const std::vector<std::vector<std::uint64_t>>& b);
};

}  // namespace ps::compare
