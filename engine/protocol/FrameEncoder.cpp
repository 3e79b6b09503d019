#include "protocol/FrameEncoder.h"

#include "protocol/Protocol.h"
#include "protocol/ProtocolError.h"

#include <nlohmann/json.hpp>

namespace ps::protocol {

std::string FrameEncoder::encodePayload(std::string_view payload)
{
    if (payload.size() > kMaxFrameBytes)
        throw ProtocolError("message of " + std::to_string(payload.size()) + " bytes is over the frame limit");
    const auto n = static_cast<std::uint32_t>(payload.size());
    std::string frame;
    frame.reserve(4 + payload.size());
    for (int i = 0; i < 4; ++i)
        frame.push_back(static_cast<char>((n >> (8 * i)) & 0xff));
    frame.append(payload);
    return frame;
}

std::string FrameEncoder::encodeMessage(const nlohmann::json& message)
{
    const std::string text = message.dump(-1, ' ', false, nlohmann::json::error_handler_t::replace);
    return encodePayload(text);
}

}  // namespace ps::protocol
