#include "graph/LayerAssignment.h"

#include <algorithm>
#include <functional>
#include <limits>
#include <queue>
#include <utility>

namespace ps::graph {

namespace {

// Per band (ascending) a topological order of its items over the edges inside it, preferring
// graph order; when every remaining item of the band waits on another (a cycle), the earliest
// one goes next and its unmet inputs become back edges. Inputs from a lower band are met; an
// input from a higher band is a back edge.
std::vector<int> topologicalOrder(const std::vector<std::vector<int>>& inputs,
    const std::vector<std::vector<int>>& users, const std::vector<int>& band)
{
    const int n = static_cast<int>(inputs.size());
    std::vector<int> byBand(n);
    for (int v = 0; v < n; ++v)
        byBand[v] = v;
    std::stable_sort(byBand.begin(), byBand.end(), [&](int a, int b) { return band[a] < band[b]; });
    std::vector<int> waiting(n, 0), order;
    std::vector<char> done(n, 0);
    order.reserve(n);
    for (int v = 0; v < n; ++v)
        for (int u : inputs[v])
            if (u >= 0 && u < n && u != v && band[u] == band[v])
                ++waiting[v];
    std::priority_queue<int, std::vector<int>, std::greater<>> ready;
    for (int first = 0; first < n;) {
        int last = first;
        while (last < n && band[byBand[last]] == band[byBand[first]])
            ++last;
        for (int i = first; i < last; ++i)
            if (waiting[byBand[i]] == 0)
                ready.push(byBand[i]);
        int scan = first;
        for (int placed = first; placed < last; ++placed) {
            int v = -1;
            while (!ready.empty() && v < 0) {
                v = ready.top();
                ready.pop();
                if (done[v])
                    v = -1;
            }
            if (v < 0) {
                while (done[byBand[scan]])
                    ++scan;
                v = byBand[scan];
            }
            done[v] = 1;
            order.push_back(v);
            for (int w : users[v])
                if (band[w] == band[v] && --waiting[w] == 0 && !done[w])
                    ready.push(w);
        }
        first = last;
    }
    return order;
}

}  // namespace

LayerAssignment::LayerAssignment(const std::vector<std::vector<int>>& inputs, const std::vector<int>& bands)
    : m_inputs(inputs)
{
    const int n = items();
    m_users.resize(static_cast<std::size_t>(n));
    for (int v = 0; v < n; ++v)
        for (int u : inputs[v])
            if (joins(u, v))
                m_users[u].push_back(v);
    m_band.assign(static_cast<std::size_t>(n), 0);
    if (bands.size() == static_cast<std::size_t>(n))
        for (int v = 0; v < n; ++v)
            m_band[v] = std::max(0, bands[static_cast<std::size_t>(v)]);

    m_order = topologicalOrder(inputs, m_users, m_band);
    m_rank.resize(static_cast<std::size_t>(n));
    for (int i = 0; i < n; ++i)
        m_rank[m_order[i]] = i;

    // Longest path from the sources, each band starting below the one before.
    m_depth.assign(static_cast<std::size_t>(n), 0);
    m_bandStart.assign(static_cast<std::size_t>(n), 0);
    int deepest = -1, start = 0;
    for (std::size_t i = 0; i < m_order.size(); ++i) {
        const int v = m_order[i];
        if (i == 0 || m_band[v] != m_band[m_order[i - 1]])
            start = deepest + 1;
        m_bandStart[v] = start;
        int l = start;
        for (int u : inputs[v])
            if (joins(u, v) && forward(u, v))
                l = std::max(l, m_depth[u] + 1);
        // A back edge (v feeds an item earlier in the order) is laid out reversed: v goes
        // below that item, so the edge still spans a layer and points up.
        for (int w : m_users[v])
            if (!forward(v, w))
                l = std::max(l, m_depth[w] + 1);
        m_depth[v] = l;
        deepest = std::max(deepest, l);
    }
}

std::vector<int> LayerAssignment::bandLast(const std::vector<int>& at) const
{
    std::vector<int> last(static_cast<std::size_t>(*std::max_element(m_band.begin(), m_band.end())) + 1, 0);
    for (int v = 0; v < items(); ++v)
        last[static_cast<std::size_t>(m_band[v])] = std::max(last[static_cast<std::size_t>(m_band[v])], at[v]);
    return last;
}

// A transpose of a weight read deep in the graph would otherwise start a long edge at the top
// of the band, across every edge between.
void LayerAssignment::pullDown(std::vector<int>& at) const
{
    const std::vector<int> last = bandLast(at);
    for (auto it = m_order.rbegin(); it != m_order.rend(); ++it) {
        const int v = *it;
        if (m_inputs[v].empty() || m_users[v].empty())
            continue;
        int reads = 0, feeds = 0, lowest = last[static_cast<std::size_t>(m_band[v])];
        bool backEdge = false;
        for (int u : m_inputs[v])
            if (joins(u, v)) {
                backEdge = backEdge || !forward(u, v);
                reads += !m_inputs[u].empty() || m_users[u].size() > 1;
            }
        for (int w : m_users[v]) {
            backEdge = backEdge || !forward(v, w);
            ++feeds;
            if (m_band[w] == m_band[v])
                lowest = std::min(lowest, at[w] - 1);
        }
        if (!backEdge && (feeds > reads || reads == 0) && lowest > at[v])
            at[v] = lowest;
    }
}

// Parameters would otherwise crowd the band's first layer with edges across the whole graph.
void LayerAssignment::sinkSources(std::vector<int>& at) const
{
    for (int v = 0; v < items(); ++v) {
        if (!m_inputs[v].empty() || m_users[v].empty())
            continue;
        int first = std::numeric_limits<int>::max(), lowest = m_bandStart[v];
        for (int w : m_users[v]) {
            if (forward(v, w))
                first = std::min(first, at[w]);
            else
                lowest = std::max(lowest, at[w] + 1);
        }
        if (first != std::numeric_limits<int>::max())
            at[v] = std::max(lowest, first - 1);
    }
}

// The total edge span is what network-simplex layering minimises: fewer virtual items for the
// order to place.
void LayerAssignment::tighten(std::vector<int>& at) const
{
    const int bands = *std::max_element(m_band.begin(), m_band.end()) + 1;
    std::vector<int> first(static_cast<std::size_t>(bands), std::numeric_limits<int>::max());
    std::vector<int> last(static_cast<std::size_t>(bands), 0);
    for (int v = 0; v < items(); ++v) {
        auto b = static_cast<std::size_t>(m_band[v]);
        first[b] = std::min(first[b], at[v]);
        last[b] = std::max(last[b], at[v]);
    }
    for (int pass = 0; pass < kTightenPasses; ++pass) {
        bool moved = false;
        for (int v : m_order) {
            int lo = first[static_cast<std::size_t>(m_band[v])], hi = last[static_cast<std::size_t>(m_band[v])];
            int reads = 0, feeds = 0;
            bool backEdge = false;
            for (int u : m_inputs[v])
                if (joins(u, v)) {
                    backEdge = backEdge || !forward(u, v);
                    lo = std::max(lo, at[u] + 1);
                    ++reads;
                }
            for (int w : m_users[v]) {
                backEdge = backEdge || !forward(v, w);
                hi = std::min(hi, at[w] - 1);
                ++feeds;
            }
            const int to = reads > feeds ? lo : feeds > reads ? hi : at[v];
            if (backEdge || lo > hi || to == at[v])
                continue;
            at[v] = to;
            moved = true;
        }
        if (!moved)
            return;
    }
}

// An op whose result nothing reads (the empty buffer batch norm allocates) goes beside its
// neighbour in graph order, in its own module, not to the top of the band: a module's region
// would otherwise reach up to there.
void LayerAssignment::placeLoners(std::vector<int>& at) const
{
    const int n = items();
    auto lonely = [&](int v) { return m_inputs[v].empty() && m_users[v].empty(); };
    for (int v = 0; v < n; ++v) {
        if (!lonely(v))
            continue;
        for (int d = 1; d < n; ++d) {
            const int near[2] = {v + d, v - d};
            int found = -1;
            for (int w : near)
                if (found < 0 && w >= 0 && w < n && m_band[w] == m_band[v] && !lonely(w))
                    found = w;
            if (found >= 0) {
                at[v] = at[found];
                break;
            }
            if (v + d >= n && v - d < 0)
                break;
        }
    }
}

void LayerAssignment::sinkAll(std::vector<int>& at) const
{
    const std::vector<int> last = bandLast(at);
    for (auto it = m_order.rbegin(); it != m_order.rend(); ++it) {
        const int v = *it;
        int hi = last[static_cast<std::size_t>(m_band[v])];
        bool backEdge = false;
        for (int w : m_users[v]) {
            backEdge = backEdge || !forward(v, w);
            hi = std::min(hi, at[w] - 1);
        }
        for (int u : m_inputs[v])
            backEdge = backEdge || (joins(u, v) && !forward(u, v));
        if (!backEdge && hi > at[v])
            at[v] = hi;
    }
}

// The pulled layering shortens edges but can cross more where a module's fan-in meets its
// skips, so a small graph is ordered on several and the layout keeps the one crossing least.
std::vector<std::vector<int>> LayerAssignment::candidates() const
{
    const int n = items();
    if (n == 0)
        return {{}};
    std::vector<int> depth = m_depth;
    std::vector<int> pulled = depth;
    pullDown(pulled);
    sinkSources(pulled);
    sinkSources(depth);
    placeLoners(pulled);
    placeLoners(depth);

    std::vector<std::vector<int>> layerings{pulled};
    if (n <= kTwoLayeringsItems && pulled != depth)
        layerings.push_back(depth);
    if (n <= kManyLayeringsItems) {
        std::vector<int> low = depth;
        sinkAll(low);
        auto add = [&](std::vector<int> t) {
            if (std::find(layerings.begin(), layerings.end(), t) == layerings.end())
                layerings.push_back(std::move(t));
        };
        add(low);
        for (std::vector<int> t : {pulled, depth, low}) {
            tighten(t);
            add(std::move(t));
        }
    }
    return layerings;
}

}  // namespace ps::graph
