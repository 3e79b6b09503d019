#pragma once

#include <cstddef>
#include <string>
#include <utility>
#include <vector>

namespace ps::compare {

/// Short forms of what a diff shows, for the command line and the window alike: a long value
/// (a metadata list of 100 parameter names) is summed up, a long line is cut where it differs
/// from its counterpart, and every cut says so with "…".
class DiffText {
public:
    /// Values longer than this are summed up.
    static constexpr std::size_t kValueWidth = 80;

    /// Two values side by side, each at most about `width` characters: as they are when short;
    /// list literals ("[...]", "(...)") by their entry count, and where they have as many entries
    /// the first that differs ("[62 entries; #5 '1.weight']"); else cut around the first
    /// character that differs.
    static std::pair<std::string, std::string> values(
        const std::string& before, const std::string& after, std::size_t width = kValueWidth);
    /// A line at most `width` characters, cut so that column `focus` stays in view; "…" where
    /// cut.
    static std::string clip(const std::string& line, std::size_t focus, std::size_t width);
    /// The first column where two texts differ (the shorter's length when one starts the other).
    static std::size_t firstDifference(const std::string& a, const std::string& b);
    /// The top-level entries of a list literal ("[1, (2, 3), 'a,b']" -> 3 entries); empty and
    /// false when `text` is not one.
    static bool entries(const std::string& text, std::vector<std::string>* out);
};

}  // namespace ps::compare
