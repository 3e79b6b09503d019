#pragma once

// The fourth phase of LayeredLayout: a side lane for each chain past the virtual-item cap
// (LayoutPlan::laned), a vertical run left or right of every layer. Each laned chain goes on
// the side nearer its ends (left when the mean x of its ends is left of `middle`), chains
// taken by the layer of their upper end; a lane is reused once the chain before it has ended
// (its lower end's layer at or above this one's upper end), else the next lane out, at most
// kMaxLanes per side; past that a chain shares the lane that ends first. O(laned * lanes).
//
// Plain data, no Qt, no state: any thread. Never throws on a plan LayoutPlan made and its
// centres.

#include <array>
#include <vector>

namespace ps::graph {

struct LayoutPlan;

class SideLanes {
public:
    /// Sets `lane` and `left` on each of plan.laned's chains (and sorts plan.laned by the layer
    /// of their upper ends, stable); `x`: per item its centre. Returns the lanes used on the
    /// left and on the right.
    static std::array<int, 2> assign(LayoutPlan& plan, const std::vector<double>& x, double middle);

    static constexpr int kMaxLanes = 24;
};

}  // namespace ps::graph
