#pragma once

#include "model/Capture.h"

#include <ostream>

namespace ps::commands {

/// A capture's `run --profile` in the run summary: the totals, then the ten most expensive
/// kernels with their graph nodes and the source line of the first node that has one.
///     profile: 5 calls, 12.3 ms per call (profiler overhead 0.4 ms); kernels' self time 11.6 ms + 1.1 ms unattributed
///       2.06 ms  cpp_fused_relu_13 x2  relu_3, convolution_4  resnet.py:96 (innermost frame outside torch)
class KernelProfilePrinter {
public:
    static constexpr std::size_t kTop = 10;
    /// Nothing when the capture was not profiled.
    static void print(std::ostream& out, const model::Capture& capture);
    /// "12.3 ms" from microseconds ("850 us" below a millisecond).
    static std::string duration(double us);
};

}  // namespace ps::commands
