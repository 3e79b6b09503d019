#pragma once

// Which modules of a ModuleTree are expanded. A collapsed module is drawn as one box standing
// for everything below it; the root is always expanded. Plain value type: copy it to hand a
// state to a layout thread.

#include <string>
#include <vector>

namespace ps::graph {

class ModuleTree;

class CollapseState {
public:
    /// How many boxes a graph opens with at most: the window's and the HTML report's opening
    /// budget for initial() (the window may then open fewer to fit its canvas, GraphOpening).
    static constexpr int kOpeningBudget = 80;

    /// Everything collapsed below the root.
    explicit CollapseState(const ModuleTree& tree);

    /// The opening state: modules expanded breadth first, largest first, while the number of
    /// visible boxes stays within `budget` (or within the root's own nodes plus half the
    /// budget, when those alone exceed it); chains of single-child modules are opened through.
    /// A training step's forward and backward groups are always opened, a model module opens
    /// with its twin in the other phase (so the backward mirrors the forward), and the gradient
    /// bundle stays shut.
    static CollapseState initial(const ModuleTree& tree, int budget);
    static CollapseState allExpanded(const ModuleTree& tree);

    bool expanded(int module) const { return m_expanded[static_cast<std::size_t>(module)]; }
    /// Expands `module` and every module above it.
    void expand(const ModuleTree& tree, int module);
    /// Collapses `module` (not the root); what is below keeps its own state for a later expand.
    void collapse(int module);
    /// Expands what hides `node`; true when anything changed.
    bool reveal(const ModuleTree& tree, int node);
    /// The topmost collapsed module hiding `node`, or -1 when the node is visible itself.
    int hiddenBy(const ModuleTree& tree, int node) const;
    /// Boxes a VisibleGraph of this state shows.
    int visibleCount(const ModuleTree& tree) const;

    bool operator==(const CollapseState& other) const { return m_expanded == other.m_expanded; }

private:
    std::vector<bool> m_expanded;
};

}  // namespace ps::graph
