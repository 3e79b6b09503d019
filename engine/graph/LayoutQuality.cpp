#include "graph/LayoutQuality.h"

#include <algorithm>
#include <cmath>
#include <cstddef>
#include <limits>
#include <unordered_set>

namespace ps::graph {

namespace {

struct Segment {
    double x0 = 0, y0 = 0, x1 = 0, y1 = 0;
    int edge = 0;
};

/// One key per ordered pair of ints.
std::int64_t pairKey(int a, int b)
{
    return (static_cast<std::int64_t>(a) << 32) | static_cast<std::uint32_t>(b);
}

/// Routes with a distinct (from, to), both ends in `boxes`, two points or more, not a loop.
std::vector<const EdgeRoute*> distinctRoutes(const std::vector<NodeBox>& boxes, const std::vector<EdgeRoute>& routes)
{
    std::vector<const EdgeRoute*> out;
    std::unordered_set<std::int64_t> seen;
    const auto n = static_cast<int>(boxes.size());
    for (const auto& r : routes) {
        if (r.from == r.to || r.from < 0 || r.to < 0 || r.from >= n || r.to >= n || r.points.size() < 2)
            continue;
        if (seen.insert(pairKey(r.from, r.to)).second)
            out.push_back(&r);
    }
    return out;
}

/// The sign of the turn p -> q -> r, 0 when the three are collinear within rounding.
int orientation(double px, double py, double qx, double qy, double rx, double ry, double* value)
{
    const double ux = qx - px, uy = qy - py, vx = rx - px, vy = ry - py;
    const double c = ux * vy - uy * vx;
    *value = c;
    const double scale = (std::abs(ux) + std::abs(uy)) * (std::abs(vx) + std::abs(vy));
    if (std::abs(c) <= 1e-12 * scale)
        return 0;
    return c > 0 ? 1 : -1;
}

/// True when a and b cross at one point inside both (not at an end, not collinear); the point.
bool properCross(const Segment& a, const Segment& b, double* ix, double* iy)
{
    double d1 = 0, d2 = 0, d3 = 0, d4 = 0;
    const int o1 = orientation(a.x0, a.y0, a.x1, a.y1, b.x0, b.y0, &d1);
    const int o2 = orientation(a.x0, a.y0, a.x1, a.y1, b.x1, b.y1, &d2);
    if (o1 == 0 || o2 == 0 || o1 == o2)
        return false;
    const int o3 = orientation(b.x0, b.y0, b.x1, b.y1, a.x0, a.y0, &d3);
    const int o4 = orientation(b.x0, b.y0, b.x1, b.y1, a.x1, a.y1, &d4);
    if (o3 == 0 || o4 == 0 || o3 == o4)
        return false;
    const double t = d3 / (d3 - d4);
    *ix = a.x0 + t * (a.x1 - a.x0);
    *iy = a.y0 + t * (a.y1 - a.y0);
    return true;
}

/// True when the segment passes through the open rectangle (l, r) x (t, b).
bool throughInside(const Segment& s, double l, double t, double r, double b)
{
    if (l >= r || t >= b)
        return false;
    const double dx = s.x1 - s.x0, dy = s.y1 - s.y0;
    if (dx == 0 && (s.x0 <= l || s.x0 >= r))
        return false;
    if (dy == 0 && (s.y0 <= t || s.y0 >= b))
        return false;
    double t0 = 0, t1 = 1;
    // Liang-Barsky against the closed rectangle; a positive-length piece of a segment that is not
    // along a side (ruled out above) has points inside the open one.
    auto clip = [&](double p, double q) {
        if (p == 0)
            return q >= 0;
        const double u = q / p;
        if (p < 0)
            t0 = std::max(t0, u);
        else
            t1 = std::min(t1, u);
        return t0 <= t1;
    };
    if (!clip(-dx, s.x0 - l) || !clip(dx, r - s.x0) || !clip(-dy, s.y0 - t) || !clip(dy, b - s.y0))
        return false;
    return t1 - t0 > 1e-9;
}

/// A uniform grid over the drawing; cells hold indices (compressed rows: offsets, then items).
class Grid {
public:
    Grid(double minX, double minY, double maxX, double maxY, std::size_t segments) : m_minX(minX), m_minY(minY)
    {
        const double w = std::max(1.0, maxX - minX), h = std::max(1.0, maxY - minY);
        // About one segment per cell, never cells under 16 px nor more than 4M of them.
        m_cell = std::sqrt(w * h / static_cast<double>(std::max<std::size_t>(1, segments)));
        m_cell = std::max({m_cell, 16.0, std::sqrt(w * h / 4e6)});
        m_cols = static_cast<int>(w / m_cell) + 1;
        m_rows = static_cast<int>(h / m_cell) + 1;
    }
    std::size_t cells() const { return static_cast<std::size_t>(m_cols) * static_cast<std::size_t>(m_rows); }

