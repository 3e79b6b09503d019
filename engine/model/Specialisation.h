#pragma once

#include "model/Location.h"

#include <nlohmann/json_fwd.hpp>

#include <optional>
#include <string>
#include <vector>

namespace ps::model {

/// Where a capture's rejection of the runtime inputs' shape comes from: the capture traced once
/// more with symbolic sizes, each guard torch made inside fn in the user's names (the report's
/// captures[i].specialisation, precompile_studio/capture/specialise.py).
struct Specialisation {
    enum class Status {
        Found,    ///< a guard is false at the runtime sizes: the rejection points at its line
        None,     ///< every guard holds there: static only because precompile captures static shapes
        Failed,   ///< the symbolic trace failed or traced another program (reason)
        Skipped,  ///< over its budget (reason)
    };

    /// One guard: what the artifact assumes ("x.shape[0] <= 2") and the user's line that made it.
    struct Guard {
        std::string expr;
        std::optional<Location> location;
        std::string code;  ///< the line's text
        bool falseAtRuntime = false;
    };

    Status status = Status::Failed;
    std::string reason;
    std::vector<Guard> guards;  ///< the false ones first

    /// The first guard false at the runtime sizes, or null.
    const Guard* broken() const;
    /// One line: "x.shape[0] <= 2, false at runtime, at wrong.py:7: if x.shape[0] > 2:", "none
    /// false at the runtime sizes (N guards): static shapes only", "not found: REASON".
    std::string describe() const;

    /// nullopt for anything but an object with a known status.
    static std::optional<Specialisation> fromJson(const nlohmann::json& j);
};

}  // namespace ps::model
