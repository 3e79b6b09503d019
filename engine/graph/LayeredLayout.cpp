#include "graph/LayeredLayout.h"

#include "graph/GraphModel.h"

#include <algorithm>
#include <cstdint>
#include <cstdio>
#include <cstring>
#include <limits>
#include <queue>

namespace ps::graph {

namespace {

// Centres x_i nearest to desired_i (least squares) with x_i - x_{i-1} >= sep_i: substitute
// y_i = desired_i - offset_i (offset_i = sep_1 + ... + sep_i), find the best non-decreasing z
// by pooling adjacent violators, then x_i = z_i + offset_i.
void packLayer(std::vector<double>& x, const std::vector<double>& desired, const std::vector<double>& offset)
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
        blocks.push_back({desired[i] - offset[i], 1});
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
            x[i] = b.mean() + offset[i];
}

// A topological order preferring graph order; when every remaining item waits on another (a
// cycle), the earliest one goes next and its unmet inputs become back edges.
std::vector<int> topologicalOrder(
    const std::vector<std::vector<int>>& inputs, const std::vector<std::vector<int>>& users)
{
    const int n = static_cast<int>(inputs.size());
    std::vector<int> waiting(n), order;
    std::vector<char> done(n, 0);
    order.reserve(n);
    std::priority_queue<int, std::vector<int>, std::greater<>> ready;
    for (int v = 0; v < n; ++v) {
        waiting[v] = static_cast<int>(inputs[v].size());
        if (waiting[v] == 0)
            ready.push(v);
    }
    int scan = 0;
    while (static_cast<int>(order.size()) < n) {
        int v;
        if (!ready.empty()) {
            v = ready.top();
            ready.pop();
            if (done[v])
                continue;
        } else {
            while (done[scan])
                ++scan;
            v = scan;
        }
        done[v] = 1;
        order.push_back(v);
        for (int w : users[v])
            if (--waiting[w] == 0 && !done[w])
                ready.push(w);
    }
    return order;
}

}  // namespace

LayoutResult LayeredLayout::compute(const LayoutInput& input, const LayoutOptions& options)
{
    const int n = static_cast<int>(input.inputs.size());
    LayoutResult result;
    result.boxes.resize(static_cast<std::size_t>(n));
    if (n == 0)
        return result;
    const auto& inputs = input.inputs;
    std::vector<std::vector<int>> users(n);
    for (int v = 0; v < n; ++v)
        for (int u : inputs[v])
            users[u].push_back(v);
    std::vector<double> width(n, options.nodeWidth);
    if (input.widths.size() == static_cast<std::size_t>(n))
        width = input.widths;

    const std::vector<int> order = topologicalOrder(inputs, users);
    std::vector<int> rank(n);
    for (int i = 0; i < n; ++i)
        rank[order[i]] = i;
    auto forward = [&](int u, int v) { return rank[u] < rank[v]; };

    // Layers: longest path from the sources, then sources moved down next to their first user
    // (parameters would otherwise crowd layer 0 with edges across the whole graph).
    std::vector<int> layer(n, 0);
    for (int v : order) {
        for (int u : inputs[v])
            if (forward(u, v))
                layer[v] = std::max(layer[v], layer[u] + 1);
        // A back edge (v feeds an item earlier in the order) is laid out reversed: v goes
        // below that item, so the edge still spans a layer and points up.
        for (int w : users[v])
            if (!forward(v, w))
                layer[v] = std::max(layer[v], layer[w] + 1);
    }
    for (int v = 0; v < n; ++v) {
        if (!inputs[v].empty() || users[v].empty())
            continue;
        int first = std::numeric_limits<int>::max();
        for (int w : users[v])
            first = std::min(first, layer[w]);
        layer[v] = std::max(0, first - 1);
    }
    const int layerCount = *std::max_element(layer.begin(), layer.end()) + 1;
    std::vector<std::vector<int>> layers(layerCount);
    for (int v : order)
        layers[layer[v]].push_back(v);

    // Ordering: barycenter sweeps down (by inputs) and up (by users).
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
            const auto& nb = byInputs ? inputs[v] : users[v];
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

    // Coordinates (centres): each item wants the mean x of its neighbours; pack each layer
    // around that, keeping neighbours in a layer at least half their widths plus a gap apart.
    std::vector<double> x(n, 0.0);
    double maxWidth = 0;
    for (double w : width)
        maxWidth = std::max(maxWidth, w);
    for (int v = 0; v < n; ++v)
        x[v] = pos[v] * (maxWidth + options.nodeGap);
    std::vector<double> desired, packed, offset;
    for (int pass = 0; pass < 3; ++pass) {
        const bool down = pass % 2 == 0;
        for (int step = 0; step < layerCount; ++step) {
            const auto& l = layers[down ? step : layerCount - 1 - step];
            desired.assign(l.size(), 0.0);
            offset.assign(l.size(), 0.0);
            for (std::size_t i = 0; i < l.size(); ++i) {
                if (i > 0)
                    offset[i] = offset[i - 1] + (width[l[i - 1]] + width[l[i]]) / 2 + options.nodeGap;
                const auto& nb = down ? inputs[l[i]] : users[l[i]];
                if (nb.empty()) {
                    desired[i] = x[l[i]];
                    continue;
                }
                double s = 0;
                for (int u : nb)
                    s += x[u];
                desired[i] = s / static_cast<double>(nb.size());
            }
            packLayer(packed, desired, offset);
            for (std::size_t i = 0; i < l.size(); ++i)
                x[l[i]] = packed[i];
        }
    }

    double minX = std::numeric_limits<double>::max(), maxX = std::numeric_limits<double>::lowest();
    for (int v = 0; v < n; ++v) {
        minX = std::min(minX, x[v] - width[v] / 2);
        maxX = std::max(maxX, x[v] + width[v] / 2);
    }
    const double pitch = options.nodeHeight + options.layerGap;
    for (int v = 0; v < n; ++v) {
        auto& box = result.boxes[static_cast<std::size_t>(v)];
        box.layer = layer[v];
        box.w = width[v];
        box.h = options.nodeHeight;
        box.x = x[v] - width[v] / 2 - minX;
        box.y = layer[v] * pitch;
    }
    result.layerCount = layerCount;
    result.width = maxX - minX;
    result.height = layerCount * pitch - options.layerGap;
    return result;
}

