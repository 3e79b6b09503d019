#pragma once

#include "compare/TextDiff.h"

#include <vector>

namespace ps::compare {

/// Each hunk of a TextDiff with its removed and added lines paired, and within a pair the
/// span that differs, for a side-by-side view that marks what changed inside a line. Pairing:
/// line for line where a hunk has as many on each side; else, in order, the pairing that is
/// most alike together (`_softmax = ...(addmm_1...)` with `_softmax = ...(addmm_2...)` though
/// lines were added before it), lines less than 40 % alike unpaired; past 200 x 200 lines, in
/// order. Spans are in bytes and never split a UTF-8 character. Plain C++.
class LinePairs {
public:
    /// A removed and an added line (0-based) and the byte span of each that differs: what is
    /// left when their common beginning and end are taken off.
    struct Pair {
        int a;
        int b;
        int aBegin, aEnd;
        int bBegin, bEnd;
    };

    static std::vector<Pair> of(const TextDiff& diff);
};

}  // namespace ps::compare
