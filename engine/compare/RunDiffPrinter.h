#pragma once

#include "compare/RunDiff.h"

#include <ostream>

namespace ps::compare {

/// `library diff`'s text: the verdict first ("equivalent" / "differ"), then why, then each
/// capture's graph, python_code, metadata, kernels, cache, verification and timings.
class RunDiffPrinter {
public:
    static void print(const RunDiff& diff, const RunSide& a, const RunSide& b, std::ostream& out);
};

}  // namespace ps::compare
