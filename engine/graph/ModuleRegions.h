#pragma once

#include "graph/LayeredLayout.h"

#include <vector>

namespace ps::graph {

class GraphModel;
class ModuleTree;
class VisibleGraph;

/// The frames of a laid-out view's expanded modules: each module above a visible box (not the
/// root) framed around the boxes of what it computes, its parameters and inputs (laid out at
/// the top, far from where it computes) left out, with a margin so that nested frames stay
/// apart. One geometry for the window's ModuleRegionsItem and the HTML report's page
/// (share::PageLayout), so both frame the same boxes.
class ModuleRegions {
public:
    /// Room around what a module holds, on each side.
    static constexpr double kMargin = 6;

    struct Region {
        int module = 0;  ///< ModuleTree id
        double x = 0, y = 0, w = 0, h = 0;
        int parent = -1;  ///< index of the enclosing region, or -1; parents come before children
    };

    /// Shallower modules first; `boxes` is index-aligned with `visible.items()`.
    static std::vector<Region> build(const GraphModel& graph, const ModuleTree& tree, const VisibleGraph& visible,
        const std::vector<NodeBox>& boxes);
};

}  // namespace ps::graph
