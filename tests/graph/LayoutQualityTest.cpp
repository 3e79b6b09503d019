// Layout quality measured on hand-built drawings: crossings (once per pair of edges, apart for
// edges of one item), edges through boxes they do not connect, lengths; and
// the grid's counts against a brute-force count on a random drawing.
#include "graph/LayoutQuality.h"

#include <gtest/gtest.h>

#include <cmath>
#include <random>

using namespace ps::graph;

namespace {

NodeBox box(double x, double y, double w = 100, double h = 40)
{
    return {x, y, w, h, 0};
}

/// Two rows of two boxes: A B on top, C D below (100 x 40, 100 px apart each way).
LayoutResult square()
{
    LayoutResult r;
    r.boxes = {box(0, 0), box(200, 0), box(0, 100), box(200, 100)};
    return r;
}

constexpr int A = 0, B = 1, C = 2, D = 3;

}  // namespace

TEST(LayoutQuality, StraightEdgesThatCrossCountOnce)
{
    // C reads B and D reads A: the two straight edges form an X.
    const LayoutInput crossed{{{}, {}, {B}, {A}}, {}, {}};
    const auto f = LayoutQuality::measure(crossed, square());
    EXPECT_EQ(f.edges, 2);
    EXPECT_EQ(f.crossings, 1);
    EXPECT_EQ(f.throughBoxes, 0);

    const LayoutInput straight{{{}, {}, {A}, {B}}, {}, {}};
    EXPECT_EQ(LayoutQuality::measure(straight, square()).crossings, 0);
}

TEST(LayoutQuality, EdgesMeetingAtTheirSharedItemDoNotCross)
{
    // A feeds both C and D; B feeds D: the fan-out from A meets only at A, B -> D crosses nothing.
    const LayoutInput fan{{{}, {}, {A}, {A, B}}, {}, {}};
    const auto f = LayoutQuality::measure(fan, square());
    EXPECT_EQ(f.edges, 3);
    EXPECT_EQ(f.crossings, 0);
}

TEST(LayoutQuality, AnInputListedTwiceIsOneEdge)
{
    const LayoutInput twice{{{}, {}, {B, B}, {A, A}}, {}, {}};
    const auto f = LayoutQuality::measure(twice, square());
    EXPECT_EQ(f.edges, 2);
    EXPECT_EQ(f.crossings, 1);
    EXPECT_DOUBLE_EQ(f.edgeLength, 2 * std::hypot(200.0, 60.0));
}

TEST(LayoutQuality, RoutesAreMeasuredInsteadOfStraightLines)
{
    // The same X, but D's edge from A is routed around the left and below C: no crossing, and
    // the length is the polyline's.
    auto layout = square();
    layout.routes = {
        {B, C, {{250, 40}, {50, 100}}},
        {A, D, {{50, 40}, {-20, 40}, {-20, 160}, {250, 160}, {250, 140}}},
    };
    const LayoutInput input{{{}, {}, {B}, {A}}, {}, {}};
    auto f = LayoutQuality::measure(input, layout);
    EXPECT_EQ(f.crossings, 0);
    EXPECT_EQ(f.throughBoxes, 0);
    EXPECT_DOUBLE_EQ(f.edgeLength, std::hypot(200.0, 60.0) + 70 + 120 + 270 + 20);

    // A route that crosses the other twice is still one crossing pair.
    layout.routes[1].points = {{50, 40}, {300, 60}, {0, 80}, {250, 100}};
    f = LayoutQuality::measure(input, layout);
    EXPECT_EQ(f.crossings, 1);
}

TEST(LayoutQuality, AnEdgeThroughABoxItDoesNotConnect)
{
    // Three boxes in a column: the straight edge from the top one to the bottom one goes
    // through the middle one.
    LayoutResult column;
    column.boxes = {box(0, 0), box(0, 100), box(0, 200)};
    const LayoutInput skip{{{}, {0}, {0, 1}}, {}, {}};
    auto f = LayoutQuality::measure(skip, column);
    EXPECT_EQ(f.edges, 3);
    EXPECT_EQ(f.throughBoxes, 1);

    // Routed around the middle box: nothing through a box; along its border: grazing only.
    column.routes = {{0, 1, {{50, 40}, {50, 100}}}, {0, 2, {{50, 40}, {120, 70}, {120, 170}, {50, 200}}},
        {1, 2, {{50, 140}, {50, 200}}}};
    EXPECT_EQ(LayoutQuality::measure(skip, column).throughBoxes, 0);
    column.routes[1].points = {{50, 40}, {100, 70}, {100, 170}, {50, 200}};
    EXPECT_EQ(LayoutQuality::measure(skip, column).throughBoxes, 0);
    column.routes[1].points = {{50, 40}, {97, 70}, {97, 170}, {50, 200}};
    EXPECT_EQ(LayoutQuality::measure(skip, column).throughBoxes, 1);
}

