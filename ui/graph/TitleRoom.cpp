#include "ui/graph/TitleRoom.h"

#include "ui/graph/GraphBoxItem.h"

#include <algorithm>
#include <numeric>

namespace ps::ui {

std::vector<double> TitleRoom::rightOf(const std::vector<graph::NodeBox>& boxes, double layoutWidth)
{
    const graph::LayoutOptions options;
    std::vector<std::size_t> order(boxes.size());
    std::iota(order.begin(), order.end(), std::size_t{0});
    std::sort(order.begin(), order.end(), [&](std::size_t a, std::size_t b) {
        return boxes[a].layer != boxes[b].layer ? boxes[a].layer < boxes[b].layer : boxes[a].x < boxes[b].x;
    });
    // The last box of a row: the canvas beyond the layout (a narrow chain fitted to a wide
    // canvas), four boxes' widths of it.
    const double beyond = layoutWidth + 4 * options.nodeWidth;
    std::vector<double> room(boxes.size(), 0);
    for (std::size_t k = 0; k < order.size(); ++k) {
        const auto& b = boxes[order[k]];
        const bool sameRow = k + 1 < order.size() && boxes[order[k + 1]].layer == b.layer;
        const double until = sameRow ? boxes[order[k + 1]].x : beyond;
        room[order[k]] = std::max(0.0, until - (b.x + b.w) - options.nodeGap / 2);
    }
    return room;
}

double TitleRoom::clearance(double boxHeight)
{
    return boxHeight + 0.8 * graph::LayoutOptions{}.layerGap;
}

bool TitleRoom::everyTitleReads(const std::vector<graph::NodeBox>& boxes, double layoutWidth, double zoom)
{
    const std::vector<double> room = rightOf(boxes, layoutWidth);
    for (std::size_t i = 0; i < boxes.size(); ++i) {
        const bool inside = boxes[i].h * zoom >= GraphBoxItem::kTitleBoxPx;
        const bool beside = room[i] * zoom >= GraphBoxItem::kBesideMinPx
            && clearance(boxes[i].h) * zoom >= GraphBoxItem::kTitlePx + 4;
        if (!inside && !beside)
            return false;
    }
    return true;
}

}  // namespace ps::ui
