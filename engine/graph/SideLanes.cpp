#include "graph/SideLanes.h"

#include "graph/LayoutPlan.h"

#include <algorithm>

namespace ps::graph {

std::array<int, 2> SideLanes::assign(LayoutPlan& plan, const std::vector<double>& x, double middle)
{
    const auto& layer = plan.layer;
    auto& chains = plan.chains;
    auto& laned = plan.laned;
    std::stable_sort(
        laned.begin(), laned.end(), [&](int a, int b) { return layer[chains[a].top] < layer[chains[b].top]; });
    std::vector<int> laneEnds[2];  // per side, per lane: the layer its last edge ends in
    for (int c : laned) {
        Chain& ch = chains[c];
        ch.left = x[ch.top] + x[ch.bottom] < 2 * middle;
        auto& ends = laneEnds[ch.left ? 0 : 1];
        int lane = -1;
        for (int k = 0; k < static_cast<int>(ends.size()) && lane < 0; ++k)
            if (ends[k] <= layer[ch.top])
                lane = k;
        if (lane < 0 && static_cast<int>(ends.size()) < kMaxLanes) {
            lane = static_cast<int>(ends.size());
            ends.push_back(0);
        }
        if (lane < 0)
            lane = static_cast<int>(std::min_element(ends.begin(), ends.end()) - ends.begin());
        ends[lane] = std::max(ends[lane], layer[ch.bottom]);
        ch.lane = lane;
    }
    return {static_cast<int>(laneEnds[0].size()), static_cast<int>(laneEnds[1].size())};
}

}  // namespace ps::graph
