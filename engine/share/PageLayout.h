#pragma once

// The layout of one collapse state as the HTML report's page reads it: a flat array of doubles,
// computed exactly as the window lays out (VisibleGraph::layoutInput, LayeredLayout). Compiled
// into ps_share (the report's opening layout, PageGraph) and into the page's engine.wasm
// (engine/share/wasm/EngineWasm.cmake lists it), so both write the same numbers: it must stay
// free of Qt and of exceptions.
//
//   itemCount, width, height, layerCount,
//   per item: kind (0 node, 1 module), id (node index or module id), x, y, w, h,
//   edgeCount, per edge: from item, to item, count (graph edges merged),
//   routeCount, per route: from item, to item, pointCount, then x, y per point,
//   regionCount, per region: module id, x, y, w, h (an expanded module's frame, as the window's
//   ModuleRegionsItem: around the boxes it computes, its placeholders left out, 6 px of room),
//   parents before children.

#include <vector>

namespace ps::graph {
class CollapseState;
class GraphModel;
class ModuleTree;
}  // namespace ps::graph

namespace ps::share {

class PageLayout {
public:
    static std::vector<double> of(
        const graph::GraphModel& graph, const graph::ModuleTree& tree, const graph::CollapseState& state);
};

}  // namespace ps::share
