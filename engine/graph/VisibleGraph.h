#pragma once

// What the view draws for one CollapseState: every node whose modules are all expanded, and
// one box per collapsed module (the topmost collapsed one on each path). An edge between two
// hidden nodes becomes an edge between their boxes; parallel edges merge into one with a
// count, and edges inside one box vanish. O(nodes + edges). Plain data, any thread.

#include <cstdint>
#include <vector>

namespace ps::graph {

class CollapseState;
class GraphModel;
class ModuleTree;
struct LayoutInput;
struct LayoutOptions;

struct VisibleItem {
    enum Kind : std::uint8_t { Node, Module };
    Kind kind = Node;
    int id = 0;  ///< node index, or module id
};

struct VisibleEdge {
    int from = 0;  ///< item index
    int to = 0;
    int count = 1;  ///< graph edges merged into this one
};

class VisibleGraph {
public:
    static VisibleGraph build(const GraphModel& graph, const ModuleTree& tree, const CollapseState& state);

    /// In graph order: a module box sits where its first node would.
    const std::vector<VisibleItem>& items() const { return m_items; }
    const std::vector<VisibleEdge>& edges() const { return m_edges; }
    /// The item that shows `node`: itself, or the box of the module hiding it.
    int itemOfNode(int node) const { return m_itemOfNode[static_cast<std::size_t>(node)]; }
    /// The box of a collapsed module, or -1 when it is not drawn as one.
    int itemOfModule(int module) const { return m_itemOfModule[static_cast<std::size_t>(module)]; }
    /// Per item, the items it reads (for the layout), without duplicates.
    std::vector<std::vector<int>> inputLists() const;
    /// Per item its band for LayoutInput::bands: in a training step (ModuleTree::phased) 0 for
    /// the forward, the inputs and the parameters, 1 for the backward (the gradient bundle
    /// included) and the output; empty for an inference graph (one band).
    const std::vector<int>& bands() const { return m_bands; }

    /// The width of a collapsed module's box (its title and node count need more room than a
    /// node's op and shape, LayoutOptions::nodeWidth).
    static constexpr double kModuleWidth = 214;
    /// What this view is laid out from: inputLists(), bands() and per item its width (a node
    /// options.nodeWidth, a module kModuleWidth). The window and the HTML report's page (its
    /// engine compiled to WebAssembly) both lay out exactly this, so they draw the same.
    LayoutInput layoutInput(const LayoutOptions& options) const;

private:
    std::vector<VisibleItem> m_items;
    std::vector<VisibleEdge> m_edges;
    std::vector<int> m_itemOfNode;
    std::vector<int> m_itemOfModule;
    std::vector<int> m_bands;
};

}  // namespace ps::graph
