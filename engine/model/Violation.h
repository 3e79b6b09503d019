#pragma once

#include "model/Location.h"

#include <nlohmann/json_fwd.hpp>

#include <optional>
#include <string>

namespace ps::model {

/// A contract outcome or an error of one capture, as the worker classified it.
struct Violation {
    std::optional<int> invariant;  ///< 1-7, or empty for a limit / unclassified / an error
    std::string rule;
    std::string kind;     ///< the exception type: PrecompileError, TypeError, ...
    std::string message;  ///< torch's own words, whole
    std::string summary;  ///< ours, one line in the user's names (empty: message's first line)
    std::string explanation;
    std::string fix;
    std::optional<Location> location;

    static Violation fromJson(const nlohmann::json& j);
    /// "file:line: invariant N: Kind: first line of message", or our summary instead of the
    /// message's first line when there is one.
    std::string oneLine() const;
};

}  // namespace ps::model
