#include "compare/TextDiff.h"

#include "compare/SequenceDiff.h"

#include <cstdint>
#include <unordered_map>

namespace ps::compare {

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
    TextDiff d;
    d.m_linesA = splitLines(a);
    d.m_linesB = splitLines(b);
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
    const auto pairs = SequenceDiff::align(ka, kb).pairs;

    d.m_aToB.assign(d.m_linesA.size(), 0);
    int i = 0;
    int j = 0;
    auto close = [&](int ni, int nj) {
        if (ni > i || nj > j) {
            d.m_hunks.push_back({i + 1, ni - i, j + 1, nj - j});
            d.m_removed += ni - i;
            d.m_added += nj - j;
        }
    };
    for (const auto& [pa, pb] : pairs) {
        close(pa, pb);
        d.m_aToB[static_cast<std::size_t>(pa)] = pb + 1;
        i = pa + 1;
        j = pb + 1;
    }
    close(static_cast<int>(d.m_linesA.size()), static_cast<int>(d.m_linesB.size()));
    return d;
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

}  // namespace ps::compare
