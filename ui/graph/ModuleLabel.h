#pragma once

#include "graph/ModuleTree.h"

#include <QString>

namespace ps::ui {

/// What a module is called on the canvas, one wording for its collapsed box (ModuleItem) and
/// for its region once expanded (ModuleRegionsItem): "0 · Linear", "0 (backward) · Linear",
/// "forward", "gradients (62)", "outside (backward, 3)".
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
};

}  // namespace ps::ui
