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
    /// `text` with every control character made visible: C0 controls, DEL and the C1 controls
    /// U+0080..U+009F become \xNN (\x1b for ESC, \x07 for BEL, \x0d for CR, \u009b for the C1
    /// CSI), and each byte that is not part of valid UTF-8 becomes \xNN too (a stray 0x9b is
    /// CSI to an 8-bit terminal). The bidirectional controls that reorder text around them
    /// (U+202A..U+202E, U+2066..U+2069, U+200E, U+200F, U+061C) become \uNNNN. Printable UTF-8 (accents, CJK, emoji) is
    /// kept as it is. A newline is kept only when `keepNewlines`, for texts the layout prints on several lines.
    static std::string safe(std::string_view text, bool keepNewlines = false);
    /// A library location as a terminal may show it: any password masked
    /// (LibraryLocator::redacted), then safe().
    static std::string location(const std::string& location);
};

}  // namespace ps::library
