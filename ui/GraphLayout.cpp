#include "ui/GraphLayout.h"

#include "ui/GraphModel.h"

#include <algorithm>
#include <limits>
#include <numeric>

namespace ps::ui {

namespace {

// Positions x_i nearest to desired_i (least squares) with x_{i+1} - x_i >= unit: substitute
// y_i = desired_i - i * unit, find the best non-decreasing z by pooling adjacent violators,
// then x_i = z_i + i * unit.
void packLayer(std::vector<double>& x, const std::vector<double>& desired, double unit)
{
    const std::size_t k = desired.size();
    struct Block {
        double sum;
        std::size_t count;
        double mean() const { return sum / static_cast<double>(count); }
    };
    std::vector<Block> blocks;
    blocks.reserve(k);
    for (std::size_t i = 0; i < k; ++i) {
        blocks.push_back({desired[i] - static_cast<double>(i) * unit, 1});
        while (blocks.size() > 1 && blocks[blocks.size() - 2].mean() > blocks.back().mean()) {
            Block last = blocks.back();
            blocks.pop_back();
            blocks.back().sum += last.sum;
            blocks.back().count += last.count;
        }
    }
    x.resize(k);
    std::size_t i = 0;
    for (const auto& b : blocks)
        for (std::size_t c = 0; c < b.count; ++c, ++i)
            x[i] = b.mean() + static_cast<double>(i) * unit;
}

} // namespace

GraphLayoutResult GraphLayout::compute(const GraphModel& graph, const LayoutOptions& options)
{
    const auto& nodes = graph.nodes();
    const int n = static_cast<int>(nodes.size());
    GraphLayoutResult result;
    result.nodeWidth = options.nodeWidth;
    result.nodeHeight = options.nodeHeight;
    result.boxes.resize(nodes.size());
    if (n == 0)
        return result;

    // Topological order (Kahn); FX lists nodes in order already, but a report is input.
    std::vector<int> indegree(n, 0), order;
    order.reserve(n);
    for (int v = 0; v < n; ++v)
        indegree[v] = static_cast<int>(nodes[v].inputs.size());
    for (int v = 0; v < n; ++v)
        if (indegree[v] == 0)
            order.push_back(v);
    for (std::size_t head = 0; head < order.size(); ++head)
        for (int w : nodes[order[head]].users)
            if (--indegree[w] == 0)
                order.push_back(w);
    std::vector<int> rank(n, -1);
    for (int i = 0; i < static_cast<int>(order.size()); ++i)
        rank[order[i]] = i;
    for (int v = 0; v < n; ++v)  // nodes on a cycle: after the rest, edges to later ones ignored
        if (rank[v] < 0) {
            rank[v] = static_cast<int>(order.size());
            order.push_back(v);
        }

    // Layers: longest path from the sources, then sources moved down next to their first user
    // (parameters would otherwise crowd layer 0 with edges across the whole graph).
    std::vector<int> layer(n, 0);
    for (int v : order)
        for (int u : nodes[v].inputs)
            if (rank[u] < rank[v])
                layer[v] = std::max(layer[v], layer[u] + 1);
    for (int v = 0; v < n; ++v) {
        if (!nodes[v].inputs.empty() || nodes[v].users.empty())
            continue;
        int first = std::numeric_limits<int>::max();
        for (int w : nodes[v].users)
            first = std::min(first, layer[w]);
        layer[v] = std::max(0, first - 1);
    }
    const int layerCount = *std::max_element(layer.begin(), layer.end()) + 1;
    std::vector<std::vector<int>> layers(layerCount);
    for (int v : order)
        layers[layer[v]].push_back(v);

    // Ordering: barycenter sweeps down (by inputs) and up (by users).
    const double unit = options.nodeWidth + options.nodeGap;
    std::vector<double> pos(n, 0.0);
    auto place = [&](const std::vector<int>& l) {
        const double mid = (static_cast<double>(l.size()) - 1) / 2;
        for (std::size_t i = 0; i < l.size(); ++i)
            pos[l[i]] = static_cast<double>(i) - mid;
    };
    for (const auto& l : layers)
        place(l);
    std::vector<double> key(n, 0.0);
    auto sortBy = [&](std::vector<int>& l, bool byInputs) {
        if (l.size() < 2)
            return;
        for (int v : l) {
            const auto& nb = byInputs ? nodes[v].inputs : nodes[v].users;
            if (nb.empty()) {
                key[v] = pos[v];
                continue;
            }
            double s = 0;
            for (int u : nb)
                s += pos[u];
            key[v] = s / static_cast<double>(nb.size());
        }
        std::stable_sort(l.begin(), l.end(), [&](int a, int b) { return key[a] < key[b]; });
        place(l);
    };
    for (int s = 0; s < options.sweeps; ++s) {
        for (int L = 1; L < layerCount; ++L)
            sortBy(layers[L], true);
        for (int L = layerCount - 2; L >= 0; --L)
            sortBy(layers[L], false);
    }

    // Coordinates: each node wants the mean x of its neighbours; pack each layer around that.
    std::vector<double> x(n, 0.0);
    for (int v = 0; v < n; ++v)
        x[v] = pos[v] * unit;
    std::vector<double> desired, packed;
    for (int pass = 0; pass < 3; ++pass) {
        const bool down = pass % 2 == 0;
        for (int step = 0; step < layerCount; ++step) {
            const auto& l = layers[down ? step : layerCount - 1 - step];
            desired.assign(l.size(), 0.0);
            for (std::size_t i = 0; i < l.size(); ++i) {
                const auto& nb = down ? nodes[l[i]].inputs : nodes[l[i]].users;
                if (nb.empty()) {
                    desired[i] = x[l[i]];
                    continue;
                }
                double s = 0;
                for (int u : nb)
                    s += x[u];
                desired[i] = s / static_cast<double>(nb.size());
            }
            packLayer(packed, desired, unit);
            for (std::size_t i = 0; i < l.size(); ++i)
                x[l[i]] = packed[i];
        }
    }

    const double minX = *std::min_element(x.begin(), x.end());
    double maxX = minX;
    for (int v = 0; v < n; ++v) {
        auto& box = result.boxes[v];
        box.layer = layer[v];
        box.x = x[v] - minX;
        box.y = layer[v] * (options.nodeHeight + options.layerGap);
        maxX = std::max(maxX, x[v]);
    }
    result.layerCount = layerCount;
    result.width = maxX - minX + options.nodeWidth;
    result.height = layerCount * (options.nodeHeight + options.layerGap) - options.layerGap;
    return result;
}

} // namespace ps::ui
