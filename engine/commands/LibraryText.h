#pragma once

#include <cstddef>
#include <cstdint>
#include <string>

#include <nlohmann/json_fwd.hpp>

namespace ps::commands {

/// How the `library` subcommands write what they print: JSON exact, sizes and one-line texts
/// for a person (terminal-safe: every text from a library, a file or an error goes through
/// library::TerminalText before it is printed).
class LibraryText {
public:
    /// JSON output: exact, except that bytes that are not UTF-8 (a file name need not be)
    /// become U+FFFD instead of failing the command.
    static std::string dumpJson(const nlohmann::json& value, int indent = -1);
    /// "812 B", "1.4 KiB", "2.0 MiB".
    static std::string humanBytes(std::int64_t bytes);
    /// The first line of a message, terminal-safe, at most `width` bytes (cut between characters).
    static std::string shortLine(const std::string& text, std::size_t width);
};

}  // namespace ps::commands
