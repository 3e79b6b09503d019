#include "ui/lessons/LineDiff.h"

#include "compare/SequenceDiff.h"

#include <algorithm>
#include <cstdint>
#include <functional>

namespace ps::ui {

namespace {

/// Slides each run of changed lines over equal lines, as diff tools do, so that an ambiguous
/// change reads as one block in its lowest place (diff's "7,9d6", not "7,8d6" and "10d6"): up
/// as far as it goes, joining the runs it meets, then down as far as it goes. The unchanged
/// lines keep their text in order, so the two sides still pair line for line.
void compact(const std::vector<std::string>& lines, std::vector<char>& changed)
{
    const int n = static_cast<int>(lines.size());
    auto at = [&](int i) -> char& { return changed[static_cast<std::size_t>(i)]; };
    auto text = [&](int i) -> const std::string& { return lines[static_cast<std::size_t>(i)]; };
    int i = 0;
    while (i < n) {
        if (!at(i)) {
            ++i;
            continue;
        }
        int s = i, e = i;
        while (e < n && at(e))
            ++e;
        while (s > 0 && text(s - 1) == text(e - 1)) {
            at(--s) = 1;
            at(--e) = 0;
            while (s > 0 && at(s - 1))
                --s;
        }
        while (e < n && text(s) == text(e)) {
            at(s++) = 0;
            at(e++) = 1;
            while (e < n && at(e))
                ++e;
        }
        i = e;
    }
}

bool continuation(const std::string& s, std::size_t at)
{
    return at < s.size() && (static_cast<unsigned char>(s[at]) & 0xC0) == 0x80;
}

/// How alike two lines are: their common beginning and end over the longer one's length (1 for
/// equal lines).
double similarity(const std::string& a, const std::string& b)
{
    const std::size_t longest = std::max(a.size(), b.size());
    if (longest == 0)
        return 1;
    std::size_t p = 0;
    while (p < a.size() && p < b.size() && a[p] == b[p])
        ++p;
    std::size_t s = 0;
    while (s < a.size() - p && s < b.size() - p && a[a.size() - 1 - s] == b[b.size() - 1 - s])
        ++s;
    return static_cast<double>(p + s) / static_cast<double>(longest);
}

/// A hunk's removed and added lines paired. As many on each side: in order, each replaces the
/// one in its place. Else, in order, the pairing that is most alike together (a line whose
/// counterpart moved down past lines added above it still pairs with it), lines less than 40 %
/// alike unpaired; past 200 x 200 lines, in order.
std::vector<std::pair<std::size_t, std::size_t>> pairLines(
    const std::vector<const std::string*>& removed, const std::vector<const std::string*>& added)
{
    constexpr double kAlike = 0.4;
    const std::size_t r = removed.size();
    const std::size_t a = added.size();
    std::vector<std::pair<std::size_t, std::size_t>> pairs;
    if (r == a || r * a > 200 * 200) {  // a line for a line: each replaces the one in its place
        for (std::size_t x = 0; x < std::min(r, a); ++x)
            pairs.emplace_back(x, x);
        return pairs;
    }
    // best[i][j]: the most alike pairing of the first i removed and the first j added lines.
    std::vector<double> best((r + 1) * (a + 1), 0.0);
    auto at = [&](std::size_t i, std::size_t j) -> double& { return best[i * (a + 1) + j]; };
    std::vector<double> sim(r * a);
    for (std::size_t i = 0; i < r; ++i)
        for (std::size_t j = 0; j < a; ++j)
            sim[i * a + j] = similarity(*removed[i], *added[j]);
    for (std::size_t i = 1; i <= r; ++i)
        for (std::size_t j = 1; j <= a; ++j) {
            double v = std::max(at(i - 1, j), at(i, j - 1));
            if (const double s = sim[(i - 1) * a + (j - 1)]; s >= kAlike)
                v = std::max(v, at(i - 1, j - 1) + s);
            at(i, j) = v;
        }
    for (std::size_t i = r, j = a; i > 0 && j > 0;) {
        const double s = sim[(i - 1) * a + (j - 1)];
        if (s >= kAlike && at(i, j) == at(i - 1, j - 1) + s) {
            pairs.emplace_back(i - 1, j - 1);
            --i;
            --j;
        } else if (at(i, j) == at(i - 1, j)) {
            --i;
        } else {
            --j;
        }
    }
    std::reverse(pairs.begin(), pairs.end());
    return pairs;
}

}  // namespace

std::vector<std::string> LineDiff::splitLines(const std::string& text)
{
    std::vector<std::string> lines;
    std::size_t start = 0;
    while (start < text.size()) {
        const std::size_t end = text.find('\n', start);
        if (end == std::string::npos) {
            lines.push_back(text.substr(start));
            break;
        }
        lines.push_back(text.substr(start, end - start));
        start = end + 1;
    }
    return lines;
}

LineDiff LineDiff::compare(const std::vector<std::string>& left, const std::vector<std::string>& right)
{
    LineDiff d;
    const int n = static_cast<int>(left.size());
    const int m = static_cast<int>(right.size());
    // One alignment algorithm for every diff the studio shows (engine/compare's SequenceDiff),
    // over hashed lines; a pair whose hashes collide but whose texts differ stays changed.
    const auto keys = [](const std::vector<std::string>& lines) {
        std::vector<std::uint64_t> out;
        out.reserve(lines.size());
        for (const std::string& line : lines)
            out.push_back(std::hash<std::string>{}(line));
        return out;
    };
    std::vector<char> removed(static_cast<std::size_t>(n), 1), added(static_cast<std::size_t>(m), 1);
    for (const auto& [i, j] : compare::SequenceDiff::align(keys(left), keys(right)).pairs)
        if (left[static_cast<std::size_t>(i)] == right[static_cast<std::size_t>(j)])
            removed[static_cast<std::size_t>(i)] = added[static_cast<std::size_t>(j)] = 0;
    compact(left, removed);
    compact(right, added);
    // The rows, each hunk as its removed lines, then its added ones.
    for (int i = 0, j = 0; i < n || j < m;) {
        if (i < n && removed[static_cast<std::size_t>(i)])
            d.m_rows.push_back({Kind::Removed, i++, -1});
        else if (j < m && added[static_cast<std::size_t>(j)])
            d.m_rows.push_back({Kind::Added, -1, j++});
        else
            d.m_rows.push_back({Kind::Same, i++, j++});
    }

    d.pairHunks(left, right);
    return d;
}

void LineDiff::pairHunks(const std::vector<std::string>& left, const std::vector<std::string>& right)
{
    const int n = static_cast<int>(left.size());
    const int m = static_cast<int>(right.size());
    m_leftToRight.assign(static_cast<std::size_t>(n), 0);
    m_rightToLeft.assign(static_cast<std::size_t>(m), 0);
    int nextLeft = 0, nextRight = 0;  // the first line of each text after what was read
    for (std::size_t k = 0; k < m_rows.size();) {
        const Row& row = m_rows[k];
        if (row.kind == Kind::Same) {
            m_leftToRight[static_cast<std::size_t>(row.left)] = row.right;
            m_rightToLeft[static_cast<std::size_t>(row.right)] = row.left;
            nextLeft = row.left + 1;
            nextRight = row.right + 1;
            ++k;
            continue;
        }
        std::vector<int> removed, added;
        for (; k < m_rows.size() && m_rows[k].kind != Kind::Same; ++k)
            (m_rows[k].kind == Kind::Removed ? removed : added)
                .push_back(m_rows[k].kind == Kind::Removed ? m_rows[k].left : m_rows[k].right);
        const int afterLeft = nextLeft + static_cast<int>(removed.size());
        const int afterRight = nextRight + static_cast<int>(added.size());
        for (std::size_t x = 0; x < removed.size(); ++x)
            m_leftToRight[static_cast<std::size_t>(removed[x])]
                = x < added.size() ? added[x] : std::max(0, std::min(afterRight, m - 1));
        for (std::size_t x = 0; x < added.size(); ++x)
            m_rightToLeft[static_cast<std::size_t>(added[x])]
                = x < removed.size() ? removed[x] : std::max(0, std::min(afterLeft, n - 1));
        std::vector<const std::string*> removedText, addedText;
        for (int line : removed)
            removedText.push_back(&left[static_cast<std::size_t>(line)]);
        for (int line : added)
            addedText.push_back(&right[static_cast<std::size_t>(line)]);
        for (const auto& [x, y] : pairLines(removedText, addedText)) {
            const std::string& a = left[static_cast<std::size_t>(removed[x])];
            const std::string& b = right[static_cast<std::size_t>(added[y])];
            std::size_t p = 0;
            while (p < a.size() && p < b.size() && a[p] == b[p])
                ++p;
            while (p > 0 && (continuation(a, p) || continuation(b, p)))
                --p;
            std::size_t s = 0;
            while (s < a.size() - p && s < b.size() - p && a[a.size() - 1 - s] == b[b.size() - 1 - s])
                ++s;
            while (s > 0 && continuation(a, a.size() - s))
                --s;
            m_pairs.push_back({removed[x], added[y], static_cast<int>(p), static_cast<int>(a.size() - s),
                static_cast<int>(p), static_cast<int>(b.size() - s)});
        }
        nextLeft = afterLeft;
        nextRight = afterRight;
    }
}

std::vector<int> LineDiff::removedLines() const
{
    std::vector<int> lines;
    for (const Row& r : m_rows)
        if (r.kind == Kind::Removed)
            lines.push_back(r.left);
    std::sort(lines.begin(), lines.end());
    return lines;
}

std::vector<int> LineDiff::addedLines() const
{
    std::vector<int> lines;
    for (const Row& r : m_rows)
        if (r.kind == Kind::Added)
            lines.push_back(r.right);
    std::sort(lines.begin(), lines.end());
    return lines;
}

bool LineDiff::identical() const
{
    return std::all_of(m_rows.begin(), m_rows.end(), [](const Row& r) { return r.kind == Kind::Same; });
}

int LineDiff::rightLineFor(int leftLine) const
{
    if (m_leftToRight.empty())
        return 0;
    return m_leftToRight[static_cast<std::size_t>(std::clamp(leftLine, 0, static_cast<int>(m_leftToRight.size()) - 1))];
}

int LineDiff::leftLineFor(int rightLine) const
{
    if (m_rightToLeft.empty())
        return 0;
    return m_rightToLeft[static_cast<std::size_t>(
        std::clamp(rightLine, 0, static_cast<int>(m_rightToLeft.size()) - 1))];
}

}  // namespace ps::ui
