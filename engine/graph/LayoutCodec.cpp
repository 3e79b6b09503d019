#include "graph/LayoutCodec.h"

#include <cmath>
#include <cstdint>
#include <cstdio>
#include <cstring>

namespace ps::graph {

namespace {
// Version 2: routes after the boxes. Version 1's bytes (no routes) are refused: a miss.
constexpr char kMagic[8] = {'P', 'S', 'L', 'A', 'Y', 'O', 'U', '2'};
}  // namespace

std::string LayoutCodec::inputKey(const LayoutInput& input, const LayoutOptions& options)
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
    mix(options.edgeGap);
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
    mix(input.bands.size());
    for (int b : input.bands)
        mix(b);
    char out[17];
    std::snprintf(out, sizeof out, "%016llx", static_cast<unsigned long long>(h));
    return out;
}

std::string LayoutCodec::encode(const LayoutResult& layout)
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
    const std::uint64_t routes = layout.routes.size();
    put(&routes, sizeof routes);
    for (const auto& r : layout.routes) {
        const std::int32_t ends[2] = {r.from, r.to};
        const std::uint32_t points = static_cast<std::uint32_t>(r.points.size());
        put(ends, sizeof ends);
        put(&points, sizeof points);
        for (const auto& p : r.points) {
            const double xy[2] = {p.x, p.y};
            put(xy, sizeof xy);
        }
    }
    return out;
}

std::optional<LayoutResult> LayoutCodec::decode(std::string_view bytes, std::size_t items)
{
    // Every read is checked against what is left, so no length or count in the bytes can make
    // it read past them or reserve more than they could hold.
    std::size_t at = 0;
    auto get = [&](void* dst, std::size_t size) {
        if (bytes.size() - at < size)
            return false;
        std::memcpy(dst, bytes.data() + at, size);
        at += size;
        return true;
    };
    auto left = [&] { return bytes.size() - at; };
    char magic[sizeof kMagic];
    std::uint64_t count = 0;
    std::int32_t layers = 0;
    LayoutResult r;
    if (!get(magic, sizeof magic) || std::memcmp(magic, kMagic, sizeof kMagic) != 0 || !get(&count, sizeof count)
        || count != items || !get(&layers, sizeof layers) || layers < 0 || !get(&r.width, sizeof(double))
        || !get(&r.height, sizeof(double)))
        return std::nullopt;
    constexpr std::size_t perBox = 4 * sizeof(double) + 4;
    if (left() / perBox < items)
        return std::nullopt;
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
    std::uint64_t routes = 0;
    constexpr std::size_t perRoute = 2 * 4 + 4, perPoint = 2 * sizeof(double);
    if (!get(&routes, sizeof routes) || routes > left() / perRoute)
        return std::nullopt;
    r.routes.resize(static_cast<std::size_t>(routes));
    for (auto& route : r.routes) {
        std::int32_t ends[2];
        std::uint32_t points = 0;
        if (!get(ends, sizeof ends) || !get(&points, sizeof points) || points > left() / perPoint)
            return std::nullopt;
        if (ends[0] < 0 || ends[1] < 0 || static_cast<std::size_t>(ends[0]) >= items
            || static_cast<std::size_t>(ends[1]) >= items || points < 2)
            return std::nullopt;
        route.from = ends[0];
        route.to = ends[1];
        route.points.resize(points);
        for (auto& p : route.points) {
            double xy[2];
            get(xy, sizeof xy);
            if (!std::isfinite(xy[0]) || !std::isfinite(xy[1]))
                return std::nullopt;
            p = {xy[0], xy[1]};
        }
    }
    if (at != bytes.size())
        return std::nullopt;
    return r;
}

}  // namespace ps::graph
