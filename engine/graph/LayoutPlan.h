#pragma once

// The second phase of LayeredLayout: one layering (LayerAssignment) made proper and ordered.
// Every pair of items joined becomes one chain drawn top to bottom (both directions and
// repeated inputs share it). A chain spanning several layers gets a virtual item (width 0) in
// every layer it passes, shortest chains first, up to a cap on the virtual items; the longest
// chains past the cap are laned (they will run down a side lane, SideLanes). The layers, each
// in layering order with a chain's virtual items right after its upper end, are then ordered
// by CrossingReduction, whose crossings the layout compares between layerings.
//
// Plain data, no Qt: any thread. Never throws on a layering of the assignment's items (one
// layer per item, non-negative, every edge's ends in different layers, forward edges
// pointing down: what LayerAssignment makes); anything else is the caller's bug.

#include <cstdint>
#include <utility>
#include <vector>

namespace ps::graph {

class LayerAssignment;

/// An edge of the layout between two items a layer or more apart, drawn top to bottom: through
/// virtual items (first .. first + span - 2), or down a side lane, or straight when adjacent.
struct Chain {
    int top = 0;
    int bottom = 0;
    int first = -1;  ///< its first virtual item, or -1
    int lane = -1;   ///< its side lane, or -1 (SideLanes sets it and `left`)
    bool left = false;
};

struct LayoutPlan {
    std::vector<int> layer;  ///< per item (virtual ones excluded) its layer
    int layerCount = 0;
    std::vector<Chain> chains;
    /// Per (item, input) pair in input order its chain, or -1 where the input is no edge.
    std::vector<int> chainOfRoute;
    std::vector<int> laned;                  ///< chains past the virtual-item cap, by span then creation
    std::vector<double> width;               ///< per item, virtual ones (0) included
    std::vector<std::vector<int>> layers;    ///< per layer its items, virtual ones included, in order
    std::vector<std::pair<int, int>> edges;  ///< (upper, lower), one layer apart
    std::int64_t crossings = 0;              ///< of `layers` once ordered
    int total = 0;                           ///< items, virtual ones included

    /// Layers of more than one (bottom - top) of `chain`.
    int span(const Chain& chain) const { return layer[chain.bottom] - layer[chain.top]; }

    /// Chains, virtual items and layers of `layering` (as make() without ordering).
    /// `itemWidth` per item; `virtualCap`: the most virtual items.
    static LayoutPlan build(const LayerAssignment& graph, std::vector<int> layering,
        const std::vector<double>& itemWidth, std::int64_t virtualCap);
    /// build(), then the layers ordered by CrossingReduction (`sweeps`, `starts`).
    static LayoutPlan make(const LayerAssignment& graph, std::vector<int> layering,
        const std::vector<double>& itemWidth, std::int64_t virtualCap, int sweeps, int starts, bool longEdges = false);
    /// make() on the one of several layerings whose first start (CrossingReduction::firstStart)
    /// crosses fewest, the first on a tie; the ordering goes on from that start.
    static LayoutPlan makeBest(const LayerAssignment& graph, std::vector<std::vector<int>> layerings,
        const std::vector<double>& itemWidth, std::int64_t virtualCap, int sweeps, int starts, bool longEdges);

private:
    void joinChains(const LayerAssignment& graph);
    /// Returns how many virtual items it gave.
    std::int64_t addVirtualItems(int items, std::int64_t virtualCap);
    void fillLayers(const LayerAssignment& graph, std::int64_t virtuals);
};

}  // namespace ps::graph
