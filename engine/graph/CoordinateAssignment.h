#pragma once

// The third phase of LayeredLayout: the x of every item's centre (virtual items included) in
// an ordered LayoutPlan. Each layer starts packed around 0; then four passes, alternately down
// and up, each layer in turn: every item wants the mean x of its neighbours in the layer just
// placed (an item with none keeps its x), and the layer takes the positions nearest those
// (least squares, a box weighing kBoxWeight times a virtual item, so edges make way for boxes)
// that keep its order and each pair of neighbours half their widths plus a gap apart
// (nodeGap between two boxes, edgeGap where a virtual item is one of them). O(passes * (items
// + edges)).
//
// Plain data, no Qt, no state: any thread. Never throws on a plan LayoutPlan made.

#include <vector>

namespace ps::graph {

struct LayoutOptions;
struct LayoutPlan;

class CoordinateAssignment {
public:
    /// Per item of `plan` (ids below `boxes` are boxes, the rest virtual) its centre's x.
    static std::vector<double> centres(const LayoutPlan& plan, int boxes, const LayoutOptions& options);

    /// Centres x_i nearest to desired_i (least squares, weight w_i > 0) with
    /// x_i - x_{i-1} >= offset_i - offset_{i-1} (offset non-decreasing, offset_0 = 0): isotonic
    /// regression by pooling adjacent violators. O(k).
    static void packLayer(std::vector<double>& x, const std::vector<double>& desired, const std::vector<double>& offset,
        const std::vector<double>& weight);

    static constexpr double kBoxWeight = 4;
    static constexpr int kPasses = 4;
};

}  // namespace ps::graph
