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
    std::string kind;  ///< the exception type: PrecompileError, TypeError, ...
    std::string message;
    std::string explanation;
    std::string fix;
    std::optional<Location> location;

    static Violation fromJson(const nlohmann::json& j);
    /// "file:line: Kind: first line of message"
    std::string oneLine() const;
};

}  // namespace ps::model
