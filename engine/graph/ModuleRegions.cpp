#include "graph/ModuleRegions.h"

#include "graph/GraphModel.h"
#include "graph/ModuleTree.h"
#include "graph/VisibleGraph.h"

#include <algorithm>

namespace ps::graph {

namespace {

struct Bounds {
    double x0 = 0, y0 = 0, x1 = 0, y1 = 0;
    bool set = false;

    void add(const NodeBox& b)
    {
        if (!set) {
            *this = {b.x, b.y, b.x + b.w, b.y + b.h, true};
            return;
        }
        x0 = std::min(x0, b.x);
        y0 = std::min(y0, b.y);
        x1 = std::max(x1, b.x + b.w);
        y1 = std::max(y1, b.y + b.h);
    }
};

}  // namespace

std::vector<ModuleRegions::Region> ModuleRegions::build(
    const GraphModel& graph, const ModuleTree& tree, const VisibleGraph& visible, const std::vector<NodeBox>& boxes)
{
    const auto& mods = tree.modules();
    std::vector<Bounds> bounds(mods.size());
    const auto& items = visible.items();
    for (std::size_t i = 0; i < items.size() && i < boxes.size(); ++i) {
        const bool node = items[i].kind == VisibleItem::Node;
        if (node && graph.nodes()[static_cast<std::size_t>(items[i].id)].op == "placeholder")
            continue;
        // Every module above a visible box is expanded (VisibleGraph): it frames the box.
        for (int m = node ? tree.moduleOf(items[i].id) : tree.module(items[i].id).parent; m > 0;
             m = tree.module(m).parent)
            bounds[static_cast<std::size_t>(m)].add(boxes[i]);
    }
    std::vector<int> order;
    for (int m = 1; m < static_cast<int>(mods.size()); ++m)
        if (bounds[static_cast<std::size_t>(m)].set)
            order.push_back(m);
    std::stable_sort(order.begin(), order.end(), [&](int a, int b) {
        return mods[static_cast<std::size_t>(a)].depth < mods[static_cast<std::size_t>(b)].depth;
    });
    std::vector<int> index(mods.size(), -1);
    std::vector<Region> out;
    out.reserve(order.size());
    for (int m : order) {
        index[static_cast<std::size_t>(m)] = static_cast<int>(out.size());
        const auto& b = bounds[static_cast<std::size_t>(m)];
        const int parent = mods[static_cast<std::size_t>(m)].parent;
        out.push_back({m, b.x0 - kMargin, b.y0 - kMargin, b.x1 - b.x0 + 2 * kMargin, b.y1 - b.y0 + 2 * kMargin,
            parent > 0 ? index[static_cast<std::size_t>(parent)] : -1});
    }
    return out;
}

}  // namespace ps::graph
