#include "graph/CrossingReduction.h"

#include <algorithm>
#include <cstdlib>
#include <limits>
#include <random>

namespace ps::graph {

namespace {
constexpr int kRefinedIterations = 24;  // sweeps per start on a small graph
constexpr int kPatience = 8;            // sweeps without a better order before a start ends
// A start swept alone, on a view past an opening one's size (an expanded view): its sweeps and
// patience halved. Refinement makes the order from there; on the bench's expanded views the
// orders came out the same and their layout took half the time (resnet18 training 0.175 ->
// 0.086 s, encoder 0.162 -> 0.089 s), where it was the page's Expand All's most ([layout-2]).
constexpr int kQuickIterations = 12;
constexpr int kQuickPatience = 4;
constexpr int kTransposePasses = 12;           // over all layers, per sweep
constexpr int kSiftWidth = 400;                // wider layers are not sifted (quadratic in the width)
constexpr int kShiftRounds = 8;                // chain shifts, each followed by exchanges
constexpr std::size_t kStartBudget = 1280000;  // swept starts * (items + edges) on a small graph
// Starts swept in a row without a new best, and refined in a row without one, after which the
// search ends ([layout-2]: a 13-item view spent the whole work budget, 0.15 s, refining starts
// no better than its first; the 50k graph's expanded module 0.36 s).
constexpr int kStaleStarts = 32;
constexpr std::size_t kStaleRefined = 8;
// Items (virtual ones included) past which a view not asked for many starts gets none shuffled:
// on the bench's views of 7 400 to 61 000 items (expanded training steps, the 50k graph's
// expanded module) a shuffled start never swept better than the given order or its mirror,
// and each cost as much as they did; below, they won on 2 of 5 views.
constexpr int kShuffleItems = 5000;

// Compressed rows: for each item the other ends of its edges (first == upper: below; else above).
void compress(int items, const std::vector<std::pair<int, int>>& edges, bool below, std::vector<int>& start,
    std::vector<int>& out)
{
    start.assign(static_cast<std::size_t>(items) + 1, 0);
    for (const auto& [upper, lower] : edges)
        ++start[static_cast<std::size_t>(below ? upper : lower) + 1];
    for (int i = 0; i < items; ++i)
        start[static_cast<std::size_t>(i) + 1] += start[static_cast<std::size_t>(i)];
    out.assign(edges.size(), 0);
    std::vector<int> fill(start.begin(), start.end() - 1);
    for (const auto& [upper, lower] : edges)
        out[static_cast<std::size_t>(fill[static_cast<std::size_t>(below ? upper : lower)]++)] = below ? lower : upper;
}
}  // namespace

CrossingReduction::CrossingReduction(
    std::vector<std::vector<int>> layers, int items, const std::vector<std::pair<int, int>>& edges)
    : m_layers(std::move(layers)),
      m_pos(static_cast<std::size_t>(items), 0),
      m_fixed(static_cast<std::size_t>(items), 0),
      m_edgeCount(edges.size())
{
    compress(items, edges, false, m_upStart, m_up);
    compress(items, edges, true, m_downStart, m_down);
    placeAll();
}

void CrossingReduction::place(int layer)
{
    const auto& l = m_layers[static_cast<std::size_t>(layer)];
    for (std::size_t i = 0; i < l.size(); ++i)
        m_pos[static_cast<std::size_t>(l[i])] = static_cast<int>(i);
}

void CrossingReduction::placeAll()
{
    for (int l = 0; l < static_cast<int>(m_layers.size()); ++l)
        place(l);
}

void CrossingReduction::setLayers(std::vector<std::vector<int>> layers)
{
    m_layers = std::move(layers);
    placeAll();
}

std::int64_t CrossingReduction::sweepFrom(std::vector<std::vector<int>> order, Key key, bool thorough)
{
    setLayers(std::move(order));
    return thorough ? search(kRefinedIterations, key, false, true, kPatience)
                    : search(kQuickIterations, key, false, true, kQuickPatience);
}

std::int64_t CrossingReduction::treeAtOrLeft(int p) const
{
    std::int64_t n = 0;
    for (std::size_t i = static_cast<std::size_t>(p) + 1; i > 0; i -= i & (~i + 1))
        n += m_tree[i];
    return n;
}

void CrossingReduction::treeAdd(int p) const
{
    for (std::size_t i = static_cast<std::size_t>(p) + 1; i < m_tree.size(); i += i & (~i + 1))
        ++m_tree[i];
}

std::int64_t CrossingReduction::crossingsBelow(int layer) const
{
    // Edges listed by their upper end's position, then their lower end's; two edges cross when
    // a later one ends left of an earlier one: count inversions with a Fenwick tree.
    const auto& upper = m_layers[static_cast<std::size_t>(layer)];
    const std::size_t width = m_layers[static_cast<std::size_t>(layer) + 1].size();
    m_tree.assign(width + 1, 0);
    std::int64_t seen = 0, crossings = 0;
    for (int u : upper) {
        const int b = m_downStart[static_cast<std::size_t>(u)], e = m_downStart[static_cast<std::size_t>(u) + 1];
        if (e - b == 1) {  // most items (a long edge's virtual ones): nothing to sort
            const int p = m_pos[static_cast<std::size_t>(m_down[static_cast<std::size_t>(b)])];
            crossings += seen - treeAtOrLeft(p);
            treeAdd(p);
            ++seen;
            continue;
        }
        m_scratchA.resize(static_cast<std::size_t>(e - b));
        for (int k = b; k < e; ++k)
            m_scratchA[static_cast<std::size_t>(k - b)]
                = m_pos[static_cast<std::size_t>(m_down[static_cast<std::size_t>(k)])];
        if (e - b > 1)
            std::sort(m_scratchA.begin(), m_scratchA.end());
        for (int p : m_scratchA) {
            crossings += seen - treeAtOrLeft(p);
            treeAdd(p);
            ++seen;
        }
    }
    return crossings;
}

std::int64_t CrossingReduction::crossings() const
{
    std::int64_t total = 0;
    for (int l = 0; l + 1 < static_cast<int>(m_layers.size()); ++l)
        total += crossingsBelow(l);
    m_work += static_cast<std::int64_t>(m_edgeCount + m_pos.size());
    return total;
}

void CrossingReduction::sortNeighbours(int layer) const
{
    // Exchanges and sifting move items within one layer only: their neighbours' positions, in
    // the layers beside it, stay put while they work, so each item's are sorted once.
    for (int side = 0; side < 2; ++side) {
        const auto& start = side == 0 ? m_upStart : m_downStart;
        const auto& adj = side == 0 ? m_up : m_down;
        auto& sorted = side == 0 ? m_sortedUp : m_sortedDown;
        sorted.resize(adj.size());
        for (int v : m_layers[static_cast<std::size_t>(layer)]) {
            const auto b = static_cast<std::size_t>(start[static_cast<std::size_t>(v)]);
            const auto e = static_cast<std::size_t>(start[static_cast<std::size_t>(v) + 1]);
            for (std::size_t k = b; k < e; ++k)
                sorted[k] = m_pos[static_cast<std::size_t>(adj[k])];
            std::sort(sorted.begin() + static_cast<std::ptrdiff_t>(b), sorted.begin() + static_cast<std::ptrdiff_t>(e));
        }
    }
}

std::vector<std::int64_t> CrossingReduction::crossingsAt() const
{
    // Per gap, each edge (p, q) crosses the edges to its left that end right of q and those to
    // its right that end left of it: two passes over the upper layer with a Fenwick tree over
    // the lower one, each item's edges queried before they are added (edges of one item never
    // cross).
    std::vector<std::int64_t> at(m_pos.size(), 0);
    for (int l = 0; l + 1 < static_cast<int>(m_layers.size()); ++l) {
        const auto& upper = m_layers[static_cast<std::size_t>(l)];
        const std::size_t width = m_layers[static_cast<std::size_t>(l) + 1].size();
        for (int pass = 0; pass < 2; ++pass) {
            m_tree.assign(width + 1, 0);
            std::int64_t seen = 0;
            for (std::size_t i = 0; i < upper.size(); ++i) {
                const int u = upper[pass == 0 ? i : upper.size() - 1 - i];
                const int b = m_downStart[static_cast<std::size_t>(u)],
                          e = m_downStart[static_cast<std::size_t>(u) + 1];
                for (int k = b; k < e; ++k) {
                    const int v = m_down[static_cast<std::size_t>(k)], q = m_pos[static_cast<std::size_t>(v)];
                    const std::int64_t c = pass == 0 ? seen - treeAtOrLeft(q) : (q > 0 ? treeAtOrLeft(q - 1) : 0);
                    at[static_cast<std::size_t>(u)] += c;
                    at[static_cast<std::size_t>(v)] += c;
                }
                for (int k = b; k < e; ++k, ++seen)
                    treeAdd(m_pos[static_cast<std::size_t>(m_down[static_cast<std::size_t>(k)])]);
            }
        }
    }
    m_work += 2 * static_cast<std::int64_t>(m_edgeCount + m_pos.size());
    return at;
}

CrossingReduction::Pair CrossingReduction::pairCrossings(int v, int w) const
{
    // With v left of w, an edge of v crosses one of w when it reaches further right in the
    // same neighbouring layer; with w left of v, when it reaches less far. Both counted in one
    // merge of the two sorted lists (edges to the same item cross neither way). Both lie in the
    // layer last given to sortNeighbours(). The work counted is that of asking each order alone.
    Pair total;
    for (int side = 0; side < 2; ++side) {
        const auto& start = side == 0 ? m_upStart : m_downStart;
        const auto& sorted = side == 0 ? m_sortedUp : m_sortedDown;
        const int* a = sorted.data() + start[static_cast<std::size_t>(v)];
        const int* aEnd = sorted.data() + start[static_cast<std::size_t>(v) + 1];
        const int* b = sorted.data() + start[static_cast<std::size_t>(w)];
        const int* bEnd = sorted.data() + start[static_cast<std::size_t>(w) + 1];
        m_work += 2 * (1 + static_cast<std::int64_t>((aEnd - a) + (bEnd - b)));
        if (b == bEnd || a == aEnd)
            continue;
        if (aEnd - a == 1 && bEnd - b == 1) {  // most pairs (virtual items): one edge each
            total.vLeft += *b < *a;
            total.wLeft += *b > *a;
            continue;
        }
        const std::int64_t bSize = bEnd - b;
        for (const int *below = b, *atOrBelow = b; a != aEnd; ++a) {
            while (below != bEnd && *below < *a)
                ++below;
            while (atOrBelow != bEnd && *atOrBelow <= *a)
                ++atOrBelow;
            total.vLeft += below - b;
            total.wLeft += bSize - (atOrBelow - b);
        }
    }
    return total;
}

void CrossingReduction::sweepLayer(int layer, bool byUpper, Key key)
{
    m_work += static_cast<std::int64_t>(m_layers[static_cast<std::size_t>(layer)].size());
    auto& l = m_layers[static_cast<std::size_t>(layer)];
    if (l.size() < 2)
        return;
    const auto& start = byUpper ? m_upStart : m_downStart;
    const auto& adj = byUpper ? m_up : m_down;
    auto& movable = m_movable;
    movable.clear();
    for (int v : l) {
        const int b = start[static_cast<std::size_t>(v)], e = start[static_cast<std::size_t>(v) + 1];
        m_fixed[static_cast<std::size_t>(v)] = b == e;
        if (b == e)
            continue;
        double k = 0;
        if (key == Key::Barycenter || e - b <= 2) {
            for (int i = b; i < e; ++i)
                k += m_pos[static_cast<std::size_t>(adj[static_cast<std::size_t>(i)])];
            k /= e - b;
        } else {
            // The weighted median: between the two middle neighbours, nearer the side where
            // the neighbours are packed more tightly.
            m_scratchA.clear();
            for (int i = b; i < e; ++i)
                m_scratchA.push_back(m_pos[static_cast<std::size_t>(adj[static_cast<std::size_t>(i)])]);
            std::sort(m_scratchA.begin(), m_scratchA.end());
            const std::size_t n = m_scratchA.size(), m = n / 2;
            if (n % 2 == 1) {
                k = m_scratchA[m];
            } else {
                const double left = m_scratchA[m - 1] - m_scratchA.front(), right = m_scratchA.back() - m_scratchA[m];
                k = left + right == 0 ? (m_scratchA[m - 1] + m_scratchA[m]) / 2.0
                                      : (m_scratchA[m - 1] * right + m_scratchA[m] * left) / (left + right);
            }
        }
        movable.push_back({k, static_cast<int>(movable.size()), v});
    }
    // By key, ties in their present order (the slot breaks them): a stable sort without its buffer.
    std::sort(movable.begin(), movable.end(),
        [](const Keyed& a, const Keyed& b) { return a.key < b.key || (a.key == b.key && a.slot < b.slot); });
    std::size_t next = 0;
    for (int& v : l)
        if (!m_fixed[static_cast<std::size_t>(v)])
            v = movable[next++].item;
    place(layer);
}

bool CrossingReduction::transposeLayer(int layer)
{
    auto& l = m_layers[static_cast<std::size_t>(layer)];
    bool any = false, improved = true;
    sortNeighbours(layer);
    while (improved && !spent()) {
        improved = false;
        for (std::size_t i = 0; i + 1 < l.size(); ++i) {
            const int v = l[i], w = l[i + 1];
            if (const Pair c = pairCrossings(v, w); c.wLeft < c.vLeft) {
                std::swap(l[i], l[i + 1]);
                m_pos[static_cast<std::size_t>(v)] = static_cast<int>(i) + 1;
                m_pos[static_cast<std::size_t>(w)] = static_cast<int>(i);
                improved = any = true;
            }
        }
    }
    return any;
}

bool CrossingReduction::siftLayer(int layer)
{
    // Each item in turn moves to the slot of its layer where its edges cross the fewest:
    // passing w changes the crossings by (w's with v's, w left) - (v's with w's, v left).
    auto& l = m_layers[static_cast<std::size_t>(layer)];
    if (l.size() < 2 || l.size() > static_cast<std::size_t>(kSiftWidth))
        return false;
    sortNeighbours(layer);
    bool any = false;
    const std::vector<int> items = l;
    for (int v : items) {
        if (spent())
            return any;
        const int at = m_pos[static_cast<std::size_t>(v)], k = static_cast<int>(l.size());
        std::int64_t delta = 0, bestDelta = 0;
        int best = at;
        for (int j = at + 1; j < k; ++j) {
            const Pair c = pairCrossings(v, l[static_cast<std::size_t>(j)]);
            delta += c.wLeft - c.vLeft;
            if (delta < bestDelta) {
                bestDelta = delta;
                best = j;
            }
        }
        delta = 0;
        for (int j = at - 1; j >= 0; --j) {
            const Pair c = pairCrossings(v, l[static_cast<std::size_t>(j)]);
            delta += c.vLeft - c.wLeft;
            if (delta < bestDelta) {
                bestDelta = delta;
                best = j;
            }
        }
        if (best == at)
            continue;
        l.erase(l.begin() + at);
        l.insert(l.begin() + best, v);
        place(layer);
        any = true;
    }
    return any;
}

void CrossingReduction::transposeAll()
{
    // Each swap removes crossings, so this ends; the pass limit bounds a long tail.
    for (int pass = 0; pass < kTransposePasses; ++pass) {
        bool any = false;
        for (int l = 0; l < static_cast<int>(m_layers.size()); ++l)
            any = transposeLayer(l) || any;
        if (!any || spent())
            return;
    }
}

bool CrossingReduction::shiftChains()
{
    const int items = static_cast<int>(m_pos.size());
    auto oneToOne = [&](int v) {
        const auto i = static_cast<std::size_t>(v);
        return m_upStart[i + 1] - m_upStart[i] == 1 && m_downStart[i + 1] - m_downStart[i] == 1;
    };
    std::vector<int> layerOf(static_cast<std::size_t>(items), 0);
    for (int l = 0; l < static_cast<int>(m_layers.size()); ++l)
        for (int v : m_layers[static_cast<std::size_t>(l)])
            layerOf[static_cast<std::size_t>(v)] = l;
    // A shift changes only crossings with the chain's own edges: a chain none of whose edges
    // crosses anything (counted once per pass) is passed over. On a view of few crossings that
    // is nearly every chain, each of which would otherwise count the gaps it passes.
    const std::vector<std::int64_t> crossed = crossingsAt();
    bool any = false;
    std::vector<int> chain;
    for (int head = 0; head < items; ++head) {
        // A chain starts at a one-to-one item whose input is not one.
        if (!oneToOne(head) || oneToOne(m_up[static_cast<std::size_t>(m_upStart[static_cast<std::size_t>(head)])]))
            continue;
        chain.clear();
        for (int v = head; oneToOne(v); v = m_down[static_cast<std::size_t>(m_downStart[static_cast<std::size_t>(v)])])
            chain.push_back(v);
        if (chain.size() < 2)
            continue;  // one item: transposition moves it
        const int top = layerOf[static_cast<std::size_t>(chain.front())];
        const int bottom = layerOf[static_cast<std::size_t>(chain.back())];
        std::int64_t involved = 0;
        for (int v : chain)
            involved += crossed[static_cast<std::size_t>(v)];
        if (involved == 0)
            continue;
        auto local = [&]() {  // the crossings of the gaps the chain's edges pass
            std::int64_t c = 0;
            for (int l = std::max(0, top - 1); l <= bottom && l + 1 < static_cast<int>(m_layers.size()); ++l)
                c += crossingsBelow(l);
            m_work += static_cast<std::int64_t>(m_edgeCount);
            return c;
        };
        auto shift = [&](int dir) {  // false when some member has no neighbour that side
            for (int v : chain) {
                const int to = m_pos[static_cast<std::size_t>(v)] + dir;
                auto& l = m_layers[static_cast<std::size_t>(layerOf[static_cast<std::size_t>(v)])];
                if (to < 0 || to >= static_cast<int>(l.size()))
                    return false;
            }
            for (int v : chain) {
                auto& l = m_layers[static_cast<std::size_t>(layerOf[static_cast<std::size_t>(v)])];
                const int at = m_pos[static_cast<std::size_t>(v)], other = l[static_cast<std::size_t>(at + dir)];
                std::swap(l[static_cast<std::size_t>(at)], l[static_cast<std::size_t>(at + dir)]);
                m_pos[static_cast<std::size_t>(v)] = at + dir;
                m_pos[static_cast<std::size_t>(other)] = at;
            }
            return true;
        };
        std::int64_t now = local();
        for (int dir : {-1, 1}) {
            while (now > 0 && shift(dir)) {
                const std::int64_t after = local();
                if (after < now) {
                    now = after;
                    any = true;
                    continue;
                }
                shift(-dir);  // back: every member has its old neighbour on the other side
                break;
            }
        }
    }
    return any;
}

std::int64_t CrossingReduction::search(int iterations, Key key, bool refine, bool downFirst, int patience)
{
    const int layerCount = static_cast<int>(m_layers.size());
    if (refine)
        transposeAll();
    auto best = m_layers;
    std::int64_t bestCrossings = crossings();
    int stale = 0;
    for (int it = 0; it < iterations && bestCrossings > 0; ++it) {
        if ((it % 2 == 0) == downFirst) {
            for (int l = 1; l < layerCount; ++l)
                sweepLayer(l, true, key);
        } else {
            for (int l = layerCount - 2; l >= 0; --l)
                sweepLayer(l, false, key);
        }
        if (refine) {
            for (int l = 0; l < layerCount; ++l)
                siftLayer(l);
            transposeAll();
        }
        const std::int64_t c = crossings();
        if (c < bestCrossings) {
            bestCrossings = c;
            best = m_layers;
            stale = 0;
        } else if (++stale >= patience) {
            break;
        }
        if (refine && spent())
            break;
    }
    setLayers(std::move(best));
    return bestCrossings;
}

std::int64_t CrossingReduction::firstStart()
{
    if (m_layers.size() < 2 || !m_swept.empty())
        return crossings();
    m_given = m_layers;
    m_workBefore = m_work;
    // The median's start alone: on the bench's expanded views it picked the layering both starts
    // picked, for half the work (run() sweeps the barycenter's start next, as it would have).
    const std::int64_t c = sweepFrom(m_given, Key::Median, false);
    m_swept.push_back({c, 0, m_layers});
    return c;
}

void CrossingReduction::run(int sweeps, int maxStarts, bool longEdges)
{
    if (m_layers.size() < 2)
        return;
    const bool within = m_pos.size() <= static_cast<std::size_t>(kRefineItems)
        && m_edgeCount <= static_cast<std::size_t>(kRefineEdges);
    const bool small = within
        || (longEdges && m_pos.size() <= static_cast<std::size_t>(kLongRefineItems)
            && m_edgeCount <= static_cast<std::size_t>(kLongRefineEdges));
    const bool ahead = !m_swept.empty();  // firstStart() swept the first start already
    const auto given = ahead ? m_given : m_layers;
    if (!small) {
        if (ahead)
            setLayers(m_given);
        search(2 * std::max(1, sweeps), Key::Barycenter, false, true, kPatience);
        orientLike(given);
        return;
    }
    // Several starts: the given order and its mirror, each sorted by median and by barycenter,
    // then shuffled orders (a fixed seed: the same graph gets the same layout), as many as a
    // small graph affords. Each start is first swept alone (cheap); the starts that end with
    // the fewest crossings are then refined by sifting and transposition, the best kept.
    // Refining every start in turn spends the budget on the first few, whose local optima vary
    // widely on graphs of many long edges.
    const std::size_t size = m_pos.size() + m_edgeCount;
    const int starts = static_cast<int>(std::clamp<std::size_t>(
        kStartBudget / std::max<std::size_t>(size, 1), 4, static_cast<std::size_t>(std::max(4, maxStarts))));
    std::mt19937 shuffle(20261203);
    std::vector<Swept> swept = std::move(m_swept);
    m_swept.clear();
    std::int64_t sweptBest = std::numeric_limits<std::int64_t>::max();
    // Swept until half the work budget is spent, or kStaleStarts in a row found nothing better;
    // a view asked for more than the default starts (one the size of an opening view, where the
    // best start often comes late: the encoder's 13 crossings, 32 when cut) gets them all.
    const bool all = maxStarts > kDefaultStarts;
    const std::int64_t before = ahead ? m_workBefore : m_work;  // the half counts this ordering's work only
    const int sweptStarts
        = all || m_pos.size() <= static_cast<std::size_t>(kShuffleItems) ? starts : std::min(starts, 4);
    for (int start = 0, stale = 0;
         start < sweptStarts && (all || (stale < kStaleStarts && (start < 4 || m_work - before < kWorkBudget / 2)));
         ++start) {
        std::int64_t c = 0;
        if (start < static_cast<int>(swept.size())) {
            c = swept[static_cast<std::size_t>(start)].crossings;  // swept by firstStart()
        } else if (start == 2 || start == 3) {
            // The mirrored given order sweeps to the mirror of what the given one swept to (each
            // key mirrors, ties keep their mirrored order): taken, not swept again.
            m_layers = swept[static_cast<std::size_t>(start - 2)].layers;
            for (auto& l : m_layers)
                std::reverse(l.begin(), l.end());
            c = swept[static_cast<std::size_t>(start - 2)].crossings;
        } else {
            auto order = given;
            if (start >= 4)
                for (auto& l : order)
                    for (std::size_t i = l.size(); i > 1; --i)  // Fisher-Yates, the same on every platform
                        std::swap(l[i - 1], l[shuffle() % i]);
            c = sweepFrom(std::move(order), start % 2 == 0 ? Key::Median : Key::Barycenter, all);
        }
        if (start >= static_cast<int>(swept.size()))
            swept.push_back({c, start, m_layers});
        if (c == 0)
            break;
        stale = c < sweptBest ? 0 : stale + 1;
        sweptBest = std::min(sweptBest, c);
    }
    std::stable_sort(
        swept.begin(), swept.end(), [](const Swept& a, const Swept& b) { return a.crossings < b.crossings; });
    std::vector<std::vector<int>> best = swept.front().layers;
    std::int64_t bestCrossings = swept.front().crossings;
    for (std::size_t k = 0, stale = 0; k < swept.size() && bestCrossings > 0 && !spent() && stale < kStaleRefined;
         ++k) {
        setLayers(swept[k].layers);
        const std::int64_t c = search(
            kRefinedIterations, swept[k].index % 2 == 0 ? Key::Median : Key::Barycenter, true, true, kPatience);
        if (c < bestCrossings) {
            bestCrossings = c;
            best = m_layers;
            stale = 0;
        } else {
            ++stale;
        }
    }
    setLayers(std::move(best));
    // Chains shifted whole, then exchanges again, while crossings drop.
    for (int round = 0; within && round < kShiftRounds && bestCrossings > 0 && shiftChains(); ++round) {
        transposeAll();
        for (int l = 0; l < static_cast<int>(m_layers.size()); ++l)
            siftLayer(l);
        const std::int64_t c = crossings();
        if (c >= bestCrossings)
            break;
        bestCrossings = c;
    }
    orientLike(given);
}

void CrossingReduction::orientLike(const std::vector<std::vector<int>>& given)
{
    std::vector<int> slot(m_pos.size(), 0);
    for (const auto& l : given)
        for (std::size_t i = 0; i < l.size(); ++i)
            slot[static_cast<std::size_t>(l[i])] = static_cast<int>(i);
    std::int64_t kept = 0;
    std::int64_t mirrored = 0;
    for (const auto& l : m_layers) {
        const int n = static_cast<int>(l.size());
        for (int i = 0; i < n; ++i) {
            const int was = slot[static_cast<std::size_t>(l[static_cast<std::size_t>(i)])];
            kept += std::abs(i - was);
            mirrored += std::abs(n - 1 - i - was);
        }
    }
    if (mirrored >= kept)
        return;
    for (auto& l : m_layers)
        std::reverse(l.begin(), l.end());
    placeAll();
}

}  // namespace ps::graph
