#include "compare/SequenceDiff.h"

#include <algorithm>
#include <unordered_map>

namespace ps::compare {

namespace {

using Pairs = std::vector<std::pair<int, int>>;

/// Myers' greedy forward search, keeping each round's furthest-reaching diagonals for the walk
/// back. Returns false when more than maxEdits edits would be needed.
bool myers(const std::uint64_t* a, int n, const std::uint64_t* b, int m, int offA, int offB, int maxEdits, Pairs& out)
{
    const int maxD = std::min(n + m, maxEdits);
    const int width = 2 * maxD + 1;
    std::vector<int> v(static_cast<std::size_t>(width) + 2, 0);
    std::vector<std::vector<int>> trace;
    const int zero = maxD + 1;  // v[zero + k] is diagonal k
    int found = -1;
    for (int d = 0; d <= maxD; ++d) {
        for (int k = -d; k <= d; k += 2) {
            int x;
            if (k == -d || (k != d && v[zero + k - 1] < v[zero + k + 1]))
                x = v[zero + k + 1];  // down: an insertion from b
            else
                x = v[zero + k - 1] + 1;  // right: a deletion from a
            int y = x - k;
            while (x < n && y < m && a[x] == b[y]) {
                ++x;
                ++y;
            }
            v[zero + k] = x;
            if (x >= n && y >= m) {
                found = d;
                break;
            }
        }
        // the round's diagonals -d..d, kept for the walk back
        trace.emplace_back(v.begin() + zero - d, v.begin() + zero + d + 1);
        if (found >= 0)
            break;
    }
    if (found < 0)
        return false;

    Pairs rev;
    int x = n;
    int y = m;
    for (int d = found; d > 0; --d) {
        const std::vector<int>& prev = trace[static_cast<std::size_t>(d - 1)];  // diagonals -(d-1)..d-1
        const int k = x - y;
        auto at = [&](int kk) { return prev[static_cast<std::size_t>(kk + d - 1)]; };
        int prevK;
        if (k == -d || (k != d && at(k - 1) < at(k + 1)))
            prevK = k + 1;
        else
            prevK = k - 1;
        const int prevX = at(prevK);
        const int prevY = prevX - prevK;
        while (x > prevX && y > prevY) {
            --x;
            --y;
            rev.emplace_back(x, y);
        }
        x = prevX;
        y = prevY;
    }
    while (x > 0 && y > 0) {
        --x;
        --y;
        rev.emplace_back(x, y);
    }
    for (auto it = rev.rbegin(); it != rev.rend(); ++it)
        out.emplace_back(it->first + offA, it->second + offB);
    return true;
}

/// The k-th occurrence of a key on one side paired with its k-th occurrence on the other, then
/// the longest run of pairs increasing in both indices (patience sorting).
void byOccurrence(const std::uint64_t* a, int n, const std::uint64_t* b, int m, int offA, int offB, Pairs& out)
{
    std::unordered_map<std::uint64_t, std::vector<int>> where;
    where.reserve(static_cast<std::size_t>(m));
    for (int j = 0; j < m; ++j)
        where[b[j]].push_back(j);
    std::unordered_map<std::uint64_t, std::size_t> used;
    Pairs candidates;
    for (int i = 0; i < n; ++i) {
        auto it = where.find(a[i]);
        if (it == where.end())
            continue;
        std::size_t& k = used[a[i]];
        if (k < it->second.size())
            candidates.emplace_back(i, it->second[k++]);
    }
    // candidates are increasing in a; keep the longest increasing subsequence in b
    std::vector<int> tails;  // index into candidates of the smallest tail of each length
    std::vector<int> parent(candidates.size(), -1);
    for (int c = 0; c < static_cast<int>(candidates.size()); ++c) {
        const int bj = candidates[static_cast<std::size_t>(c)].second;
        auto pos = std::lower_bound(tails.begin(), tails.end(), bj,
            [&](int t, int value) { return candidates[static_cast<std::size_t>(t)].second < value; });
        if (pos != tails.begin())
            parent[static_cast<std::size_t>(c)] = *(pos - 1);
        if (pos == tails.end())
            tails.push_back(c);
        else
            *pos = c;
    }
    Pairs chain;
    for (int c = tails.empty() ? -1 : tails.back(); c >= 0; c = parent[static_cast<std::size_t>(c)])
        chain.push_back(candidates[static_cast<std::size_t>(c)]);
    for (auto it = chain.rbegin(); it != chain.rend(); ++it)
        out.emplace_back(it->first + offA, it->second + offB);
}

}  // namespace

Alignment SequenceDiff::align(const std::vector<std::uint64_t>& a, const std::vector<std::uint64_t>& b)
{
    Alignment result;
    Pairs& out = result.pairs;
    const int n = static_cast<int>(a.size());
    const int m = static_cast<int>(b.size());
    int head = 0;
    while (head < n && head < m && a[static_cast<std::size_t>(head)] == b[static_cast<std::size_t>(head)]) {
        out.emplace_back(head, head);
        ++head;
    }
    int tail = 0;
    while (tail < n - head && tail < m - head
        && a[static_cast<std::size_t>(n - 1 - tail)] == b[static_cast<std::size_t>(m - 1 - tail)])
        ++tail;
    const int midA = n - head - tail;
    const int midB = m - head - tail;
    if (midA > 0 && midB > 0) {
        const std::uint64_t* pa = a.data() + head;
        const std::uint64_t* pb = b.data() + head;
        // D is at least n + m - 2·(keys in common): where that bound already passes the cap,
        // Myers would only spend its budget to fail. The trace holds (D+1)^2 ints: the cap keeps
        // it under ~64 MiB.
        std::unordered_map<std::uint64_t, int> counts;
        counts.reserve(static_cast<std::size_t>(midA));
        bool unique = true;  // no key twice on either side
        for (int i = 0; i < midA; ++i)
            unique = ++counts[pa[i]] == 1 && unique;
        long common = 0;
        for (int j = 0; j < midB; ++j)
            if (auto it = counts.find(pb[j]); it != counts.end() && it->second > 0) {
                --it->second;
                ++common;
            } else if (it != counts.end()) {
                unique = false;  // matched already: a second one on b
            }
        const long leastEdits = static_cast<long>(midA) + midB - 2 * common;
        if (leastEdits > kMaxEdits || !myers(pa, midA, pb, midB, head, head, kMaxEdits, out)) {
            // With every key once a side, each key pairs once and the longest increasing run of
            // those pairs is the longest common subsequence: exact after all.
            result.approximate = !unique;
            byOccurrence(pa, midA, pb, midB, head, head, out);
        }
    }
    for (int t = tail; t > 0; --t)
        out.emplace_back(n - t, m - t);
    return result;
}

namespace {

void alignFrom(const std::vector<std::vector<std::uint64_t>>& a, const std::vector<std::vector<std::uint64_t>>& b,
    std::size_t level, int beginA, int endA, int beginB, int endB, Pairs& out, bool& approximate)
{
    if (level >= a.size() || endA <= beginA || endB <= beginB)
        return;
    const std::vector<std::uint64_t> subA(a[level].begin() + beginA, a[level].begin() + endA);
    const std::vector<std::uint64_t> subB(b[level].begin() + beginB, b[level].begin() + endB);
    const Alignment found = SequenceDiff::align(subA, subB);
    approximate = approximate || found.approximate;
    int i = beginA;
    int j = beginB;
    for (const auto& [x, y] : found.pairs) {
        alignFrom(a, b, level + 1, i, x + beginA, j, y + beginB, out, approximate);
        out.emplace_back(x + beginA, y + beginB);
        i = x + beginA + 1;
        j = y + beginB + 1;
    }
    alignFrom(a, b, level + 1, i, endA, j, endB, out, approximate);
}

}  // namespace

Alignment SequenceDiff::alignLevels(
    const std::vector<std::vector<std::uint64_t>>& a, const std::vector<std::vector<std::uint64_t>>& b)
{
    Alignment result;
    if (!a.empty() && a.size() == b.size())
        alignFrom(a, b, 0, 0, static_cast<int>(a[0].size()), 0, static_cast<int>(b[0].size()), result.pairs,
            result.approximate);
    return result;
}

}  // namespace ps::compare
