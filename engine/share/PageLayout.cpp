#include "share/PageLayout.h"

#include "graph/CollapseState.h"
#include "graph/GraphModel.h"
#include "graph/LayeredLayout.h"
#include "graph/ModuleRegions.h"
#include "graph/ModuleTree.h"
#include "graph/VisibleGraph.h"

#include <algorithm>

namespace ps::share {

using namespace graph;

namespace {

std::vector<double> writeLayout(
    const GraphModel& graph, const ModuleTree& tree, const VisibleGraph& visible, const LayoutResult& r)
{
    std::vector<double> out;
    const auto& items = visible.items();
    out.reserve(8 + items.size() * 6 + visible.edges().size() * 3 + r.routes.size() * 12);
    out.insert(out.end(), {static_cast<double>(items.size()), r.width, r.height, static_cast<double>(r.layerCount)});
    for (std::size_t i = 0; i < items.size(); ++i) {
        const auto& b = r.boxes[i];
        out.insert(out.end(),
            {items[i].kind == VisibleItem::Module ? 1.0 : 0.0, static_cast<double>(items[i].id), b.x, b.y, b.w, b.h});
    }
    out.push_back(static_cast<double>(visible.edges().size()));
    for (const auto& edge : visible.edges())
        out.insert(
            out.end(), {static_cast<double>(edge.from), static_cast<double>(edge.to), static_cast<double>(edge.count)});
    out.push_back(static_cast<double>(r.routes.size()));
    for (const auto& route : r.routes) {
        out.insert(out.end(),
            {static_cast<double>(route.from), static_cast<double>(route.to), static_cast<double>(route.points.size())});
        for (const auto& p : route.points)
            out.insert(out.end(), {p.x, p.y});
    }
    // The expanded modules' frames, as the window's ModuleRegionsItem draws them.
    const auto regions = ModuleRegions::build(graph, tree, visible, r.boxes);
    out.push_back(static_cast<double>(regions.size()));
    for (const auto& region : regions)
        out.insert(out.end(), {static_cast<double>(region.module), region.x, region.y, region.w, region.h});
    return out;
}

}  // namespace

std::vector<double> PageLayout::of(const GraphModel& graph, const ModuleTree& tree, const CollapseState& state)
{
    const LayoutOptions options;
    const auto visible = VisibleGraph::build(graph, tree, state);
    return writeLayout(graph, tree, visible, LayeredLayout::compute(visible.layoutInput(options), options));
}

}  // namespace ps::share
