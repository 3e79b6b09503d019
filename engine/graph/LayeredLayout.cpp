#include "graph/LayeredLayout.h"

#include "graph/CoordinateAssignment.h"
#include "graph/CrossingReduction.h"
#include "graph/GraphModel.h"
#include "graph/LayerAssignment.h"
#include "graph/LayoutPlan.h"
#include "graph/SideLanes.h"

#include <algorithm>
#include <cstdint>
#include <limits>
#include <utility>

namespace ps::graph {

namespace {

// Virtual items allowed per item (plus a floor for small graphs): bounds the ordering and
// packing work on a training step, whose saved activations would otherwise need a virtual item
// in each of hundreds of layers.
constexpr std::int64_t kVirtualPerItem = 3;
constexpr std::int64_t kVirtualFloor = 20000;
// Views up to LayerAssignment::kManyLayeringsItems are ordered on more layerings, each from
// this many starts. Both multiply the layout's time (0.16 -> 0.37 s at 78 items, 0.34 -> 0.9 s
// at 118): an expanded view does without them.
constexpr int kManyStarts = 256;
// A view of at most this many items (an expanded model of a few hundred ops, not the 50k-node
// graph's) keeps its long edges out of side lanes (up to kFewItemsVirtualCap virtual items, whose
// lanes' legs would cross everything beside them) and is ordered with refinement however many
// virtual items that makes ([layout-2]: gpt's expanded view, 5954 crossings -> 1373, dot 2865).
constexpr int kFewItems = 2000;
constexpr std::int64_t kFewItemsVirtualCap = 60000;

// Every candidate layering made proper and ordered; the first whose order crosses fewest kept.
LayoutPlan orderedPlan(const LayerAssignment& graph, const std::vector<double>& itemWidth, const LayoutOptions& options)
{
    const int n = graph.items();
    const bool few = n <= kFewItems;
    const std::int64_t cap = few ? kFewItemsVirtualCap : std::max(kVirtualFloor, kVirtualPerItem * n);
    const int starts = n <= LayerAssignment::kManyLayeringsItems ? kManyStarts : CrossingReduction::kDefaultStarts;
    std::vector<std::vector<int>> layerings = graph.candidates();
    if (n > LayerAssignment::kManyLayeringsItems && layerings.size() > 1) {
        // Past an opening view's size each ordering costs: the layering whose first start
        // crosses fewest is the one ordered (on the three real training steps expanded, the one
        // the whole ordering chose; half the time).
        return LayoutPlan::makeBest(graph, std::move(layerings), itemWidth, cap, options.sweeps, starts, few);
    }
    LayoutPlan chosen
        = LayoutPlan::make(graph, std::move(layerings.front()), itemWidth, cap, options.sweeps, starts, few);
    for (std::size_t k = 1; k < layerings.size(); ++k) {
        LayoutPlan other
            = LayoutPlan::make(graph, std::move(layerings[k]), itemWidth, cap, options.sweeps, starts, few);
        if (other.crossings < chosen.crossings)
            chosen = std::move(other);
    }
    return chosen;
}

// The plan's horizontal extent as placed, lanes included, and where its lanes run.
struct Extent {
    double minX = std::numeric_limits<double>::max();  ///< of the boxes and virtual items
    double maxX = std::numeric_limits<double>::lowest();
    double left = 0;  ///< of the drawing, lanes included: box x are relative to it
    double right = 0;

