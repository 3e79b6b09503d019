#include "graph/CoordinateAssignment.h"

#include "graph/LayeredLayout.h"
#include "graph/LayoutPlan.h"

#include <utility>

namespace ps::graph {

namespace {

// Neighbours in compressed rows: for item v, to[start[v] .. start[v + 1]).
struct Adjacency {
    std::vector<int> start, to;
    Adjacency(int items, const std::vector<std::pair<int, int>>& edges, bool below)
        : start(static_cast<std::size_t>(items) + 1, 0), to(edges.size())
    {
        for (const auto& e : edges)
            ++start[static_cast<std::size_t>(below ? e.first : e.second) + 1];
        for (int i = 0; i < items; ++i)
            start[static_cast<std::size_t>(i) + 1] += start[static_cast<std::size_t>(i)];
        std::vector<int> fill(start.begin(), start.end() - 1);
        for (const auto& e : edges)
            to[static_cast<std::size_t>(fill[static_cast<std::size_t>(below ? e.first : e.second)]++)]
                = below ? e.second : e.first;
    }
};

}  // namespace

// Substitute y_i = desired_i - offset_i, find the best non-decreasing z by pooling adjacent
// violators, then x_i = z_i + offset_i.
void CoordinateAssignment::packLayer(std::vector<double>& x, const std::vector<double>& desired,
    const std::vector<double>& offset, const std::vector<double>& weight)
{
    const std::size_t k = desired.size();
    struct Block {
        double sum;
        double weight;
        std::size_t count;
        double mean() const { return sum / weight; }
    };
    std::vector<Block> blocks;
    blocks.reserve(k);
    for (std::size_t i = 0; i < k; ++i) {
        blocks.push_back({(desired[i] - offset[i]) * weight[i], weight[i], 1});
        while (blocks.size() > 1 && blocks[blocks.size() - 2].mean() > blocks.back().mean()) {
            Block last = blocks.back();
            blocks.pop_back();
            blocks.back().sum += last.sum;
            blocks.back().weight += last.weight;
            blocks.back().count += last.count;
        }
    }
    x.resize(k);
    std::size_t i = 0;
    for (const auto& b : blocks)
        for (std::size_t c = 0; c < b.count; ++c, ++i)
            x[i] = b.mean() + offset[i];
}

std::vector<double> CoordinateAssignment::centres(const LayoutPlan& plan, int boxes, const LayoutOptions& options)
{
    const int n = boxes;
    const int total = plan.total;
    const auto& width = plan.width;
    const auto& layers = plan.layers;
    const int layerCount = plan.layerCount;
    const Adjacency up(total, plan.edges, false), down(total, plan.edges, true);
    auto gap = [&](int a, int b) { return a < n && b < n ? options.nodeGap : options.edgeGap; };
    std::vector<double> x(static_cast<std::size_t>(total), 0.0);
    std::vector<double> desired, packed, offset, weight;
    for (const auto& l : layers) {
        offset.assign(l.size(), 0.0);
        for (std::size_t i = 1; i < l.size(); ++i)
            offset[i] = offset[i - 1] + (width[l[i - 1]] + width[l[i]]) / 2 + gap(l[i - 1], l[i]);
        for (std::size_t i = 0; i < l.size(); ++i)
            x[l[i]] = offset[i] - offset.back() / 2;
    }
    for (int pass = 0; pass < kPasses; ++pass) {
        const bool goingDown = pass % 2 == 0;
        const Adjacency& from = goingDown ? up : down;
        for (int step = 0; step < layerCount; ++step) {
            const auto& l = layers[goingDown ? step : layerCount - 1 - step];
            desired.assign(l.size(), 0.0);
            offset.assign(l.size(), 0.0);
            weight.assign(l.size(), 1.0);
            for (std::size_t i = 0; i < l.size(); ++i) {
                if (l[i] < n)
                    weight[i] = kBoxWeight;
                if (i > 0)
                    offset[i] = offset[i - 1] + (width[l[i - 1]] + width[l[i]]) / 2 + gap(l[i - 1], l[i]);
                const int b = from.start[l[i]], e = from.start[l[i] + 1];
                if (b == e) {
                    desired[i] = x[l[i]];
                    continue;
                }
                double s = 0;
                for (int k = b; k < e; ++k)
                    s += x[from.to[k]];
                desired[i] = s / (e - b);
            }
            packLayer(packed, desired, offset, weight);
            for (std::size_t i = 0; i < l.size(); ++i)
                x[l[i]] = packed[i];
        }
    }
    return x;
}

}  // namespace ps::graph
