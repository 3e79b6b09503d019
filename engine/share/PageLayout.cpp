#include "share/PageLayout.h"

#include "graph/CollapseState.h"
#include "graph/GraphModel.h"
#include "graph/LayeredLayout.h"
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
    // Regions: every module above a visible box is expanded (VisibleGraph), so it frames the box.
    const auto& mods = tree.modules();
    struct Rect {
        double x0 = 0, y0 = 0, x1 = 0, y1 = 0;
        bool set = false;
    };
    std::vector<Rect> rects(mods.size());
    for (std::size_t i = 0; i < items.size(); ++i) {
        const bool node = items[i].kind == VisibleItem::Node;
        if (node && graph.nodes()[static_cast<std::size_t>(items[i].id)].op == "placeholder")
            continue;
        const auto& b = r.boxes[i];
        for (int m = node ? tree.moduleOf(items[i].id) : tree.module(items[i].id).parent; m > 0;
             m = tree.module(m).parent) {
            auto& rect = rects[static_cast<std::size_t>(m)];
            if (!rect.set)
                rect = {b.x, b.y, b.x + b.w, b.y + b.h, true};
            rect = {std::min(rect.x0, b.x), std::min(rect.y0, b.y), std::max(rect.x1, b.x + b.w),
                std::max(rect.y1, b.y + b.h), true};
        }
    }
    std::vector<int> order;
    for (int m = 1; m < static_cast<int>(mods.size()); ++m)
        if (rects[static_cast<std::size_t>(m)].set)
            order.push_back(m);
    std::stable_sort(order.begin(), order.end(), [&](int a, int b) {
        return mods[static_cast<std::size_t>(a)].depth < mods[static_cast<std::size_t>(b)].depth;
    });
    out.push_back(static_cast<double>(order.size()));
    for (int m : order) {
        const auto& rect = rects[static_cast<std::size_t>(m)];
        out.insert(out.end(),
            {static_cast<double>(m), rect.x0 - 6, rect.y0 - 6, rect.x1 - rect.x0 + 12, rect.y1 - rect.y0 + 12});
    }
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
