#include "graph/LayoutPlan.h"

#include "graph/CrossingReduction.h"
#include "graph/LayerAssignment.h"

#include <algorithm>
#include <unordered_map>

namespace ps::graph {

LayoutPlan LayoutPlan::build(const LayerAssignment& graph, std::vector<int> layering,
    const std::vector<double>& itemWidth, std::int64_t virtualCap)
{
    LayoutPlan p;
    p.layer = std::move(layering);
    p.layerCount = p.layer.empty() ? 0 : *std::max_element(p.layer.begin(), p.layer.end()) + 1;
    p.joinChains(graph);
    const std::int64_t virtuals = p.addVirtualItems(graph.items(), virtualCap);
    p.width = itemWidth;
    p.width.resize(static_cast<std::size_t>(p.total), 0.0);
    p.fillLayers(graph, virtuals);
    return p;
}

LayoutPlan LayoutPlan::make(const LayerAssignment& graph, std::vector<int> layering,
    const std::vector<double>& itemWidth, std::int64_t virtualCap, int sweeps, int starts, bool longEdges)
{
    LayoutPlan p = build(graph, std::move(layering), itemWidth, virtualCap);
    CrossingReduction ordering(std::move(p.layers), p.total, p.edges);
    ordering.run(sweeps, starts, longEdges);
    p.layers = ordering.layers();
    p.crossings = ordering.crossings();
    return p;
}

LayoutPlan LayoutPlan::makeBest(const LayerAssignment& graph, std::vector<std::vector<int>> layerings,
    const std::vector<double>& itemWidth, std::int64_t virtualCap, int sweeps, int starts, bool longEdges)
{
    std::vector<LayoutPlan> plans;
    std::vector<CrossingReduction> orders;
    plans.reserve(layerings.size());
    orders.reserve(layerings.size());
    std::size_t pick = 0;
    std::int64_t fewest = 0;
    for (auto& layering : layerings) {
        plans.push_back(build(graph, std::move(layering), itemWidth, virtualCap));
        LayoutPlan& p = plans.back();
        orders.emplace_back(std::move(p.layers), p.total, p.edges);
        const std::int64_t c = orders.back().firstStart();
        if (orders.size() == 1 || c < fewest) {
            fewest = c;
            pick = orders.size() - 1;
        }
    }
    CrossingReduction& ordering = orders[pick];
    ordering.run(sweeps, starts, longEdges);  // on from its first start
    LayoutPlan& p = plans[pick];
    p.layers = ordering.layers();
    p.crossings = ordering.crossings();
    return std::move(p);
}

// One chain per pair of items joined (both directions and repeated inputs share it).
void LayoutPlan::joinChains(const LayerAssignment& graph)
{
    const auto& inputs = graph.inputs();
    std::unordered_map<std::uint64_t, int> chainIndex;
    for (int v = 0; v < graph.items(); ++v) {
        for (int u : inputs[v]) {
            if (!graph.joins(u, v)) {
                chainOfRoute.push_back(-1);
                continue;
            }
            Chain c;
            c.top = graph.forward(u, v) ? u : v;
            c.bottom = graph.forward(u, v) ? v : u;
            const std::uint64_t key = (static_cast<std::uint64_t>(static_cast<std::uint32_t>(c.top)) << 32)
                | static_cast<std::uint32_t>(c.bottom);
            auto [it, fresh] = chainIndex.emplace(key, static_cast<int>(chains.size()));
            if (fresh)
                chains.push_back(c);
            chainOfRoute.push_back(it->second);
        }
    }
}

// Virtual items, shortest edges first, up to the cap; the longest edges take a side lane.
std::int64_t LayoutPlan::addVirtualItems(int items, std::int64_t virtualCap)
{
    std::vector<int> longChains;
    for (int c = 0; c < static_cast<int>(chains.size()); ++c)
        if (span(chains[c]) > 1)
            longChains.push_back(c);
    std::stable_sort(
        longChains.begin(), longChains.end(), [&](int a, int b) { return span(chains[a]) < span(chains[b]); });
    std::int64_t virtuals = 0;
    for (int c : longChains) {
        const int extra = span(chains[c]) - 1;
        if (virtuals + extra <= virtualCap) {
            chains[c].first = items + static_cast<int>(virtuals);
            virtuals += extra;
        } else {
            laned.push_back(c);
        }
    }
    total = items + static_cast<int>(virtuals);
    return virtuals;
}

// Each layer in graph order, an edge's virtual items right after its upper end.
void LayoutPlan::fillLayers(const LayerAssignment& graph, std::int64_t virtuals)
{
    std::vector<int> itemLayer(layer);
    itemLayer.resize(static_cast<std::size_t>(total));
    const auto& rank = graph.rank();
    std::vector<int> chainsByTop;
    for (int c = 0; c < static_cast<int>(chains.size()); ++c)
        if (chains[c].first >= 0)
            chainsByTop.push_back(c);
    std::stable_sort(chainsByTop.begin(), chainsByTop.end(),
        [&](int a, int b) { return rank[chains[a].top] < rank[chains[b].top]; });
    layers.assign(static_cast<std::size_t>(layerCount), {});
    edges.reserve(chains.size() + static_cast<std::size_t>(virtuals));
    std::size_t nextChain = 0;
    for (int v : graph.order()) {
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
}

}  // namespace ps::graph
