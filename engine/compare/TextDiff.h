#pragma once

#include <optional>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

namespace ps::compare {

/// A line diff of two texts (lines compared exactly), as hunks and a map of unchanged lines.
/// Its lines are views into the two texts given to compare(): keep them alive while it is used.
class TextDiff {
public:
    /// One changed region; lines are 1-based; a count of 0 is a pure insertion or deletion,
    /// placed before line aStart (bStart) of its side.
    struct Hunk {
        int aStart = 0;
        int aCount = 0;
        int bStart = 0;
        int bCount = 0;
    };

    static TextDiff compare(std::string_view a, std::string_view b);

    bool identical() const { return m_hunks.empty(); }
    const std::vector<Hunk>& hunks() const { return m_hunks; }
    int added() const { return m_added; }
    int removed() const { return m_removed; }
    /// The unchanged line of b that line `aLine` of a became, if it is unchanged.
    std::optional<int> mapLine(int aLine) const;
    /// The lines of each side (without their line ends), for printing hunks.
    const std::vector<std::string_view>& linesA() const { return m_linesA; }
    const std::vector<std::string_view>& linesB() const { return m_linesB; }

    /// Splits text into lines; a final line end does not start another line.
    static std::vector<std::string_view> splitLines(std::string_view text);

private:
    std::vector<Hunk> m_hunks;
    std::vector<int> m_aToB;  ///< 0 where the line of a is not unchanged in b
    std::vector<std::string_view> m_linesA;
    std::vector<std::string_view> m_linesB;
    int m_added = 0;
    int m_removed = 0;
};

}  // namespace ps::compare
