#pragma once

// A layered (Sugiyama-style) layout of our own: Graphviz dot takes minutes on graphs of a few
// thousand ATen nodes. Longest-path layers with sources pulled down next to their first user,
// barycenter ordering sweeps, then per layer the positions nearest the neighbours' mean that
// keep boxes apart (isotonic regression, boxes of any width). A cycle (collapsed modules can
// make one) is broken at the earliest item in graph order; its back edges point up.
// O(sweeps * edges + items log items). Plain data, no Qt: runs on any thread.

#include <optional>
#include <string>
#include <string_view>
#include <vector>

namespace ps::graph {

class GraphModel;

struct LayoutOptions {
    double nodeWidth = 176;  ///< the width of an item the input does not size
    double nodeHeight = 42;
    double layerGap = 46;
    double nodeGap = 22;
    int sweeps = 4;
};

/// Top-left corner and size of one item's box, and its layer (0 at the top).
struct NodeBox {
    double x = 0;
    double y = 0;
    double w = 0;
    double h = 0;
    int layer = 0;
};

struct LayoutResult {
    std::vector<NodeBox> boxes;  ///< index-aligned with the input's items
    double width = 0;
    double height = 0;
    int layerCount = 0;
};

/// The graph to lay out: per item the items it reads, and optionally each item's width.
struct LayoutInput {
    std::vector<std::vector<int>> inputs;
    std::vector<double> widths;  ///< empty: every item is nodeWidth wide
};

class LayeredLayout {
public:
    static LayoutResult compute(const LayoutInput& input, const LayoutOptions& options = {});
    /// Every node of the graph, uncollapsed.
    static LayoutResult compute(const GraphModel& graph, const LayoutOptions& options = {});

    /// 16 hex digits hashing everything compute() reads: the inputs, the widths, the options.
    static std::string inputKey(const LayoutInput& input, const LayoutOptions& options);

    /// A compact binary form for the layout cache, and back. decode() refuses (nullopt) bytes
    /// that are not a layout of exactly `items` items.
    static std::string encode(const LayoutResult& layout);
    static std::optional<LayoutResult> decode(std::string_view bytes, std::size_t items);
};

}  // namespace ps::graph
