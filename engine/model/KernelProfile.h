#pragma once

#include "model/KernelTime.h"

#include <nlohmann/json_fwd.hpp>

#include <cstdint>
#include <optional>
#include <string>
#include <vector>

namespace ps::model {

/// Where an artifact call's time goes (`run --profile`): the loaded artifact called a few times
/// under torch.profiler after verification, per kernel its calls, self time and graph nodes
/// (captures[i].profile). Times are per artifact call (the worker divides by calls). A number
/// that is not finite or is negative reads as absent (0 for the kernel's self time, which then
/// does not count); never throws.
struct KernelProfile {
    std::int64_t calls = 0;                ///< artifact calls profiled
    std::optional<double> wallUs;          ///< one call's wall time without the profiler
    std::optional<double> profiledWallUs;  ///< one call's wall time under the profiler
    std::optional<double> overheadUs;      ///< what the profiler itself adds (profiled - wall)
    std::vector<KernelTime> kernels;       ///< in the report's order (the worker sorts by self time)
    std::optional<double> unattributedUs;  ///< profiled time no kernel of the graph names
    std::string error;                     ///< why profiling failed ("" when it did not)

    /// The kernels' self times added up.
    double kernelsUs() const;

    /// captures[i].profile; nullopt when it is null, absent or not an object (not profiled).
    static std::optional<KernelProfile> fromJson(const nlohmann::json& j);
};

}  // namespace ps::model
