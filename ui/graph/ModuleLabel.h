#pragma once

#include "graph/ModuleTree.h"

#include <QString>

namespace ps::ui {

/// What a module is called on the canvas, one wording for its collapsed box (ModuleItem) and
/// for its region once expanded (ModuleRegionsItem): "model.0 · Linear", "layer1.0 (backward) ·
/// BasicBlock", "forward", "gradients (62)", "outside (backward, 3)". A numbered module is named
/// with its parent ("layer1.0", not "0": several layers would read the same at Fit), and a module
/// of a numbered one with both ("layer1.0.conv1").
class ModuleLabel {
public:
    /// A module of `role` and `phase` called `name`, of `type` ("" when unknown), holding
    /// `nodes` nodes (said for the gradient and outside bundles only).
    static QString title(
        graph::Module::Role role, graph::Phase phase, const QString& name, const QString& type, int nodes);
    /// Module `m`'s title in `tree`, named so that it reads alone in an overview: "3" says
    /// little beside 23 other blocks, nor "blocks" beside another stage's: "h.3 · Block" and
    /// "stages.0.blocks · ModuleList" do.
    static QString title(const graph::ModuleTree& tree, int m);
    /// The module at `path` (a ModuleTree path: "model.layer1.0", "backward:model.2"), named as
    /// the tree-aware title() names it, from the path alone (a collapsed box has no tree at
    /// hand): "layer1.0 · BasicBlock", "layer1.0.conv1 · Conv2d", "model.2 (backward) · Linear".
    static QString title(const QString& path, const QString& type, int nodes);
};

}  // namespace ps::ui
