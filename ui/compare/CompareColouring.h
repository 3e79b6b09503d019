#pragma once

#include <QColor>
#include <QPalette>

#include <cstdint>
#include <map>
#include <string>
#include <vector>

namespace ps::graph {
class ModuleTree;
}

namespace ps::ui {

class GraphView;

/// The Compare graphs' colours (DiffColours), the same for a node and for the module box that
/// hides it, whatever the phase: a node only on one side is green on B (added) or red on A
/// (removed); a matched node that changed is amber on both sides; a collapsed module is green
/// or red only when every node in it is on that side alone, amber when anything in it differs
/// or in the module it is matched to on the other side (the same path, through the diff's
/// module renames, in the same phase), plain otherwise. So a matched module reads the same on
/// both sides, where a vote of its nodes would make it green on B (an added layer outnumbers
/// the one node it changed) and amber on A.
///
/// The fills are recomputed for what a view shows after each of its layouts (fillsFor): the
/// nodes a collapsed module hides all take its colour.
class CompareColouring {
public:
    enum class Status : std::uint8_t { Same, Changed, Only };

    /// Per side, each GraphModel node's status; renames: side 0's module paths -> side 1's.
    void set(std::vector<Status> status[2], std::map<std::string, std::string> renames);
    void clear();

    Status status(int side, int node) const;
    /// The colour of a node's own box on `side`; invalid for an unchanged node.
    QColor nodeColour(int side, int node) const;
    /// The colour of `module`'s collapsed box on `side`; invalid when unchanged. The modules are
    /// those of the trees last given to update().
    QColor moduleColour(int side, int module) const;
    /// Reads the views' module trees (each built with its view's first layout) when they are new.
    void update(const GraphView* views[2]);
    /// Every node's fill for what `view` (of `side`) shows now: its box's colour, plain where
    /// unchanged (so that the lens's colours never show: green parameters would read as added).
    std::map<int, QColor> fillsFor(int side, const GraphView& view, const QPalette& palette) const;

private:
    struct ModuleFlags {
        int total = 0;
        int only = 0;
        int differ = 0;  ///< changed or only here
    };
    std::vector<Status> m_status[2];
    std::map<std::string, std::string> m_renames[2];  ///< per side: its module paths -> the other's
    const graph::ModuleTree* m_trees[2] = {nullptr, nullptr};
    std::vector<ModuleFlags> m_modules[2];  ///< per ModuleTree module, over the nodes in and below it
    std::vector<int> m_counterpart[2];      ///< per module, the other side's module of that path, or -1
};

}  // namespace ps::ui