    /// Every cell the segment touches (a few more at cell borders, never fewer).
    template <typename Fn> void forEachCell(double x0, double y0, double x1, double y1, const Fn& fn) const
    {
        if (x0 > x1) {
            std::swap(x0, x1);
            std::swap(y0, y1);
        }
        const double eps = 1e-6 * m_cell;
        const int c0 = col(x0 - eps), c1 = col(x1 + eps);
        for (int c = c0; c <= c1; ++c) {
            double ya = y0, yb = y1;
            if (x1 - x0 > 0) {
                const double xa = std::clamp(m_minX + c * m_cell, x0, x1);
                const double xb = std::clamp(m_minX + (c + 1) * m_cell, x0, x1);
                ya = y0 + (y1 - y0) * (xa - x0) / (x1 - x0);
                yb = y0 + (y1 - y0) * (xb - x0) / (x1 - x0);
            }
            const int r0 = row(std::min(ya, yb) - eps), r1 = row(std::max(ya, yb) + eps);
            for (int r = r0; r <= r1; ++r)
                fn(static_cast<std::size_t>(r) * static_cast<std::size_t>(m_cols) + static_cast<std::size_t>(c));
        }
    }
    template <typename Fn> void forEachCellOfBox(double l, double t, double r, double b, const Fn& fn) const
    {
        for (int rr = row(t); rr <= row(b); ++rr)
            for (int c = col(l); c <= col(r); ++c)
                fn(static_cast<std::size_t>(rr) * static_cast<std::size_t>(m_cols) + static_cast<std::size_t>(c));
    }

private:
    int col(double x) const { return std::clamp(static_cast<int>(std::floor((x - m_minX) / m_cell)), 0, m_cols - 1); }
    int row(double y) const { return std::clamp(static_cast<int>(std::floor((y - m_minY) / m_cell)), 0, m_rows - 1); }

