#pragma once

#include <nlohmann/json.hpp>

#include <optional>
#include <string>

namespace ps::protocol {

/// The front end's request for one run (Protocol.h): {"type":"run", ...}. parse() is the
/// worker's edge: it throws ProtocolError for anything that is not a well-formed request.
struct RunRequest {
    std::string script;
    std::optional<std::string> backend;
    std::optional<std::string> tracer;
    bool verify = true;
    std::string outDir;

    nlohmann::json toJson() const;
    static RunRequest parse(const nlohmann::json& j);
};

}  // namespace ps::protocol
