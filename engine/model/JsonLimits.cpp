#include "model/JsonLimits.h"

namespace ps::model {

namespace {
std::string mebibytes(std::size_t bytes)
{
    const std::size_t mib = bytes / (1024 * 1024);
    return mib > 0 ? std::to_string(mib) + " MiB" : std::to_string(bytes) + " bytes";
}
}  // namespace

std::size_t JsonLimits::depth(std::string_view text, std::size_t stopAt)
{
    std::size_t level = 0, deepest = 0;
    bool inString = false, escaped = false;
    for (const char c : text) {
        if (inString) {
            if (escaped)
                escaped = false;
            else if (c == '\\')
                escaped = true;
            else if (c == '"')
                inString = false;
            continue;
        }
        if (c == '"') {
            inString = true;
        } else if (c == '[' || c == '{') {
            if (++level > deepest) {
                deepest = level;
                if (deepest >= stopAt)
                    return deepest;
            }
        } else if ((c == ']' || c == '}') && level > 0) {
            --level;
        }
    }
    return deepest;
}

std::optional<nlohmann::json> JsonLimits::parse(
    std::string_view text, std::size_t maxBytes, std::string* why, std::size_t maxDepth)
{
    auto refuse = [&](std::string reason) -> std::optional<nlohmann::json> {
        if (why)
            *why = std::move(reason);
        return std::nullopt;
    };
    if (text.size() > maxBytes)
        return refuse("is " + mebibytes(text.size()) + ", over the limit of " + mebibytes(maxBytes));
    if (depth(text, maxDepth + 1) > maxDepth)
        return refuse("nests deeper than " + std::to_string(maxDepth) + " levels");
    try {
        return nlohmann::json::parse(text);
    } catch (const nlohmann::json::exception& e) {
        return refuse(std::string("is not JSON: ") + e.what());
    }
}

}  // namespace ps::model