    double m_minX = 0, m_minY = 0, m_cell = 1;
    int m_cols = 1, m_rows = 1;
};

/// Cell -> the indices put in it, filled in two passes (count, then place).
struct Buckets {
    std::vector<std::size_t> offsets;
    std::vector<int> items;
    std::pair<const int*, const int*> at(std::size_t cell) const
    {
        return {items.data() + offsets[cell], items.data() + offsets[cell + 1]};
    }
};

/// `cellsOf(i, visit)` calls visit(cell) for each cell item i is in.
template <typename CellsOf> Buckets bucket(std::size_t cells, int count, const CellsOf& cellsOf)
{
    Buckets b;
    b.offsets.assign(cells + 1, 0);
    for (int i = 0; i < count; ++i)
        cellsOf(i, [&](std::size_t cell) { ++b.offsets[cell + 1]; });
    for (std::size_t c = 0; c < cells; ++c)
        b.offsets[c + 1] += b.offsets[c];
    b.items.resize(b.offsets[cells]);
    std::vector<std::size_t> fill(b.offsets.begin(), b.offsets.end() - 1);
    for (int i = 0; i < count; ++i)
        cellsOf(i, [&](std::size_t cell) { b.items[fill[cell]++] = i; });
    return b;
}

}  // namespace

std::vector<EdgeRoute> LayoutQuality::routesOf(const LayoutInput& input, const LayoutResult& layout)
{
    std::vector<EdgeRoute> all;
    if (!layout.routes.empty()) {
        all = layout.routes;
    } else {
        const auto n = layout.boxes.size();
        for (std::size_t to = 0; to < input.inputs.size() && to < n; ++to) {
            for (int from : input.inputs[to]) {
                if (from < 0 || static_cast<std::size_t>(from) >= n)
                    continue;
                const auto& a = layout.boxes[static_cast<std::size_t>(from)];
                const auto& b = layout.boxes[to];
                all.push_back({from, static_cast<int>(to), {{a.x + a.w / 2, a.y + a.h}, {b.x + b.w / 2, b.y}}});
            }
        }
    }
    std::vector<EdgeRoute> out;
    for (const auto* r : distinctRoutes(layout.boxes, all))
        out.push_back(*r);
    return out;
}

LayoutQualityFigures LayoutQuality::measure(const LayoutInput& input, const LayoutResult& layout)
{
    return measure(layout.boxes, routesOf(input, layout));
}

LayoutQualityFigures LayoutQuality::measure(const std::vector<NodeBox>& boxes, const std::vector<EdgeRoute>& routes)
{
    LayoutQualityFigures f;
    const auto edges = distinctRoutes(boxes, routes);
    f.edges = static_cast<int>(edges.size());

    std::vector<Segment> segments;
    double minX = std::numeric_limits<double>::max(), minY = minX;
    double maxX = std::numeric_limits<double>::lowest(), maxY = maxX;
    auto extend = [&](double x, double y) {
        minX = std::min(minX, x);
        minY = std::min(minY, y);
        maxX = std::max(maxX, x);
        maxY = std::max(maxY, y);
    };
    for (const auto& b : boxes) {
        extend(b.x, b.y);
        extend(b.x + b.w, b.y + b.h);
    }
    for (std::size_t e = 0; e < edges.size(); ++e) {
        const auto& pts = edges[e]->points;
        for (std::size_t k = 0; k + 1 < pts.size(); ++k) {
            const Segment s{pts[k].x, pts[k].y, pts[k + 1].x, pts[k + 1].y, static_cast<int>(e)};
            extend(s.x0, s.y0);
            extend(s.x1, s.y1);
            f.edgeLength += std::hypot(s.x1 - s.x0, s.y1 - s.y0);
            if (s.x0 != s.x1 || s.y0 != s.y1)
                segments.push_back(s);
        }
    }
    if (segments.empty())
        return f;

    const Grid grid(minX, minY, maxX, maxY, segments.size());
    const auto segCells = bucket(grid.cells(), static_cast<int>(segments.size()), [&](int i, const auto& fn) {
        const auto& s = segments[static_cast<std::size_t>(i)];
        grid.forEachCell(s.x0, s.y0, s.x1, s.y1, fn);
    });

    // Crossings: per edge, the later edges one of its segments crosses in a cell they share,
    // each counted once (memory stays O(segments + cells), however many crossings there are).
    // Edges of one item go apart: those crossing near it are not counted at all.
    auto nearSharedEnd = [&](const EdgeRoute& a, const EdgeRoute& b, double x, double y) {
        for (int item : {a.from, a.to}) {
            if (item != b.from && item != b.to)
                continue;
            const auto& box = boxes[static_cast<std::size_t>(item)];
            if (x >= box.x - kSharedEndMargin && x <= box.x + box.w + kSharedEndMargin && y >= box.y - kSharedEndMargin
                && y <= box.y + box.h + kSharedEndMargin)
                return true;
        }
        return false;
    };
    auto adjacent = [](const EdgeRoute& a, const EdgeRoute& b) {
        return a.from == b.from || a.from == b.to || a.to == b.from || a.to == b.to;
    };
    std::vector<int> crossed, crossedAdjacent;
    auto countDistinct = [](std::vector<int>& v) {
        std::sort(v.begin(), v.end());
        return std::unique(v.begin(), v.end()) - v.begin();
    };
    for (std::size_t first = 0; first < segments.size();) {
        const int edge = segments[first].edge;
        const auto& route = *edges[static_cast<std::size_t>(edge)];
        std::size_t last = first;
        while (last < segments.size() && segments[last].edge == edge)
            ++last;
        crossed.clear();
        crossedAdjacent.clear();
        for (std::size_t i = first; i < last; ++i) {
            const auto& a = segments[i];
            grid.forEachCell(a.x0, a.y0, a.x1, a.y1, [&](std::size_t cell) {
                const auto [begin, end] = segCells.at(cell);
                for (const int* j = begin; j != end; ++j) {
                    const auto& b = segments[static_cast<std::size_t>(*j)];
                    if (b.edge <= edge || std::max(a.x0, a.x1) < std::min(b.x0, b.x1)
                        || std::max(b.x0, b.x1) < std::min(a.x0, a.x1) || std::max(a.y0, a.y1) < std::min(b.y0, b.y1)
                        || std::max(b.y0, b.y1) < std::min(a.y0, a.y1))
                        continue;
                    double x = 0, y = 0;
                    if (!properCross(a, b, &x, &y))
                        continue;
                    const auto& other = *edges[static_cast<std::size_t>(b.edge)];
                    if (!adjacent(route, other))
                        crossed.push_back(b.edge);
                    else if (!nearSharedEnd(route, other, x, y))
                        crossedAdjacent.push_back(b.edge);
                }
            });
        }
        f.crossings += countDistinct(crossed);
        f.adjacentCrossings += countDistinct(crossedAdjacent);
        first = last;
    }

    // Edges through boxes: each segment against the (inset) boxes in the cells it touches.
    const auto boxCells = bucket(grid.cells(), static_cast<int>(boxes.size()), [&](int i, const auto& fn) {
        const auto& b = boxes[static_cast<std::size_t>(i)];
        grid.forEachCellOfBox(b.x, b.y, b.x + b.w, b.y + b.h, fn);
    });
    std::vector<int> testedBy(boxes.size(), -1);  // the last segment a box was tested against
    std::vector<char> through(edges.size(), 0);
    for (std::size_t s = 0; s < segments.size(); ++s) {
        const auto& seg = segments[s];
        if (through[static_cast<std::size_t>(seg.edge)])
            continue;
        const auto& route = *edges[static_cast<std::size_t>(seg.edge)];
        grid.forEachCell(seg.x0, seg.y0, seg.x1, seg.y1, [&](std::size_t cell) {
            const auto [begin, end] = boxCells.at(cell);
            for (const int* i = begin; i != end; ++i) {
                auto& tested = testedBy[static_cast<std::size_t>(*i)];
                if (*i == route.from || *i == route.to || tested == static_cast<int>(s))
                    continue;
                tested = static_cast<int>(s);
                const auto& b = boxes[static_cast<std::size_t>(*i)];
                if (throughInside(seg, b.x + kBoxInset, b.y + kBoxInset, b.x + b.w - kBoxInset, b.y + b.h - kBoxInset))
                    through[static_cast<std::size_t>(seg.edge)] = 1;
            }
        });
    }
    f.throughBoxes = static_cast<int>(std::count(through.begin(), through.end(), 1));
    return f;
}

}  // namespace ps::graph
