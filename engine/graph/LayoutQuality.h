#pragma once

// How readable a drawn graph is, measured: edge crossings, edges drawn through boxes they do not
// connect, and total edge length. Works on any layout given as boxes and edge polylines, ours
// (LayeredLayout's routes, or straight lines when it has none) or another tool's (Graphviz dot
// in the bench), so that the two are measured by the same code. Segments are bucketed in a
// uniform grid: O(segments + cells crossed + pairs sharing a cell). Plain data, any thread.

#include "graph/LayeredLayout.h"

#include <cstdint>
#include <vector>

namespace ps::graph {

struct LayoutQualityFigures {
    int edges = 0;  ///< distinct (from, to) edges measured
    /// Pairs of edges with no item in common whose polylines properly cross (once however often).
    std::int64_t crossings = 0;
    /// Pairs of edges of one item that cross away from it (kSharedEndMargin): two edges into one
    /// node whose order swaps. Not in `crossings`: reordering their other ends undoes them, and
    /// counting them would count the bundles Graphviz draws into a node (dot's own count agrees).
    std::int64_t adjacentCrossings = 0;
    int throughBoxes = 0;   ///< edges with a segment through the inside of a box they do not connect
    double edgeLength = 0;  ///< the polylines' total length, in layout units (px)
};

class LayoutQuality {
public:
    /// Boxes are shrunk by this much on every side before an edge is tested against them, so an
    /// edge that only grazes a box's border is not "through" it.
    static constexpr double kBoxInset = 1;
    /// Two edges of one item (a fan-out or fan-in) meet near that item without crossing in any
    /// way a reader notices: their intersections inside the item's box grown by this much on
    /// every side are not adjacentCrossings.
    static constexpr double kSharedEndMargin = 23;

    /// `layout` of `input`: its routes, or when it has none, each edge as the straight segment
    /// from the producer's bottom centre to the consumer's top centre. An input listed twice by
    /// one item is one edge.
    static LayoutQualityFigures measure(const LayoutInput& input, const LayoutResult& layout);
    /// Any drawing: item boxes and one polyline per edge (from, to: indices into `boxes`).
    /// Routes with the same (from, to) count once (the first is measured); self-loops and
    /// routes of fewer than two points are skipped.
    static LayoutQualityFigures measure(const std::vector<NodeBox>& boxes, const std::vector<EdgeRoute>& routes);

    /// The polylines measure(input, layout) measures, one per distinct edge.
    static std::vector<EdgeRoute> routesOf(const LayoutInput& input, const LayoutResult& layout);
};

}  // namespace ps::graph
