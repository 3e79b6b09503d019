#include "graph/LayeredLayout.h"

#include "graph/CrossingReduction.h"
#include "graph/GraphModel.h"

#include <algorithm>
#include <cmath>
#include <cstdint>
#include <limits>
#include <queue>
#include <unordered_map>
#include <utility>

namespace ps::graph {

namespace {

// Centres x_i nearest to desired_i (least squares, weight w_i) with x_i - x_{i-1} >= sep_i:
// substitute y_i = desired_i - offset_i (offset_i = sep_1 + ... + sep_i), find the best
// non-decreasing z by pooling adjacent violators, then x_i = z_i + offset_i.
void packLayer(std::vector<double>& x, const std::vector<double>& desired, const std::vector<double>& offset,
    const std::vector<double>& weight)
{
    const std::size_t k = desired.size();
    struct Block {
        double sum;
        double weight;
        std::size_t count;
        double mean() const { return sum / weight; }
    };
    std::vector<Block> blocks;
    blocks.reserve(k);
    for (std::size_t i = 0; i < k; ++i) {
        blocks.push_back({(desired[i] - offset[i]) * weight[i], weight[i], 1});
        while (blocks.size() > 1 && blocks[blocks.size() - 2].mean() > blocks.back().mean()) {
            Block last = blocks.back();
            blocks.pop_back();
            blocks.back().sum += last.sum;
            blocks.back().weight += last.weight;
            blocks.back().count += last.count;
        }
    }
    x.resize(k);
    std::size_t i = 0;
    for (const auto& b : blocks)
        for (std::size_t c = 0; c < b.count; ++c, ++i)
            x[i] = b.mean() + offset[i];
}

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

// Neighbours in compressed rows: for item v, to[start[v] .. start[v + 1]).
struct Adjacency {
    std::vector<int> start, to;
    Adjacency(int items, const std::vector<std::pair<int, int>>& edges, bool below)
        : start(static_cast<std::size_t>(items) + 1, 0), to(edges.size())
    {
        for (const auto& e : edges)
            ++start[static_cast<std::size_t>(below ? e.first : e.second) + 1];
        for (int i = 0; i < items; ++i)
            start[static_cast<std::size_t>(i) + 1] += start[static_cast<std::size_t>(i)];
        std::vector<int> fill(start.begin(), start.end() - 1);
        for (const auto& e : edges)
            to[static_cast<std::size_t>(fill[static_cast<std::size_t>(below ? e.first : e.second)]++)]
                = below ? e.second : e.first;
    }
};

// An edge of the layout between two items a layer or more apart, drawn top to bottom: through
// virtual items (first .. first + span - 2), or down a side lane, or straight when adjacent.
struct Chain {
    int top = 0;
    int bottom = 0;
    int first = -1;  ///< its first virtual item, or -1
    int lane = -1;   ///< its side lane, or -1
    bool left = false;
};

// Virtual items allowed per item (plus a floor for small graphs): bounds the ordering and
// packing work on a training step, whose saved activations would otherwise need a virtual item
// in each of hundreds of layers.
constexpr std::int64_t kVirtualPerItem = 3;
constexpr std::int64_t kVirtualFloor = 20000;
constexpr int kMaxLanes = 24;
// A box outweighs a virtual item when a layer is packed: edges make way for boxes.
constexpr double kBoxWeight = 4;
// Graphs up to this many items are ordered on both layerings (see compute()).
constexpr int kTwoLayeringsItems = 2000;
// Views up to this many items (an opening view: GraphView opens with at most 80 boxes) are also
// ordered on tightened layerings (see tighten) from more starts. Both multiply the layout's time
// (0.16 -> 0.37 s at 78 items, 0.34 -> 0.9 s at 118): an expanded view does without them.
constexpr int kManyLayeringsItems = 100;
constexpr int kManyStarts = 256;
constexpr int kTightenPasses = 64;

}  // namespace

LayoutResult LayeredLayout::compute(const LayoutInput& input, const LayoutOptions& options)
{
    const int n = static_cast<int>(input.inputs.size());
    LayoutResult result;
    result.boxes.resize(static_cast<std::size_t>(n));
    if (n == 0)
        return result;
    const auto& inputs = input.inputs;
    auto joins = [n](int u, int v) { return u >= 0 && u < n && u != v; };
    std::vector<std::vector<int>> users(n);
    for (int v = 0; v < n; ++v)
        for (int u : inputs[v])
            if (joins(u, v))
                users[u].push_back(v);
    std::vector<double> itemWidth(n, options.nodeWidth);
    if (input.widths.size() == static_cast<std::size_t>(n))
        itemWidth = input.widths;
    std::vector<int> band(n, 0);
    if (input.bands.size() == static_cast<std::size_t>(n))
        for (int v = 0; v < n; ++v)
            band[v] = std::max(0, input.bands[static_cast<std::size_t>(v)]);

    const std::vector<int> order = topologicalOrder(inputs, users, band);
    std::vector<int> rank(n);
    for (int i = 0; i < n; ++i)
        rank[order[i]] = i;
    auto forward = [&](int u, int v) { return rank[u] < rank[v]; };

    // Layers: longest path from the sources, each band starting below the one before, then
    // sources moved down next to their first user (parameters would otherwise crowd the band's
    // first layer with edges across the whole graph).
    std::vector<int> depth(n, 0), bandStart(n, 0);
    int deepest = -1, start = 0;
    for (std::size_t i = 0; i < order.size(); ++i) {
        const int v = order[i];
        if (i == 0 || band[v] != band[order[i - 1]])
            start = deepest + 1;
        bandStart[v] = start;
        int l = start;
        for (int u : inputs[v])
            if (joins(u, v) && forward(u, v))
                l = std::max(l, depth[u] + 1);
        // A back edge (v feeds an item earlier in the order) is laid out reversed: v goes
        // below that item, so the edge still spans a layer and points up.
        for (int w : users[v])
            if (!forward(v, w))
                l = std::max(l, depth[w] + 1);
        depth[v] = l;
        deepest = std::max(deepest, l);
    }
    // Items that feed more edges than they read move down next to their first user (latest
    // first, so their users are placed): a transpose of a weight read deep in the graph
    // would otherwise start a long edge at the top of the band, across every edge between.
    // Inputs that are sources with this one user count as none: they follow it down below.
    auto pullDown = [&](std::vector<int>& at) {
        std::vector<int> bandLast(static_cast<std::size_t>(*std::max_element(band.begin(), band.end())) + 1, 0);
        for (int v = 0; v < n; ++v)
            bandLast[static_cast<std::size_t>(band[v])] = std::max(bandLast[static_cast<std::size_t>(band[v])], at[v]);
        for (auto it = order.rbegin(); it != order.rend(); ++it) {
            const int v = *it;
            if (inputs[v].empty() || users[v].empty())
                continue;
            int reads = 0, feeds = 0, lowest = bandLast[static_cast<std::size_t>(band[v])];
            bool backEdge = false;
            for (int u : inputs[v])
                if (joins(u, v)) {
                    backEdge = backEdge || !forward(u, v);
                    reads += !inputs[u].empty() || users[u].size() > 1;
                }
            for (int w : users[v]) {
                backEdge = backEdge || !forward(v, w);
                ++feeds;
                if (band[w] == band[v])
                    lowest = std::min(lowest, at[w] - 1);
            }
            if (!backEdge && (feeds > reads || reads == 0) && lowest > at[v])
                at[v] = lowest;
        }
    };
    auto sinkSources = [&](std::vector<int>& at) {
        for (int v = 0; v < n; ++v) {
            if (!inputs[v].empty() || users[v].empty())
                continue;
            int first = std::numeric_limits<int>::max(), lowest = bandStart[v];
            for (int w : users[v]) {
                if (forward(v, w))
                    first = std::min(first, at[w]);
                else
                    lowest = std::max(lowest, at[w] + 1);
            }
            if (first != std::numeric_limits<int>::max())
                at[v] = std::max(lowest, first - 1);
        }
    };
    // Each item to the end of its free range (between its inputs and its users, inside its
    // band's layers) that shortens its edges: up when it reads more edges than it feeds, down
    // when it feeds more; repeated until nothing moves. A local optimum of the total edge span
    // (what network-simplex layering minimises), so fewer virtual items for the order to place.
    auto tighten = [&](std::vector<int>& at) {
        const int bands = *std::max_element(band.begin(), band.end()) + 1;
        std::vector<int> first(static_cast<std::size_t>(bands), std::numeric_limits<int>::max());
        std::vector<int> last(static_cast<std::size_t>(bands), 0);
        for (int v = 0; v < n; ++v) {
            auto b = static_cast<std::size_t>(band[v]);
            first[b] = std::min(first[b], at[v]);
            last[b] = std::max(last[b], at[v]);
        }
        for (int pass = 0; pass < kTightenPasses; ++pass) {
            bool moved = false;
            for (int v : order) {
                int lo = first[static_cast<std::size_t>(band[v])], hi = last[static_cast<std::size_t>(band[v])];
                int reads = 0, feeds = 0;
                bool backEdge = false;
                for (int u : inputs[v])
                    if (joins(u, v)) {
                        backEdge = backEdge || !forward(u, v);
                        lo = std::max(lo, at[u] + 1);
                        ++reads;
                    }
                for (int w : users[v]) {
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
    };
    // Items joined to nothing (an op whose result nothing reads, such as the empty buffer
    // batch norm allocates) go beside their neighbour in graph order, in their own module,
    // not to the top of the band: a module's region would otherwise reach up to there.
    auto placeLoners = [&](std::vector<int>& at) {
        auto lonely = [&](int v) { return inputs[v].empty() && users[v].empty(); };
        for (int v = 0; v < n; ++v) {
            if (!lonely(v))
                continue;
            for (int d = 1; d < n; ++d) {
                const int near[2] = {v + d, v - d};
                int found = -1;
                for (int w : near)
                    if (found < 0 && w >= 0 && w < n && band[w] == band[v] && !lonely(w))
                        found = w;
                if (found >= 0) {
                    at[v] = at[found];
                    break;
                }
                if (v + d >= n && v - d < 0)
                    break;
            }
        }
    };
    std::vector<int> pulled = depth;
    pullDown(pulled);
    sinkSources(pulled);
    sinkSources(depth);
    placeLoners(pulled);
    placeLoners(depth);

    // Two layerings on a small graph, each ordered, the one whose order crosses less kept: the
    // pulled one shortens edges but can cross more where a module's fan-in meets its skips.
    struct Plan {
        std::vector<int> layer;
        int layerCount = 0;
        std::vector<Chain> chains;
        std::vector<int> chainOfRoute, laned;
        std::vector<double> width;
        std::vector<std::vector<int>> layers;
        std::vector<std::pair<int, int>> edges;  // (upper, lower), one layer apart
        std::int64_t crossings = 0;
        int total = 0;
    };
    auto makePlan = [&](std::vector<int> depths) {
        Plan p;
        p.layer = std::move(depths);
        p.layerCount = *std::max_element(p.layer.begin(), p.layer.end()) + 1;
        const auto& layer = p.layer;
        const int layerCount = p.layerCount;
        auto& chains = p.chains;
        auto& chainOfRoute = p.chainOfRoute;
        auto& laned = p.laned;
        auto& width = p.width;
        auto& layers = p.layers;
        auto& edges = p.edges;
        auto span = [&](const Chain& c) { return layer[c.bottom] - layer[c.top]; };
        // One chain per pair of items joined (both directions and repeated inputs share it).
        std::unordered_map<std::uint64_t, int> chainIndex;
        for (int v = 0; v < n; ++v) {
            for (int u : inputs[v]) {
                if (!joins(u, v)) {
                    chainOfRoute.push_back(-1);
                    continue;
                }
                Chain c;
                c.top = forward(u, v) ? u : v;
                c.bottom = forward(u, v) ? v : u;
                const std::uint64_t key = (static_cast<std::uint64_t>(static_cast<std::uint32_t>(c.top)) << 32)
                    | static_cast<std::uint32_t>(c.bottom);
                auto [it, fresh] = chainIndex.emplace(key, static_cast<int>(chains.size()));
                if (fresh)
                    chains.push_back(c);
                chainOfRoute.push_back(it->second);
            }
        }

        // Virtual items, shortest edges first, up to the cap; the longest edges take a side lane.
        std::vector<int> longChains;
        for (int c = 0; c < static_cast<int>(chains.size()); ++c)
            if (span(chains[c]) > 1)
                longChains.push_back(c);
        std::stable_sort(
            longChains.begin(), longChains.end(), [&](int a, int b) { return span(chains[a]) < span(chains[b]); });
        const std::int64_t cap = std::max(kVirtualFloor, kVirtualPerItem * n);
        std::int64_t virtuals = 0;
        for (int c : longChains) {
            const int extra = span(chains[c]) - 1;
            if (virtuals + extra <= cap) {
                chains[c].first = n + static_cast<int>(virtuals);
                virtuals += extra;
            } else {
                laned.push_back(c);
            }
        }
        const int total = n + static_cast<int>(virtuals);
        std::vector<int> itemLayer(layer);
        width = itemWidth;
        itemLayer.resize(static_cast<std::size_t>(total));
        width.resize(static_cast<std::size_t>(total), 0.0);

        // Each layer in graph order, an edge's virtual items right after its upper end.
        std::vector<int> chainsByTop;
        for (int c = 0; c < static_cast<int>(chains.size()); ++c)
            if (chains[c].first >= 0)
                chainsByTop.push_back(c);
        std::stable_sort(chainsByTop.begin(), chainsByTop.end(),
            [&](int a, int b) { return rank[chains[a].top] < rank[chains[b].top]; });
        layers.assign(static_cast<std::size_t>(layerCount), {});
        edges.reserve(chains.size() + static_cast<std::size_t>(virtuals));
        std::size_t nextChain = 0;
        for (int v : order) {
            layers[layer[v]].push_back(v);
            for (; nextChain < chainsByTop.size() && chains[chainsByTop[nextChain]].top == v; ++nextChain) {
                const Chain& c = chains[chainsByTop[nextChain]];
                int above = c.top;
                for (int k = 0; k < span(c) - 1; ++k) {
                    const int d = c.first + k;
                    itemLayer[d] = layer[c.top] + 1 + k;
                    layers[itemLayer[d]].push_back(d);
                    edges.emplace_back(above, d);
                    above = d;
                }
                edges.emplace_back(above, c.bottom);
            }
        }
        for (const Chain& c : chains)
            if (span(c) == 1)
                edges.emplace_back(c.top, c.bottom);

        CrossingReduction ordering(std::move(layers), total, edges);
        ordering.run(options.sweeps, n <= kManyLayeringsItems ? kManyStarts : CrossingReduction::kDefaultStarts);
        layers = ordering.layers();
        p.crossings = ordering.crossings();
        p.total = total;
        return p;
    };
    std::vector<std::vector<int>> layerings;
    if (n <= kTwoLayeringsItems && pulled != depth)
        layerings.push_back(depth);
    if (n <= kManyLayeringsItems) {
        // Small (an opening view): every item as low as its users allow (within its band's
        // layers), and the tightened forms of all three; every distinct one ordered.
        std::vector<int> low = depth;
        std::vector<int> bandLast(static_cast<std::size_t>(*std::max_element(band.begin(), band.end())) + 1, 0);
        for (int v = 0; v < n; ++v)
            bandLast[static_cast<std::size_t>(band[v])] = std::max(bandLast[static_cast<std::size_t>(band[v])], low[v]);
        for (auto it = order.rbegin(); it != order.rend(); ++it) {
            const int v = *it;
            int hi = bandLast[static_cast<std::size_t>(band[v])];
            bool backEdge = false;
            for (int w : users[v]) {
                backEdge = backEdge || !forward(v, w);
                hi = std::min(hi, low[w] - 1);
            }
            for (int u : inputs[v])
                backEdge = backEdge || (joins(u, v) && !forward(u, v));
            if (!backEdge && hi > low[v])
                low[v] = hi;
        }
        auto add = [&](std::vector<int> t) {
            if (t != pulled && std::find(layerings.begin(), layerings.end(), t) == layerings.end())
                layerings.push_back(std::move(t));
        };
        add(low);
        for (std::vector<int> t : {pulled, depth, low}) {
            tighten(t);
            add(std::move(t));
        }
    }
    Plan chosen = makePlan(pulled);
    for (auto& l : layerings) {
        Plan other = makePlan(std::move(l));
        if (other.crossings < chosen.crossings)
            chosen = std::move(other);
    }
    const std::vector<int>& layer = chosen.layer;
    const int layerCount = chosen.layerCount;
    const int total = chosen.total;
    auto& chains = chosen.chains;
    const auto& chainOfRoute = chosen.chainOfRoute;
    auto& laned = chosen.laned;
    const auto& width = chosen.width;
    const auto& layers = chosen.layers;
    const auto& edges = chosen.edges;
    auto span = [&](const Chain& c) { return layer[c.bottom] - layer[c.top]; };

    // Coordinates (centres): each item wants the mean x of its neighbours; pack each layer
    // around that, keeping neighbours in a layer at least half their widths plus a gap apart.
    const Adjacency up(total, edges, false), down(total, edges, true);
    auto gap = [&](int a, int b) { return a < n && b < n ? options.nodeGap : options.edgeGap; };
    std::vector<double> x(total, 0.0);
    std::vector<double> desired, packed, offset, weight;
    for (const auto& l : layers) {
        offset.assign(l.size(), 0.0);
        for (std::size_t i = 1; i < l.size(); ++i)
            offset[i] = offset[i - 1] + (width[l[i - 1]] + width[l[i]]) / 2 + gap(l[i - 1], l[i]);
        for (std::size_t i = 0; i < l.size(); ++i)
            x[l[i]] = offset[i] - offset.back() / 2;
    }
    for (int pass = 0; pass < 4; ++pass) {
        const bool goingDown = pass % 2 == 0;
        const Adjacency& from = goingDown ? up : down;
        for (int step = 0; step < layerCount; ++step) {
            const auto& l = layers[goingDown ? step : layerCount - 1 - step];
            desired.assign(l.size(), 0.0);
            offset.assign(l.size(), 0.0);
            weight.assign(l.size(), 1.0);
            for (std::size_t i = 0; i < l.size(); ++i) {
                if (l[i] < n)
                    weight[i] = kBoxWeight;
                if (i > 0)
                    offset[i] = offset[i - 1] + (width[l[i - 1]] + width[l[i]]) / 2 + gap(l[i - 1], l[i]);
                const int b = from.start[l[i]], e = from.start[l[i] + 1];
                if (b == e) {
                    desired[i] = x[l[i]];
                    continue;
                }
                double s = 0;
                for (int k = b; k < e; ++k)
                    s += x[from.to[k]];
                desired[i] = s / (e - b);
            }
            packLayer(packed, desired, offset, weight);
            for (std::size_t i = 0; i < l.size(); ++i)
                x[l[i]] = packed[i];
        }
    }

    double minX = std::numeric_limits<double>::max(), maxX = std::numeric_limits<double>::lowest();
    for (int v = 0; v < total; ++v) {
        minX = std::min(minX, x[v] - width[v] / 2);
        maxX = std::max(maxX, x[v] + width[v] / 2);
    }

    // Side lanes: each on the side nearer its ends; a lane is reused once the edge before it
    // has ended (layer spans apart), else the next lane out.
    std::stable_sort(
        laned.begin(), laned.end(), [&](int a, int b) { return layer[chains[a].top] < layer[chains[b].top]; });
    std::vector<int> laneEnds[2];  // per side, per lane: the layer its last edge ends in
    const double middle = (minX + maxX) / 2;
    for (int c : laned) {
        Chain& ch = chains[c];
        ch.left = x[ch.top] + x[ch.bottom] < 2 * middle;
        auto& ends = laneEnds[ch.left ? 0 : 1];
        int lane = -1;
        for (int k = 0; k < static_cast<int>(ends.size()) && lane < 0; ++k)
            if (ends[k] <= layer[ch.top])
                lane = k;
        if (lane < 0 && static_cast<int>(ends.size()) < kMaxLanes) {
            lane = static_cast<int>(ends.size());
            ends.push_back(0);
        }
        if (lane < 0)
            lane = static_cast<int>(std::min_element(ends.begin(), ends.end()) - ends.begin());
        ends[lane] = std::max(ends[lane], layer[ch.bottom]);
        ch.lane = lane;
    }
    auto laneX = [&](const Chain& c) {
        const double out = options.nodeGap + c.lane * options.edgeGap;
        return c.left ? minX - out : maxX + out;
    };
    const double left
        = laneEnds[0].empty() ? minX : minX - options.nodeGap - (laneEnds[0].size() - 1) * options.edgeGap;
    const double right
        = laneEnds[1].empty() ? maxX : maxX + options.nodeGap + (laneEnds[1].size() - 1) * options.edgeGap;

    const double pitch = options.nodeHeight + options.layerGap;
    for (int v = 0; v < n; ++v) {
        auto& box = result.boxes[static_cast<std::size_t>(v)];
        box.layer = layer[v];
        box.w = width[v];
        box.h = options.nodeHeight;
        box.x = x[v] - width[v] / 2 - left;
        box.y = layer[v] * pitch;
    }

    // Routes: a chain's points top to bottom, reversed for an edge laid out reversed.
    auto chainPoints = [&](const Chain& c) {
        std::vector<LayoutPoint> p;
        const double below = layer[c.top] * pitch + options.nodeHeight, above = layer[c.bottom] * pitch;
        p.push_back({x[c.top] - left, below});
        if (c.first >= 0) {
            for (int k = 0; k < span(c) - 1; ++k) {
                const double dx = x[c.first + k] - left, top = (layer[c.top] + 1 + k) * pitch;
                p.push_back({dx, top});
                p.push_back({dx, top + options.nodeHeight});
            }
        } else if (c.lane >= 0) {
            const double lx = laneX(c) - left;
            p.push_back({lx, below + options.layerGap / 2});
            p.push_back({lx, above - options.layerGap / 2});
        }
        p.push_back({x[c.bottom] - left, above});
        return p;
    };
    result.routes.reserve(chainOfRoute.size());
    std::size_t route = 0;
    for (int v = 0; v < n; ++v) {
        for (int u : inputs[v]) {
            const int c = chainOfRoute[route++];
            EdgeRoute r{u, v, {}};
            if (c < 0) {
                const double cx = x[v] - left, cy = layer[v] * pitch;
                r.points = {{cx, cy}, {cx, cy}};
            } else {
                r.points = chainPoints(chains[c]);
                if (chains[c].top != u)
                    std::reverse(r.points.begin(), r.points.end());
            }
            result.routes.push_back(std::move(r));
        }
    }
    result.layerCount = layerCount;
    result.width = right - left;
    result.height = layerCount * pitch - options.layerGap;
    return result;
}

LayoutResult LayeredLayout::compute(const GraphModel& graph, const LayoutOptions& options)
{
    LayoutInput input;
    input.inputs.reserve(graph.nodes().size());
    for (const auto& n : graph.nodes())
        input.inputs.push_back(n.inputs);
    return compute(input, options);
}

}  // namespace ps::graph
