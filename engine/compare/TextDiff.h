#pragma once

#include <optional>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

namespace ps::compare {

/// The studio's one line diff (`library diff`, the Compare view, the lessons' side-by-side
/// view): lines compared exactly, aligned by SequenceDiff (the one alignment algorithm), then
/// each run of changed lines slid to where diff tools put it (one block, in its lowest place:
/// diff's "7,9d6", not "7,8d6" and "10d6"), so that the command line and the window place every
/// hunk alike. Its lines are views into the texts given to compare(): keep them alive while it
/// is used. Plain C++; never throws on any text.
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
    enum class Kind { Same, Removed, Added };
    /// One row of the diff in reading order, lines 0-based; a hunk lists its removed lines,
    /// then its added ones.
    struct Row {
        Kind kind;
        int a;  ///< line of a; -1 for Added
        int b;  ///< line of b; -1 for Removed
    };

    static TextDiff compare(std::string_view a, std::string_view b);
    /// The same over texts already split into lines (views into strings the caller keeps).
    static TextDiff compareLines(std::vector<std::string_view> a, std::vector<std::string_view> b);

    bool identical() const { return m_hunks.empty(); }
    const std::vector<Hunk>& hunks() const { return m_hunks; }
    const std::vector<Row>& rows() const { return m_rows; }
    int added() const { return m_added; }
    int removed() const { return m_removed; }
    /// The unchanged line of b that line `aLine` of a became, if it is unchanged (1-based).
    std::optional<int> mapLine(int aLine) const;
    /// The line of the other side shown opposite a line of this one (0-based): its counterpart
    /// where the line is unchanged or paired in its hunk, else the line that follows the hunk
    /// on the other side (clamped to its last line; 0 for an empty side). For scrolling two
    /// texts side by side.
    int bLineFor(int aLine) const;
    int aLineFor(int bLine) const;
    /// Lines of a that b has not, and lines of b that a has not (0-based, ascending).
    std::vector<int> removedLines() const;
    std::vector<int> addedLines() const;
    /// The lines of each side (without their line ends), for printing hunks.
    const std::vector<std::string_view>& linesA() const { return m_linesA; }
    const std::vector<std::string_view>& linesB() const { return m_linesB; }

    /// Splits text into lines; a final line end does not start another line; a "\r" before
    /// the "\n" is not part of the line.
    static std::vector<std::string_view> splitLines(std::string_view text);

private:
    void buildRows(const std::vector<char>& removed, const std::vector<char>& added);
    void buildLineMaps();

    std::vector<Hunk> m_hunks;
    std::vector<Row> m_rows;
    std::vector<int> m_aToB;       ///< per line of a: 1 + its unchanged line of b, 0 where changed
    std::vector<int> m_aOpposite;  ///< per line of a: the line of b opposite it (0-based)
    std::vector<int> m_bOpposite;
    std::vector<std::string_view> m_linesA;
    std::vector<std::string_view> m_linesB;
    int m_added = 0;
    int m_removed = 0;
};

}  // namespace ps::compare
