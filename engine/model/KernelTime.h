#pragma once

#include <cstdint>
#include <string>
#include <vector>

namespace ps::model {

/// One kernel (inductor) or ATen op (eager) of a profiled artifact call: captures[i].profile.kernels[j].
struct KernelTime {
    std::string name;
    /// The graph nodes it computes, by name (may name nodes the graph does not hold: readers
    /// look each one up and leave the unknown ones out).
    std::vector<std::string> nodes;
    std::int64_t count = 0;  ///< calls over the profiled artifact calls
    double selfUs = 0;       ///< self time over all its calls, microseconds (finite, >= 0)
};

}  // namespace ps::model
