#pragma once

// A layered layout of a graph of our own (Graphviz dot does not survive graphs of thousands of
// ATen nodes): longest-path layers with sources pulled down to their first user, barycenter
// ordering sweeps, then per layer the positions nearest the neighbours' mean that keep boxes
// apart (isotonic regression). O(sweeps * edges + nodes log nodes). Plain data, no Qt, so it
// can run on any thread and move to engine/graph.

#include <vector>

namespace ps::ui {

class GraphModel;

struct LayoutOptions {
    double nodeWidth = 176;
    double nodeHeight = 42;
    double layerGap = 46;
    double nodeGap = 22;
    int sweeps = 4;
};

/// Top-left corner of one node's box, and its layer (0 at the top).
struct NodeBox {
    double x = 0;
    double y = 0;
    int layer = 0;
};

struct GraphLayoutResult {
    std::vector<NodeBox> boxes;  ///< index-aligned with GraphModel::nodes()
    double width = 0;
    double height = 0;
    int layerCount = 0;
    double nodeWidth = 0;
    double nodeHeight = 0;
};

class GraphLayout {
public:
    static GraphLayoutResult compute(const GraphModel& graph, const LayoutOptions& options = {});
};

} // namespace ps::ui
