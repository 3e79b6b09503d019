#pragma once

#include <nlohmann/json_fwd.hpp>

#include <cstdint>
#include <optional>
#include <string>
#include <string_view>

namespace ps::model {

/// Whether drift was localised to graph nodes (captures[i].verify.accuracy.localise): done,
/// skipped (reason: over the budget, no drift) or failed (reason), how many nodes it observed
/// and how long it took.
struct DriftLocalisation {
    enum class Status { Done, Skipped, Failed };

    Status status = Status::Failed;
    std::string reason;
    std::int64_t observed = 0;
    std::optional<double> seconds;

    /// nullopt for anything but an object with a known status. Never throws.
    static std::optional<DriftLocalisation> fromJson(const nlohmann::json& j);
};

/// "done", "skipped", "failed".
std::string_view toString(DriftLocalisation::Status status);

}  // namespace ps::model
