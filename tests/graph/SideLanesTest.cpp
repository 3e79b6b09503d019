// The layout's fourth phase on hand-made plans: a laned chain on the side nearer its ends, a
// lane reused once the chain before it has ended, and past the most lanes per side a chain
// sharing the lane that ends first.
#include "graph/SideLanes.h"
#include "graph/LayoutPlan.h"

#include <gtest/gtest.h>

using namespace ps::graph;

namespace {

// A plan of laned chains, chain k joining items 2k (top) and 2k + 1 (bottom).
struct Lanes {
    LayoutPlan plan;
    std::vector<double> x;

    void add(int top, int bottom, double topX, double bottomX)
    {
        const int k = static_cast<int>(plan.chains.size());
        plan.layer.push_back(top);
        plan.layer.push_back(bottom);
        x.push_back(topX);
        x.push_back(bottomX);
        Chain c;
        c.top = 2 * k;
        c.bottom = 2 * k + 1;
        plan.chains.push_back(c);
        plan.laned.push_back(k);
        plan.total = 2 * (k + 1);
    }
};

}  // namespace

TEST(SideLanes, AChainRunsOnTheSideNearerItsEnds)
{
    Lanes l;
    l.add(0, 5, -50, 10);  // mean -20: left of 0
    l.add(0, 5, -10, 30);  // mean 10: right
    const auto used = SideLanes::assign(l.plan, l.x, 0);
    EXPECT_TRUE(l.plan.chains[0].left);
    EXPECT_FALSE(l.plan.chains[1].left);
    EXPECT_EQ(l.plan.chains[0].lane, 0);
    EXPECT_EQ(l.plan.chains[1].lane, 0);
    EXPECT_EQ(used, (std::array<int, 2>{1, 1}));
}

TEST(SideLanes, ALaneIsReusedOnceTheChainBeforeItHasEnded)
{
    // On the left: A over layers 0..3, B 3..6 (starts where A ends: A's lane), C 1..4 (overlaps
    // A: the next lane out). Taken by upper layer: A, C, B.
    Lanes l;
    l.add(0, 3, -100, -100);  // A
    l.add(3, 6, -100, -100);  // B
    l.add(1, 4, -100, -100);  // C
    const auto used = SideLanes::assign(l.plan, l.x, 0);
    EXPECT_EQ(l.plan.chains[0].lane, 0);
    EXPECT_EQ(l.plan.chains[1].lane, 0);
    EXPECT_EQ(l.plan.chains[2].lane, 1);
    EXPECT_EQ(used, (std::array<int, 2>{2, 0}));
    EXPECT_EQ(l.plan.laned, (std::vector<int>{0, 2, 1}));
}

TEST(SideLanes, PastTheMostLanesAChainSharesTheLaneThatEndsFirst)
{
    // kMaxLanes chains from layer 0, chain k ending at 100 - k: each its own lane; one more
    // (ending at 50) shares the last lane, which ends first (at 100 - (kMaxLanes - 1)).
    Lanes l;
    for (int k = 0; k < SideLanes::kMaxLanes; ++k)
        l.add(0, 100 - k, 10, 10);
    l.add(0, 50, 10, 10);
    const auto used = SideLanes::assign(l.plan, l.x, 0);
    for (int k = 0; k < SideLanes::kMaxLanes; ++k)
        EXPECT_EQ(l.plan.chains[static_cast<std::size_t>(k)].lane, k);
    EXPECT_EQ(l.plan.chains.back().lane, SideLanes::kMaxLanes - 1);
    EXPECT_EQ(used, (std::array<int, 2>{0, SideLanes::kMaxLanes}));
}
