#include "compare/LinePairs.h"

#include <algorithm>
#include <string_view>

namespace ps::compare {

namespace {

bool continuation(std::string_view s, std::size_t at)
{
    return at < s.size() && (static_cast<unsigned char>(s[at]) & 0xC0) == 0x80;
}

/// How alike two lines are: their common beginning and end over the longer one's length (1 for
/// equal lines).
double similarity(std::string_view a, std::string_view b)
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

/// A hunk's removed and added lines paired (indices into the two lists), in order.
std::vector<std::pair<std::size_t, std::size_t>> pairLines(
    const std::vector<std::string_view>& removed, const std::vector<std::string_view>& added)
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
            sim[i * a + j] = similarity(removed[i], added[j]);
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

/// The pair of lines a and b with the span of each between their common beginning and end.
LinePairs::Pair spanOf(int lineA, std::string_view a, int lineB, std::string_view b)
{
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
    return {lineA, lineB, static_cast<int>(p), static_cast<int>(a.size() - s), static_cast<int>(p),
        static_cast<int>(b.size() - s)};
}

}  // namespace

std::vector<LinePairs::Pair> LinePairs::of(const TextDiff& diff)
{
    std::vector<Pair> out;
    const auto& rows = diff.rows();
    for (std::size_t k = 0; k < rows.size();) {
        if (rows[k].kind == TextDiff::Kind::Same) {
            ++k;
            continue;
        }
        std::vector<int> gone, came;
        std::vector<std::string_view> goneText, cameText;
        for (; k < rows.size() && rows[k].kind != TextDiff::Kind::Same; ++k) {
            if (rows[k].kind == TextDiff::Kind::Removed) {
                gone.push_back(rows[k].a);
                goneText.push_back(diff.linesA()[static_cast<std::size_t>(rows[k].a)]);
            } else {
                came.push_back(rows[k].b);
                cameText.push_back(diff.linesB()[static_cast<std::size_t>(rows[k].b)]);
            }
        }
        for (const auto& [x, y] : pairLines(goneText, cameText))
            out.push_back(spanOf(gone[x], goneText[x], came[y], cameText[y]));
    }
    return out;
}

}  // namespace ps::compare
