#pragma once

#include <string>

namespace ps::remote {

/// An ssh destination as the user typed it (`user@server`, `ssh://user@server:2222`, an alias
/// from ~/.ssh/config): checked before it reaches ssh's command line, and named for people.
class SshDestination {
public:
    /// Why `text` cannot be a destination ("" when it can): empty, an option ("-oProxyCommand=..."
    /// is never passed through), spaces or control characters.
    static std::string problem(const std::string& text);
    /// The host part, for headers, the status bar and the library's Where column: "gpu-box" for
    /// "ssh://me@gpu-box:2222", "me@gpu-box" and "gpu-box".
    static std::string displayName(const std::string& text);
};

}  // namespace ps::remote
