#pragma once

#include "graph/LayeredLayout.h"

#include <vector>

namespace ps::ui {

/// Where a box's title can go when it does not fit in the box: the free room to the right of
/// each box of a layered layout, up to the next box of its layer, the last of a row having the canvas beyond the scene
/// too. Computed from the layout alone, so that the scene (GraphScene, drawing titles beside boxes) and the opening
/// (GraphSession, choosing a state whose titles read at Fit) agree.
class TitleRoom {
public:
    /// Scene units free to the right of each box, index-aligned with `boxes`.
    static std::vector<double> rightOf(const std::vector<graph::NodeBox>& boxes, double layoutWidth);
    /// The height free around a box's middle for a title beside it: its row's pitch.
    static double clearance(double boxHeight);
    /// Whether every box's title reads at `zoom`: in the box (tall enough on screen) or beside
    /// it (room enough on screen, with the thresholds of GraphBoxItem).
    static bool everyTitleReads(const std::vector<graph::NodeBox>& boxes, double layoutWidth, double zoom);
};

}  // namespace ps::ui
