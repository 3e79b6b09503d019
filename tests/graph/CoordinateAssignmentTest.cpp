// The layout's third phase: packing one layer (least squares under separations, worked out by
// hand and checked for optimality on random layers) and the centres of small plans: a fork
// spread evenly under its source, a chain in one column, virtual items kept edgeGap from boxes
// and moved more than boxes.
#include "graph/CoordinateAssignment.h"
#include "graph/LayerAssignment.h"
#include "graph/LayeredLayout.h"
#include "graph/LayoutPlan.h"

#include <gtest/gtest.h>

#include <cmath>
#include <random>

using namespace ps::graph;

namespace {

double cost(const std::vector<double>& x, const std::vector<double>& desired, const std::vector<double>& weight)
{
    double c = 0;
    for (std::size_t i = 0; i < x.size(); ++i)
        c += weight[i] * (x[i] - desired[i]) * (x[i] - desired[i]);
    return c;
}

}  // namespace

TEST(CoordinateAssignment, ALayerWithRoomEnoughTakesTheDesiredPositions)
{
    std::vector<double> x;
    CoordinateAssignment::packLayer(x, {-300, 0, 500}, {0, 100, 200}, {1, 1, 1});
    EXPECT_EQ(x, (std::vector<double>{-300, 0, 500}));
}

TEST(CoordinateAssignment, TwoItemsWantingOnePlaceShareTheDifferenceByWeight)
{
    // Both want 0, 10 apart. Equal weights: -5 and 5. Weights 4 and 1: minimise
    // 4 a^2 + (a + 10)^2, so a = -2 and the other 8.
    std::vector<double> x;
    CoordinateAssignment::packLayer(x, {0, 0}, {0, 10}, {1, 1});
    EXPECT_DOUBLE_EQ(x[0], -5);
    EXPECT_DOUBLE_EQ(x[1], 5);
    CoordinateAssignment::packLayer(x, {0, 0}, {0, 10}, {4, 1});
    EXPECT_DOUBLE_EQ(x[0], -2);
    EXPECT_DOUBLE_EQ(x[1], 8);
}

TEST(CoordinateAssignment, APackedLayerKeepsItsSeparationsAndNoNudgeImprovesIt)
{
    std::mt19937 random(5);
    for (int t = 0; t < 50; ++t) {
        const std::size_t k = 2 + random() % 8;
        std::vector<double> desired(k), offset(k, 0.0), weight(k), x;
        for (std::size_t i = 0; i < k; ++i) {
            desired[i] = static_cast<double>(random() % 400);
            weight[i] = i % 2 ? 1.0 : 4.0;
            if (i > 0)
                offset[i] = offset[i - 1] + 20 + static_cast<double>(random() % 60);
        }
        CoordinateAssignment::packLayer(x, desired, offset, weight);
        ASSERT_EQ(x.size(), k);
        for (std::size_t i = 1; i < k; ++i)
            EXPECT_GE(x[i] - x[i - 1], offset[i] - offset[i - 1] - 1e-9) << "layer " << t;
        // Shifting any run of items (all after one point, or all before it) by a little, where
        // that keeps the separations, costs at least as much.
        const double best = cost(x, desired, weight);
        for (std::size_t cut = 0; cut <= k; ++cut)
            for (double d : {-0.5, 0.5}) {
                auto y = x;
                for (std::size_t i = cut; i < k; ++i)
                    y[i] += d;
                bool feasible = true;
                for (std::size_t i = 1; i < k; ++i)
                    feasible = feasible && y[i] - y[i - 1] >= offset[i] - offset[i - 1] - 1e-9;
                if (feasible) {
                    EXPECT_GE(cost(y, desired, weight), best - 1e-6) << "layer " << t << " cut " << cut;
                }
            }
    }
}

TEST(CoordinateAssignment, AForkSpreadsItsUsersEvenlyUnderItsSource)
{
    // 0 read by 1 and 2: the two users a width plus nodeGap apart, the source midway.
    const std::vector<std::vector<int>> in{{}, {0}, {0}};
    const LayerAssignment graph(in, {});
    const auto plan = LayoutPlan::make(graph, graph.longestPath(), {176, 176, 176}, 100, 4, 8);
    LayoutOptions options;
    const auto x = CoordinateAssignment::centres(plan, 3, options);
    ASSERT_EQ(x.size(), 3u);
    EXPECT_DOUBLE_EQ(std::abs(x[2] - x[1]), 176 + options.nodeGap);
    EXPECT_DOUBLE_EQ(x[0], (x[1] + x[2]) / 2);
}

TEST(CoordinateAssignment, AChainStandsInOneColumn)
{
    const std::vector<std::vector<int>> in{{}, {0}, {1}, {2}};
    const LayerAssignment graph(in, {});
    const auto plan = LayoutPlan::make(graph, graph.longestPath(), {100, 150, 200, 50}, 100, 4, 8);
    const auto x = CoordinateAssignment::centres(plan, 4, LayoutOptions{});
    for (double c : x)
        EXPECT_DOUBLE_EQ(c, x[0]);
}

TEST(CoordinateAssignment, AVirtualItemKeepsEdgeGapFromTheBoxBesideItAndGivesWayMore)
{
    // 0 -> 1 -> 2 and 0 -> 2: a virtual item (3) beside box 1, half a box plus edgeGap away.
    const std::vector<std::vector<int>> in{{}, {0}, {1, 0}};
    const LayerAssignment graph(in, {});
    const auto plan = LayoutPlan::make(graph, graph.longestPath(), {176, 176, 176}, 100, 4, 8);
    ASSERT_EQ(plan.total, 4);
    LayoutOptions options;
    options.edgeGap = 9;
    const auto x = CoordinateAssignment::centres(plan, 3, options);
    EXPECT_GE(std::abs(x[3] - x[1]), 176 / 2 + 9 - 1e-9);
    // Packed tight: the virtual item wants to be above and below where box 1 is, so it sits
    // as close as the gap allows.
    EXPECT_NEAR(std::abs(x[3] - x[1]), 176 / 2 + 9, 1e-9);
    // In the last pass (upward) both want item 2's x, their only neighbour below: the box,
    // weighing kBoxWeight (4) times the virtual item, moves a fifth of the 97 they keep apart.
    EXPECT_NEAR(std::abs(x[1] - x[2]), 97.0 / 5, 1e-9);
    EXPECT_NEAR(std::abs(x[3] - x[2]), 97.0 * 4 / 5, 1e-9);
}
