#pragma once

#include <nlohmann/json.hpp>

#include <cstddef>
#include <optional>
#include <string>
#include <string_view>

namespace ps::model {

/// JSON from outside the process (the worker's channel, an imported NAME.json, a stored report)
/// is parsed only after its nesting depth is checked, so that no crafted document can exhaust
/// the stack in nlohmann's recursive parser or in a recursive copy.
///
/// kMaxDepth is 128: a real report nests at most about 10 levels (report > captures > capture >
/// verify > outputs > entry > result > sizes), so 128 leaves room for fields yet to come while
/// keeping the parser's recursion (a few hundred bytes of stack per level) far below even a
/// 512 KiB thread stack. Sizes are capped by each caller (see docs/design/limits-and-hostile-input.md).
class JsonLimits {
public:
    static constexpr std::size_t kMaxDepth = 128;

    /// The deepest nesting of arrays and objects in `text` (strings are skipped, escapes
    /// honoured); stops counting once past `stopAt`. Linear, no recursion.
    static std::size_t depth(std::string_view text, std::size_t stopAt = kMaxDepth + 1);

    /// Parses `text` when it is at most `maxBytes` long and nests at most `maxDepth` deep.
    /// Never throws: nullopt, with `why` set ("nests deeper than 128 levels", "is 120 MiB, over
    /// the limit of 64 MiB", "is not JSON: ...").
    static std::optional<nlohmann::json> parse(
        std::string_view text, std::size_t maxBytes, std::string* why, std::size_t maxDepth = kMaxDepth);
};

}  // namespace ps::model
