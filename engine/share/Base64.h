#pragma once

#include <string>
#include <string_view>

namespace ps::share {

/// Base64 (RFC 4648, the standard alphabet with padding), as the page's atob() reads it: how
/// binary data (gzip, engine.wasm) travels inside the HTML report's text.
class Base64 {
public:
    static std::string encode(std::string_view bytes);
    /// Throws std::invalid_argument on a character outside the alphabet or a bad length.
    static std::string decode(std::string_view text);
};

}  // namespace ps::share
