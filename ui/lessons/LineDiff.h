#pragma once

#include <string>
#include <vector>

namespace ps::ui {

/// A line diff of two texts (a lesson's broken.py and fixed.py, two runs' python_code
/// sections): the lines aligned by engine/compare's SequenceDiff (the one alignment algorithm
/// of the studio: a longest common subsequence, or on texts that differ everywhere an
/// occurrence pairing), each run of changed lines slid to where diff tools put it (one block,
/// lowest place), then each hunk's removed and added lines paired (line for line where the hunk
/// has as many on each side, else by how alike they are: in order, the most alike pairing, lines
/// less than 40 % alike unpaired) and, within a pair, the span that differs. Plain C++ (no Qt): lines are UTF-8
/// strings, compared exactly; lines and spans are 0-based, spans in bytes and never inside a character.
class LineDiff {
public:
    enum class Kind { Same, Removed, Added };
    /// One row of the diff in reading order; a hunk lists its removed lines, then its added ones.
    struct Row {
        Kind kind;
        int left;   ///< line of the left text; -1 for Added
        int right;  ///< line of the right text; -1 for Removed
    };
    /// A removed and an added line of one hunk, paired by likeness (`_softmax = ...(addmm_1...)`
    /// with `_softmax = ...(addmm_2...)` though lines were added before it), and the byte span of
    /// each that differs: what is left when their common beginning and end are taken off.
    struct Pair {
        int left;
        int right;
        int leftBegin, leftEnd;
        int rightBegin, rightEnd;
    };

    static LineDiff compare(const std::vector<std::string>& left, const std::vector<std::string>& right);
    /// Splits a text at '\n' (a final newline ends the last line, it does not start another).
    static std::vector<std::string> splitLines(const std::string& text);

    const std::vector<Row>& rows() const { return m_rows; }
    /// Lines of the left text that are not in the right one, ascending.
    std::vector<int> removedLines() const;
    /// Lines of the right text that are not in the left one, ascending.
    std::vector<int> addedLines() const;
    const std::vector<Pair>& pairs() const { return m_pairs; }
    bool identical() const;

    /// The line of the other text shown opposite `line` of this one: its counterpart where the
    /// line is in both, else the next line the other text has at that place (clamped to its
    /// last line; 0 for an empty text). For scrolling the two side by side.
    int rightLineFor(int leftLine) const;
    int leftLineFor(int rightLine) const;

private:
    void pairHunks(const std::vector<std::string>& left, const std::vector<std::string>& right);

    std::vector<Row> m_rows;
    std::vector<Pair> m_pairs;
    std::vector<int> m_leftToRight;  ///< per left line: the right line opposite it
    std::vector<int> m_rightToLeft;
};

}  // namespace ps::ui