TEST(LayoutQuality, EdgesOfOneItemThatSwapAwayFromItAreCountedApart)
{
    // Two routes out of A swap sides far below it: an adjacent crossing, not in `crossings`.
    LayoutResult layout;
    layout.boxes = {box(100, 0), box(0, 400), box(200, 400)};
    layout.routes
        = {{0, 1, {{150, 40}, {150, 60}, {300, 200}, {50, 400}}}, {0, 2, {{150, 40}, {150, 60}, {0, 200}, {250, 400}}}};
    const LayoutInput input{{{}, {0}, {0}}, {}, {}};
    auto f = LayoutQuality::measure(input, layout);
    EXPECT_EQ(f.crossings, 0);
    EXPECT_EQ(f.adjacentCrossings, 1);

    // Two routes that swap sides right under A (within the margin) and then part: neither.
    layout.routes = {{0, 1, {{160, 40}, {140, 50}, {50, 400}}}, {0, 2, {{140, 40}, {160, 50}, {250, 400}}}};
    f = LayoutQuality::measure(input, layout);
    EXPECT_EQ(f.crossings, 0);
    EXPECT_EQ(f.adjacentCrossings, 0);
}

namespace {

struct P {
    double x, y;
};

double turn(P a, P b, P c)
{
    return (b.x - a.x) * (c.y - a.y) - (b.y - a.y) * (c.x - a.x);
}

bool segmentsCross(P a, P b, P c, P d)
{
    return turn(a, b, c) * turn(a, b, d) < 0 && turn(c, d, a) * turn(c, d, b) < 0;
}

/// The test's own check: a segment enters an open rectangle when an end is inside it or it
/// crosses one of its diagonals (a chord that cuts off a corner crosses that corner's diagonal).
bool enters(P a, P b, const NodeBox& box)
{
    const double l = box.x + 1, t = box.y + 1, r = box.x + box.w - 1, btm = box.y + box.h - 1;
    auto inside = [&](P p) { return p.x > l && p.x < r && p.y > t && p.y < btm; };
    return inside(a) || inside(b) || segmentsCross(a, b, {l, t}, {r, btm}) || segmentsCross(a, b, {r, t}, {l, btm});
}

}  // namespace

TEST(LayoutQuality, GridCountsMatchAnAllPairsCountOnARandomDrawing)
{
    // 240 small boxes on a 3000 x 3000 plane and 120 edges (no two sharing an item) of one to
    // three segments between random points: the grid must find what an all-pairs pass finds.
    std::mt19937 rng(7);
    std::uniform_real_distribution<double> pos(0, 3000);
    std::uniform_int_distribution<int> bends(2, 4);
    LayoutResult layout;
    for (int i = 0; i < 240; ++i)
        layout.boxes.push_back(box(pos(rng), pos(rng), 16, 12));
    for (int e = 0; e < 120; ++e) {
        EdgeRoute r{2 * e, 2 * e + 1, {}};
        for (int k = bends(rng); k > 0; --k)
            r.points.push_back({pos(rng), pos(rng)});
        layout.routes.push_back(r);
    }
    auto segment = [](const EdgeRoute& r, std::size_t s) {
        return std::pair<P, P>{{r.points[s].x, r.points[s].y}, {r.points[s + 1].x, r.points[s + 1].y}};
    };
    std::int64_t crossings = 0;
    int through = 0;
    for (std::size_t i = 0; i < layout.routes.size(); ++i) {
        const auto& a = layout.routes[i];
        bool entersBox = false;
        for (std::size_t s = 0; s + 1 < a.points.size(); ++s)
            for (int b = 0; b < 240; ++b) {
                const auto [p, q] = segment(a, s);
                entersBox = entersBox
                    || (b != a.from && b != a.to && enters(p, q, layout.boxes[static_cast<std::size_t>(b)]));
            }
        through += entersBox ? 1 : 0;
        for (std::size_t j = i + 1; j < layout.routes.size(); ++j) {
            const auto& b = layout.routes[j];
            bool cross = false;
            for (std::size_t s = 0; s + 1 < a.points.size(); ++s)
                for (std::size_t t = 0; t + 1 < b.points.size(); ++t) {
                    const auto [p, q] = segment(a, s);
                    const auto [u, v] = segment(b, t);
                    cross = cross || segmentsCross(p, q, u, v);
                }
            crossings += cross ? 1 : 0;
        }
    }
    const auto f = LayoutQuality::measure(layout.boxes, layout.routes);
    EXPECT_GT(crossings, 100);
    EXPECT_EQ(f.crossings, crossings);
    EXPECT_GT(through, 10);
    EXPECT_LT(through, 110);
    EXPECT_EQ(f.throughBoxes, through);
}
