#include "graph/VisibleGraph.h"

#include "graph/CollapseState.h"
#include "graph/GraphModel.h"
#include "graph/LayeredLayout.h"
#include "graph/ModuleTree.h"

#include <unordered_map>

namespace ps::graph {

VisibleGraph VisibleGraph::build(const GraphModel& graph, const ModuleTree& tree, const CollapseState& state)
{
    VisibleGraph v;
    const auto& mods = tree.modules();
    const auto& nodes = graph.nodes();
    // The box standing for each module: its topmost collapsed ancestor (or itself), else -1.
    // Parents come before children in id order.
    std::vector<int> boxOf(mods.size(), -1);
    for (std::size_t m = 1; m < mods.size(); ++m) {
        const int parentBox = boxOf[static_cast<std::size_t>(mods[m].parent)];
        // A re-entered module as one box would make a cycle: it is always shown open.
        const bool open = state.expanded(static_cast<int>(m)) || mods[m].reentrant;
        boxOf[m] = parentBox >= 0 ? parentBox : (open ? -1 : static_cast<int>(m));
    }
    v.m_itemOfModule.assign(mods.size(), -1);
    v.m_itemOfNode.assign(nodes.size(), -1);
    v.m_items.reserve(nodes.size());
    for (std::size_t i = 0; i < nodes.size(); ++i) {
        const int box = boxOf[static_cast<std::size_t>(tree.moduleOf(static_cast<int>(i)))];
        if (box < 0) {
            v.m_itemOfNode[i] = static_cast<int>(v.m_items.size());
            v.m_items.push_back({VisibleItem::Node, static_cast<int>(i)});
            continue;
        }
        int& item = v.m_itemOfModule[static_cast<std::size_t>(box)];
        if (item < 0) {
            item = static_cast<int>(v.m_items.size());
            v.m_items.push_back({VisibleItem::Module, box});
        }
        v.m_itemOfNode[i] = item;
    }
    if (tree.phased()) {
        v.m_bands.reserve(v.m_items.size());
        for (const auto& item : v.m_items) {
            const bool backward = item.kind == VisibleItem::Module
                ? mods[static_cast<std::size_t>(item.id)].phase == Phase::Backward
                : tree.phaseOf(item.id) == Phase::Backward || nodes[static_cast<std::size_t>(item.id)].op == "output"
                    || nodes[static_cast<std::size_t>(item.id)].kind == NodeKind::Output;
            v.m_bands.push_back(backward ? 1 : 0);
        }
    }
    // Merge parallel edges: key (from, to) packed in 64 bits.
    std::unordered_map<std::uint64_t, int> index;
    index.reserve(graph.edgeCount());
    v.m_edges.reserve(graph.edgeCount());
    for (std::size_t i = 0; i < nodes.size(); ++i) {
        const int to = v.m_itemOfNode[i];
        for (int u : nodes[i].inputs) {
            const int from = v.m_itemOfNode[static_cast<std::size_t>(u)];
            if (from == to)
                continue;
            const std::uint64_t key
                = (static_cast<std::uint64_t>(static_cast<std::uint32_t>(from)) << 32) | static_cast<std::uint32_t>(to);
            auto [it, fresh] = index.emplace(key, static_cast<int>(v.m_edges.size()));
            if (fresh)
                v.m_edges.push_back({from, to, 1});
            else
                ++v.m_edges[static_cast<std::size_t>(it->second)].count;
        }
    }
    return v;
}

LayoutInput VisibleGraph::layoutInput(const LayoutOptions& options) const
{
    LayoutInput input{inputLists(), {}, m_bands};
    input.widths.reserve(m_items.size());
    for (const auto& item : m_items)
        input.widths.push_back(item.kind == VisibleItem::Module ? kModuleWidth : options.nodeWidth);
    return input;
}

std::vector<std::vector<int>> VisibleGraph::inputLists() const
{
    std::vector<std::vector<int>> in(m_items.size());
    for (const auto& e : m_edges)
        in[static_cast<std::size_t>(e.to)].push_back(e.from);
    return in;
}

}  // namespace ps::graph
