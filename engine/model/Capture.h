#pragma once

#include "model/ArtifactInfo.h"
#include "model/Violation.h"

#include <nlohmann/json.hpp>

#include <map>
#include <optional>
#include <string>

namespace ps::model {

/// One precompile call of a run. Holds the typed fields the front end reads and the whole
/// JSON object it came from, so fields this struct does not name (graph, cache, verify, ...)
/// travel through unchanged.
struct Capture {
    std::string name;
    std::string backend;
    std::string tracer;
    std::string status;  ///< ok | violation | error
    std::optional<Violation> violation;
    std::optional<ArtifactInfo> artifact;
    std::map<std::string, double> timings;
    nlohmann::json json = nlohmann::json::object();

    static Capture fromJson(const nlohmann::json& j);
};

} // namespace ps::model
