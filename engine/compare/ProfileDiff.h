#pragma once

#include <nlohmann/json.hpp>

#include <optional>
#include <string>
#include <vector>

namespace ps::compare {

/// One top-level module's time per artifact call in two runs' profiles (`run --profile`).
struct ModuleTime {
    std::string module;         ///< "model.layer3"; "(no graph node)" for kernels that name none
    std::optional<double> aUs;  ///< absent: no kernel of this module in run A's profile
    std::optional<double> bUs;

    double changeUs() const { return bUs.value_or(0) - aUs.value_or(0); }
    /// "model.layer3: 4.10 ms -> 6.30 ms"
    std::string describe() const;
};

/// The difference of two captures' profiles per top-level module (the graph's module paths cut
/// after their second part: model.layer3.1.conv1 -> model.layer3). A kernel's self time is split
/// evenly over its nodes to reach their modules; the profile's unattributed time is a row of its
/// own, "(outside kernels)", so that each side adds up to its profiled wall.
class ProfileDiff {
public:
    /// Sorted by the size of the change, largest first; empty unless both captures were profiled.
    static std::vector<ModuleTime> compare(const nlohmann::json& captureA, const nlohmann::json& captureB);
    /// Microseconds per call by top-level module of one capture (sorted by module); empty when it
    /// has no profile.
    static std::vector<std::pair<std::string, double>> moduleTimes(const nlohmann::json& capture);
    static nlohmann::json toJson(const std::vector<ModuleTime>& rows);
    /// "4.10 ms", "850 us"
    static std::string duration(double us);
};

}  // namespace ps::compare