    double laneX(const Chain& c, const LayoutOptions& options) const
    {
        const double out = options.nodeGap + c.lane * options.edgeGap;
        return c.left ? minX - out : maxX + out;
    }
};

// Side lanes assigned on the way: a lane's side depends on the items' extent, the drawing's on
// the lanes.
Extent placeLanes(LayoutPlan& plan, const std::vector<double>& x, const LayoutOptions& options)
{
    Extent e;
    for (int v = 0; v < plan.total; ++v) {
        e.minX = std::min(e.minX, x[v] - plan.width[v] / 2);
        e.maxX = std::max(e.maxX, x[v] + plan.width[v] / 2);
    }
    const auto lanes = SideLanes::assign(plan, x, (e.minX + e.maxX) / 2);
    e.left = lanes[0] == 0 ? e.minX : e.minX - options.nodeGap - (lanes[0] - 1) * options.edgeGap;
    e.right = lanes[1] == 0 ? e.maxX : e.maxX + options.nodeGap + (lanes[1] - 1) * options.edgeGap;
    return e;
}

// A chain's points top to bottom: the upper end's bottom centre, a vertical run through each
// layer it passes (virtual items) or down its lane through the gaps next to its ends, the lower
// end's top centre.
std::vector<LayoutPoint> chainPoints(const LayoutPlan& plan, const Chain& c, const std::vector<double>& x,
    const Extent& extent, const LayoutOptions& options)
{
    const auto& layer = plan.layer;
    const double left = extent.left;
    const double pitch = options.nodeHeight + options.layerGap;
    std::vector<LayoutPoint> p;
    const double below = layer[c.top] * pitch + options.nodeHeight, above = layer[c.bottom] * pitch;
    p.push_back({x[c.top] - left, below});
    if (c.first >= 0) {
        for (int k = 0; k < plan.span(c) - 1; ++k) {
            const double dx = x[c.first + k] - left, top = (layer[c.top] + 1 + k) * pitch;
            p.push_back({dx, top});
            p.push_back({dx, top + options.nodeHeight});
        }
    } else if (c.lane >= 0) {
        const double lx = extent.laneX(c, options) - left;
        p.push_back({lx, below + options.layerGap / 2});
        p.push_back({lx, above - options.layerGap / 2});
    }
    p.push_back({x[c.bottom] - left, above});
    return p;
}

// One route per (item, input) pair: its chain's points, reversed for an edge laid out
// reversed; an input that is no edge, a point at the item's top centre.
std::vector<EdgeRoute> routeEdges(const LayoutInput& input, const LayoutPlan& plan, const std::vector<double>& x,
    const Extent& extent, const LayoutOptions& options)
{
    const double pitch = options.nodeHeight + options.layerGap;
    std::vector<EdgeRoute> routes;
    routes.reserve(plan.chainOfRoute.size());
    std::size_t route = 0;
    for (int v = 0; v < static_cast<int>(input.inputs.size()); ++v) {
        for (int u : input.inputs[v]) {
            const int c = plan.chainOfRoute[route++];
            EdgeRoute r{u, v, {}};
            if (c < 0) {
                const double cx = x[v] - extent.left, cy = plan.layer[v] * pitch;
                r.points = {{cx, cy}, {cx, cy}};
            } else {
                r.points = chainPoints(plan, plan.chains[c], x, extent, options);
                if (plan.chains[c].top != u)
                    std::reverse(r.points.begin(), r.points.end());
            }
            routes.push_back(std::move(r));
        }
    }
    return routes;
}

}  // namespace

LayoutResult LayeredLayout::compute(const LayoutInput& input, const LayoutOptions& options)
{
    const int n = static_cast<int>(input.inputs.size());
    LayoutResult result;
    result.boxes.resize(static_cast<std::size_t>(n));
    if (n == 0)
        return result;
    std::vector<double> itemWidth(n, options.nodeWidth);
    if (input.widths.size() == static_cast<std::size_t>(n))
        itemWidth = input.widths;

    const LayerAssignment graph(input.inputs, input.bands);
    LayoutPlan plan = orderedPlan(graph, itemWidth, options);
    const std::vector<double> x = CoordinateAssignment::centres(plan, n, options);
    const Extent extent = placeLanes(plan, x, options);

    const double pitch = options.nodeHeight + options.layerGap;
    for (int v = 0; v < n; ++v) {
        auto& box = result.boxes[static_cast<std::size_t>(v)];
        box.layer = plan.layer[v];
        box.w = plan.width[v];
        box.h = options.nodeHeight;
        box.x = x[v] - plan.width[v] / 2 - extent.left;
        box.y = plan.layer[v] * pitch;
    }
    result.routes = routeEdges(input, plan, x, extent, options);
    result.layerCount = plan.layerCount;
    result.width = extent.right - extent.left;
    result.height = plan.layerCount * pitch - options.layerGap;
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
