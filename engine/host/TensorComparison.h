#pragma once

#include <cstdint>
#include <optional>
#include <string>
#include <vector>

namespace at {
class Tensor;
}

namespace ps::host {

/// How the artifact's value of one tensor compares with eager's, computed with LibTorch.
///
/// ok: sizes and dtypes match and every element satisfies |a - e| <= atol + rtol * |e|
/// (NaN where eager has NaN, equal infinities; exact for integer and bool tensors). Strides
/// are reported, not required: a compiled kernel may return another layout.
///
/// Cost: at::equal first (one pass, no allocation) settles bitwise-equal tensors, the common
/// case on the eager backend; otherwise the differences are computed in the tensors' own dtype
/// (float32 for 16-bit and 8-bit floats), never in a float64 copy.
struct TensorComparison {
    std::vector<std::int64_t> expectedSizes, actualSizes;
    std::vector<std::int64_t> expectedStrides, actualStrides;
    std::string expectedDtype, actualDtype;
    std::string expectedDevice, actualDevice;
    bool sizesMatch = false, stridesMatch = false, dtypesMatch = false, devicesMatch = false;
    std::optional<double> maxAbsDiff, maxRelDiff;
    /// RMS of (a - e) over the RMS of e's finite elements (the RMS of the difference where e is
    /// all zero): relative, without exploding on near-zero elements as maxRelDiff does.
    std::optional<double> rmsRelDiff;
    std::optional<std::int64_t> mismatched;
    double atol = 0, rtol = 0;
    bool ok = false;

    /// (atol, rtol) for a dtype name ("float32", ...): compiled kernels reorder reductions and
    /// fuse multiply-adds, so float32 is looser than torch.testing's defaults.
    static std::pair<double, double> tolerance(const std::string& dtype);

    /// Compares with the dtype's tolerance, or the given one.
    static TensorComparison compare(const at::Tensor& expected, const at::Tensor& actual,
        std::optional<double> atol = std::nullopt, std::optional<double> rtol = std::nullopt);

    /// The JSON object verify reports (engine/python/precompile_studio/common/compare.py's keys).
    std::string toJson() const;
};

}  // namespace ps::host
