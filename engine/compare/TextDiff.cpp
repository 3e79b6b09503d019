#include "compare/TextDiff.h"

#include "compare/SequenceDiff.h"

#include <algorithm>
#include <cstdint>
#include <unordered_map>

namespace ps::compare {

namespace {

/// Slides each run of changed lines over equal lines, as diff tools do, so that an ambiguous
/// change reads as one block in its lowest place: up as far as it goes, joining the runs it
/// meets, then down as far as it goes. The unchanged lines keep their text in order, so the two
/// sides still pair line for line.
void compactChanges(const std::vector<std::string_view>& lines, std::vector<char>& changed)
{
    const int n = static_cast<int>(lines.size());
    auto at = [&](int i) -> char& { return changed[static_cast<std::size_t>(i)]; };
    auto text = [&](int i) { return lines[static_cast<std::size_t>(i)]; };
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

}  // namespace

std::vector<std::string_view> TextDiff::splitLines(std::string_view text)
{
    std::vector<std::string_view> lines;
    std::size_t start = 0;
    while (start < text.size()) {
        std::size_t end = text.find('\n', start);
        if (end == std::string_view::npos) {
            lines.push_back(text.substr(start));
            break;
        }
        std::string_view line = text.substr(start, end - start);
        if (!line.empty() && line.back() == '\r')
            line.remove_suffix(1);
        lines.push_back(line);
        start = end + 1;
    }
    return lines;
}

TextDiff TextDiff::compare(std::string_view a, std::string_view b)
{
    return compareLines(splitLines(a), splitLines(b));
}

TextDiff TextDiff::compareLines(std::vector<std::string_view> a, std::vector<std::string_view> b)
{
    TextDiff d;
    d.m_linesA = std::move(a);
    d.m_linesB = std::move(b);
    // Lines are interned: equal ids mean equal text, no hash collision can match two lines.
    std::unordered_map<std::string_view, std::uint64_t> ids;
    auto intern = [&](const std::vector<std::string_view>& lines) {
        std::vector<std::uint64_t> keys;
        keys.reserve(lines.size());
        for (std::string_view line : lines)
            keys.push_back(ids.emplace(line, ids.size()).first->second);
        return keys;
    };
    const std::vector<std::uint64_t> ka = intern(d.m_linesA);
    const std::vector<std::uint64_t> kb = intern(d.m_linesB);
    std::vector<char> removed(d.m_linesA.size(), 1), added(d.m_linesB.size(), 1);
    for (const auto& [i, j] : SequenceDiff::align(ka, kb).pairs)
        removed[static_cast<std::size_t>(i)] = added[static_cast<std::size_t>(j)] = 0;
    compactChanges(d.m_linesA, removed);
    compactChanges(d.m_linesB, added);
    d.buildRows(removed, added);
    d.buildLineMaps();
    return d;
}

void TextDiff::buildRows(const std::vector<char>& removed, const std::vector<char>& added)
{
    const int n = static_cast<int>(m_linesA.size());
    const int m = static_cast<int>(m_linesB.size());
    m_aToB.assign(static_cast<std::size_t>(n), 0);
    Hunk open;
    bool inHunk = false;
    for (int i = 0, j = 0; i < n || j < m;) {
        if (i < n && removed[static_cast<std::size_t>(i)]) {
            m_rows.push_back({Kind::Removed, i++, -1});
        } else if (j < m && added[static_cast<std::size_t>(j)]) {
            m_rows.push_back({Kind::Added, -1, j++});
        } else {
            if (inHunk)
                m_hunks.push_back(open);
            inHunk = false;
            m_aToB[static_cast<std::size_t>(i)] = j + 1;
            m_rows.push_back({Kind::Same, i++, j++});
            continue;
        }
        if (!inHunk)
            open = {
                m_rows.back().kind == Kind::Removed ? i : i + 1, 0, m_rows.back().kind == Kind::Added ? j : j + 1, 0};
        inHunk = true;
        if (m_rows.back().kind == Kind::Removed) {
            ++open.aCount;
            ++m_removed;
        } else {
            ++open.bCount;
            ++m_added;
        }
    }
    if (inHunk)
        m_hunks.push_back(open);
}

void TextDiff::buildLineMaps()
{
    const int n = static_cast<int>(m_linesA.size());
    const int m = static_cast<int>(m_linesB.size());
    m_aOpposite.assign(static_cast<std::size_t>(n), 0);
    m_bOpposite.assign(static_cast<std::size_t>(m), 0);
    int nextA = 0, nextB = 0;  // the first line of each side after what was read
    for (std::size_t k = 0; k < m_rows.size();) {
        const Row& row = m_rows[k];
        if (row.kind == Kind::Same) {
            m_aOpposite[static_cast<std::size_t>(row.a)] = row.b;
            m_bOpposite[static_cast<std::size_t>(row.b)] = row.a;
            nextA = row.a + 1;
            nextB = row.b + 1;
            ++k;
            continue;
        }
        std::vector<int> gone, came;
        for (; k < m_rows.size() && m_rows[k].kind != Kind::Same; ++k)
            m_rows[k].kind == Kind::Removed ? gone.push_back(m_rows[k].a) : came.push_back(m_rows[k].b);
        const int afterA = nextA + static_cast<int>(gone.size());
        const int afterB = nextB + static_cast<int>(came.size());
        for (std::size_t x = 0; x < gone.size(); ++x)
            m_aOpposite[static_cast<std::size_t>(gone[x])]
                = x < came.size() ? came[x] : std::max(0, std::min(afterB, m - 1));
        for (std::size_t x = 0; x < came.size(); ++x)
            m_bOpposite[static_cast<std::size_t>(came[x])]
                = x < gone.size() ? gone[x] : std::max(0, std::min(afterA, n - 1));
        nextA = afterA;
        nextB = afterB;
    }
}

std::optional<int> TextDiff::mapLine(int aLine) const
{
    if (aLine < 1 || aLine > static_cast<int>(m_aToB.size()))
        return std::nullopt;
    const int b = m_aToB[static_cast<std::size_t>(aLine - 1)];
    if (b == 0)
        return std::nullopt;
    return b;
}

int TextDiff::bLineFor(int aLine) const
{
    if (m_aOpposite.empty())
        return 0;
    return m_aOpposite[static_cast<std::size_t>(std::clamp(aLine, 0, static_cast<int>(m_aOpposite.size()) - 1))];
}

int TextDiff::aLineFor(int bLine) const
{
    if (m_bOpposite.empty())
        return 0;
    return m_bOpposite[static_cast<std::size_t>(std::clamp(bLine, 0, static_cast<int>(m_bOpposite.size()) - 1))];
}

std::vector<int> TextDiff::removedLines() const
{
    std::vector<int> lines;
    for (const Row& r : m_rows)
        if (r.kind == Kind::Removed)
            lines.push_back(r.a);
    return lines;
}

std::vector<int> TextDiff::addedLines() const
{
    std::vector<int> lines;
    for (const Row& r : m_rows)
        if (r.kind == Kind::Added)
            lines.push_back(r.b);
    return lines;
}

}  // namespace ps::compare
