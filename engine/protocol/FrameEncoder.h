#pragma once

#include <nlohmann/json_fwd.hpp>

#include <string>
#include <string_view>

namespace ps::protocol {

/// Builds frames: a 4-byte little-endian length, then the payload.
class FrameEncoder {
public:
    static std::string encodePayload(std::string_view payload);
    static std::string encodeMessage(const nlohmann::json& message);
};

}  // namespace ps::protocol
