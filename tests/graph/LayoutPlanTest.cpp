// The layout's second phase on small hand-built layerings: one chain per pair of items joined,
// virtual items for long chains up to the cap (shortest first, the rest laned), each layer in
// layering order with a chain's virtual items right after its upper end, and the ordered plan
// without the crossing its first order had.
#include "graph/LayoutPlan.h"
#include "graph/LayerAssignment.h"

#include <gtest/gtest.h>

#include <algorithm>

using namespace ps::graph;

namespace {

using PlanInputs = std::vector<std::vector<int>>;

std::vector<double> widths(std::size_t items, double w = 100)
{
    return std::vector<double>(items, w);
}

}  // namespace

TEST(LayoutPlan, EveryPairOfItemsJoinedIsOneChainWhicheverWayAndHoweverOftenItIsRead)
{
    // 1 reads 0 twice and an item that is not there; 2 reads 1, 1 reads 2 (a cycle).
    const PlanInputs in{{}, {0, 0, 9, 2}, {1}};
    const LayerAssignment graph(in, {});
    const auto plan = LayoutPlan::build(graph, graph.longestPath(), widths(3), 100);
    ASSERT_EQ(plan.chains.size(), 2u);
    EXPECT_EQ(plan.chainOfRoute, (std::vector<int>{0, 0, -1, 1, 1}));
    EXPECT_EQ(plan.chains[0].top, 0);
    EXPECT_EQ(plan.chains[0].bottom, 1);
    EXPECT_EQ(plan.chains[1].top, 1);  // 1 comes first in the order: 2 -> 1 is laid out reversed
    EXPECT_EQ(plan.chains[1].bottom, 2);
}

TEST(LayoutPlan, ALongChainGetsAVirtualItemInEveryLayerItPasses)
{
    // 0 -> 1 -> 2 -> 3 and 0 -> 3: virtual items 4 and 5 in layers 1 and 2, each placed
    // before item 1 and 2 there (right after the chain's upper end, 0, in layering order).
    const PlanInputs in{{}, {0}, {1}, {2, 0}};
    const LayerAssignment graph(in, {});
    const auto plan = LayoutPlan::build(graph, graph.longestPath(), widths(4, 80), 100);
    EXPECT_EQ(plan.total, 6);
    EXPECT_EQ(plan.layerCount, 4);
    EXPECT_TRUE(plan.laned.empty());
    EXPECT_EQ(plan.width, (std::vector<double>{80, 80, 80, 80, 0, 0}));
    EXPECT_EQ(plan.layers, (std::vector<std::vector<int>>{{0}, {4, 1}, {5, 2}, {3}}));
    auto edges = plan.edges;
    std::sort(edges.begin(), edges.end());
    EXPECT_EQ(edges, (std::vector<std::pair<int, int>>{{0, 1}, {0, 4}, {1, 2}, {2, 3}, {4, 5}, {5, 3}}));
}

TEST(LayoutPlan, ChainsPastTheVirtualItemCapAreLanedShortestKeptFirst)
{
    // 0 -> 1 -> 2 -> 3 -> 4 and 0 read by 2, 3 and 4: chains of span 2, 3 and 4 needing 1, 2
    // and 3 virtual items. A cap of 3 takes the first two (1 + 2); the longest is laned.
    const PlanInputs in{{}, {0}, {1, 0}, {2, 0}, {3, 0}};
    const LayerAssignment graph(in, {});
    const auto plan = LayoutPlan::build(graph, graph.longestPath(), widths(5), 3);
    EXPECT_EQ(plan.total, 5 + 3);
    ASSERT_EQ(plan.laned.size(), 1u);
    const Chain& laned = plan.chains[static_cast<std::size_t>(plan.laned.front())];
    EXPECT_EQ(laned.top, 0);
    EXPECT_EQ(laned.bottom, 4);
    EXPECT_EQ(laned.first, -1);
    // A cap of 0 lanes them all, shortest first.
    const auto none = LayoutPlan::build(graph, graph.longestPath(), widths(5), 0);
    EXPECT_EQ(none.total, 5);
    ASSERT_EQ(none.laned.size(), 3u);
    for (std::size_t k = 0; k < 3; ++k)
        EXPECT_EQ(none.span(none.chains[static_cast<std::size_t>(none.laned[k])]), static_cast<int>(k) + 2);
    // A laned chain gets no edges: only the one-layer chains and nothing through virtual items.
    EXPECT_EQ(none.edges.size(), 4u);
}

TEST(LayoutPlan, OrderingRemovesTheCrossingOfTheFirstOrder)
{
    // 0 and 1 on top; 2 reads 1 and 3 reads 0: in graph order the two edges cross.
    const PlanInputs in{{}, {}, {1}, {0}};
    const LayerAssignment graph(in, {});
    const auto built = LayoutPlan::build(graph, graph.longestPath(), widths(4), 100);
    ASSERT_EQ(built.layers, (std::vector<std::vector<int>>{{0, 1}, {2, 3}}));
    const auto plan = LayoutPlan::make(graph, graph.longestPath(), widths(4), 100, 4, 8);
    EXPECT_EQ(plan.crossings, 0);
    auto pos = [&](int v) {
        const auto& l = plan.layers[static_cast<std::size_t>(plan.layer[v])];
        return std::find(l.begin(), l.end(), v) - l.begin();
    };
    EXPECT_EQ(pos(0) < pos(1), pos(3) < pos(2));
}
