#pragma once

// A layered (Sugiyama-style) layout of our own: Graphviz dot takes minutes on graphs of a few
// thousand ATen nodes.
//
// Layers: longest path from the sources, band by band (a band starts below the previous
// band's last layer), then sources moved down next to their first user within their band. A
// graph of up to a few thousand items is also ordered on a second layering where items that
// feed more edges than they read (a weight's transpose) move down next to their first user
// too; the layering whose order crosses fewer edges is kept (the bigger graphs take that one).
// A graph of up to 100 items (an opening view) is also ordered on every item as low as its
// users allow, and on the three layerings tightened (each item moved to the end of its free
// range that shortens its edges, to a local optimum of the total edge span). A
// cycle (collapsed modules can make one) is broken at the earliest item in graph order; its
// back edges point up and are laid out reversed.
//
// Long edges: an edge spanning several layers gets a virtual item (width 0, kept edgeGap from
// its neighbours) in every layer it passes, ordered and packed with the boxes, so its route
// runs vertically through each layer between boxes and never through a box it does not join.
// A training step has edges spanning hundreds of layers (activations saved in the forward
// pass, read in the backward pass): the virtual items are capped at a few per item (see
// kVirtualPerItem in the .cpp), given to the shortest edges first; the longest edges past the
// cap take a side channel instead: a lane left or right of every layer (the side nearer their
// ends), reached through the empty gap below the producer's layer and left through the gap
// above the consumer's, so they too pass through no box. Lanes are shared by edges whose
// layer spans do not overlap; at most kMaxLanes per side (beyond, edges share lanes).
//
// Ordering (CrossingReduction): median/barycenter sweeps, on small graphs with adjacent
// exchanges counted exactly and several starts, keeping the best order seen. Coordinates: per
// layer the positions nearest the neighbours' mean that keep items apart (isotonic regression,
// boxes of any width), alternately down and up.
// O(sweeps * (edges + virtual items) log items). Plain data, no Qt: runs on any thread.
//
// The phases, each in its own class: LayerAssignment (the order and the candidate layerings),
// LayoutPlan (chains, virtual items, the ordered layers of one layering), CoordinateAssignment
// (centres), SideLanes (lanes of the laned chains); boxes and routes are placed here.

#include <vector>

namespace ps::graph {

class GraphModel;

struct LayoutOptions {
    double nodeWidth = 176;  ///< the width of an item the input does not size
    double nodeHeight = 42;
    double layerGap = 46;
    double nodeGap = 22;
    double edgeGap = 12;  ///< between a long edge's vertical run and its neighbours (edge or box)
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

struct LayoutPoint {
    double x = 0;
    double y = 0;
};

/// How one edge is drawn: from the producer's bottom centre through its bends to the consumer's
/// top centre (points.front() and points.back() are those two ends). A back edge (pointing up)
/// runs from the producer's top centre to the consumer's bottom centre. Between two points the
/// route is in an empty gap between layers or a vertical run through a layer clear of boxes, so
/// any curve that keeps to the rectangle of two consecutive points passes through no box.
struct EdgeRoute {
    int from = 0;  ///< item indices
    int to = 0;
    std::vector<LayoutPoint> points;
};

struct LayoutResult {
    std::vector<NodeBox> boxes;  ///< index-aligned with the input's items
    /// One per (item, input) pair of the input, in the order item 0's inputs, item 1's, ...
    /// Empty in a layout that has none (then an edge is drawn end to end).
    std::vector<EdgeRoute> routes;
    double width = 0;
    double height = 0;
    int layerCount = 0;
};

/// The graph to lay out: per item the items it reads, and optionally each item's width.
struct LayoutInput {
    std::vector<std::vector<int>> inputs;
    std::vector<double> widths;  ///< empty: every item is nodeWidth wide
    /// Per item its band (0, 1, ...): every item of band k is laid out below every item of a
    /// lower band (a training step's backward below its forward). Empty: one band.
    std::vector<int> bands;
};

class LayeredLayout {
public:
    static LayoutResult compute(const LayoutInput& input, const LayoutOptions& options = {});
    /// Every node of the graph, uncollapsed.
    static LayoutResult compute(const GraphModel& graph, const LayoutOptions& options = {});
};

}  // namespace ps::graph