LayoutResult LayeredLayout::compute(const GraphModel& graph, const LayoutOptions& options)
{
    LayoutInput input;
    input.inputs.reserve(graph.nodes().size());
    for (const auto& n : graph.nodes())
        input.inputs.push_back(n.inputs);
    return compute(input, options);
}

namespace {
constexpr char kMagic[8] = {'P', 'S', 'L', 'A', 'Y', 'O', 'U', '1'};
}

std::string LayeredLayout::inputKey(const LayoutInput& input, const LayoutOptions& options)
{
    std::uint64_t h = 1469598103934665603ull;  // FNV-1a over the bytes of every number
    auto mix = [&h](const auto& value) {
        unsigned char bytes[sizeof value];
        std::memcpy(bytes, &value, sizeof value);
        for (unsigned char c : bytes)
            h = (h ^ c) * 1099511628211ull;
    };
    mix(options.nodeWidth);
    mix(options.nodeHeight);
    mix(options.layerGap);
    mix(options.nodeGap);
    mix(options.sweeps);
    mix(input.inputs.size());
    for (const auto& list : input.inputs) {
        mix(list.size());
        for (int u : list)
            mix(u);
    }
    mix(input.widths.size());
    for (double w : input.widths)
        mix(w);
    char out[17];
    std::snprintf(out, sizeof out, "%016llx", static_cast<unsigned long long>(h));
    return out;
}

std::string LayeredLayout::encode(const LayoutResult& layout)
{
    // Host byte order: a cache lives beside the library file on the machine that wrote it.
    std::string out(kMagic, sizeof kMagic);
    auto put = [&out](const void* p, std::size_t size) { out.append(static_cast<const char*>(p), size); };
    const std::uint64_t count = layout.boxes.size();
    const std::int32_t layers = layout.layerCount;
    put(&count, sizeof count);
    put(&layers, sizeof layers);
    put(&layout.width, sizeof(double));
    put(&layout.height, sizeof(double));
    for (const auto& b : layout.boxes) {
        const double v[4] = {b.x, b.y, b.w, b.h};
        const std::int32_t l = b.layer;
        put(v, sizeof v);
        put(&l, sizeof l);
    }
    return out;
}

std::optional<LayoutResult> LayeredLayout::decode(std::string_view bytes, std::size_t items)
{
    constexpr std::size_t head = sizeof kMagic + 8 + 4 + 16, per = 4 * sizeof(double) + 4;
    if (bytes.size() != head + items * per || std::memcmp(bytes.data(), kMagic, sizeof kMagic) != 0)
        return std::nullopt;
    const char* p = bytes.data() + sizeof kMagic;
    auto get = [&p](void* dst, std::size_t size) {
        std::memcpy(dst, p, size);
        p += size;
    };
    std::uint64_t count = 0;
    std::int32_t layers = 0;
    LayoutResult r;
    get(&count, sizeof count);
    if (count != items)
        return std::nullopt;
    get(&layers, sizeof layers);
    get(&r.width, sizeof(double));
    get(&r.height, sizeof(double));
    r.layerCount = layers;
    r.boxes.resize(items);
    for (auto& b : r.boxes) {
        double v[4];
        std::int32_t l = 0;
        get(v, sizeof v);
        get(&l, sizeof l);
        b = {v[0], v[1], v[2], v[3], l};
        if (l < 0 || l >= layers)
            return std::nullopt;
    }
    return r;
}

}  // namespace ps::graph
