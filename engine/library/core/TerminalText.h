#pragma once

#include <string>
#include <string_view>

namespace ps::library {

/// Text from a library or an imported file made safe to print on a terminal: a name, a message
/// or a path can otherwise carry escape sequences that retitle, clear or rewrite the user's
/// terminal. Human-readable output passes every such text through safe(); JSON output does not
/// (it is exact, and JSON escapes control characters itself).
class TerminalText {
public:
    /// `text` with every control character made visible (model::VisibleText): escape
    /// sequences, invalid UTF-8 and bidirectional controls shown as \xNN or \uNNNN. A newline is
    /// kept only when `keepNewlines`, for texts the layout prints on several lines.
    static std::string safe(std::string_view text, bool keepNewlines = false);
    /// A library location as a terminal may show it: any password masked
    /// (LibraryLocator::redacted), then safe().
    static std::string location(const std::string& location);
};

}  // namespace ps::library
