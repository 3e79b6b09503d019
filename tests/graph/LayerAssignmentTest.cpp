// The layout's first phase on small hand-built graphs: the layering order (graph order where
// edges allow, cycles broken at the earliest item, bands one after another), the longest path,
// and each move (pull down, sink sources, tighten, loners, sink all) against layers worked out
// by hand; the candidate layerings on random graphs: none twice, forward edges pointing down.
#include "graph/LayerAssignment.h"

#include <gtest/gtest.h>

#include <algorithm>
#include <random>

using namespace ps::graph;

namespace {

using Inputs = std::vector<std::vector<int>>;

// 0 -> 1 -> ... -> length - 1.
Inputs chain(int length)
{
    Inputs in(static_cast<std::size_t>(length));
    for (int k = 1; k < length; ++k)
        in[static_cast<std::size_t>(k)] = {k - 1};
    return in;
}

}  // namespace

TEST(LayerAssignment, ItemsAreOrderedInGraphOrderWhereTheirEdgesAllow)
{
    // 0 reads 2: 1 and 2 come before it, 1 first (earlier in graph order).
    const Inputs in{{2}, {}, {}};
    const LayerAssignment a(in, {});
    EXPECT_EQ(a.order(), (std::vector<int>{1, 2, 0}));
    EXPECT_EQ(a.rank(), (std::vector<int>{2, 0, 1}));
    EXPECT_TRUE(a.forward(2, 0));
    EXPECT_FALSE(a.forward(0, 2));
}

TEST(LayerAssignment, ACycleIsBrokenAtItsEarliestItemAndItsBackEdgeStillSpansALayer)
{
    // 0 reads 1, 1 reads 0: 0 goes first, so 1 -> 0 is a back edge; 1 sits below 0.
    const Inputs in{{1}, {0}};
    const LayerAssignment a(in, {});
    EXPECT_EQ(a.order(), (std::vector<int>{0, 1}));
    EXPECT_FALSE(a.forward(1, 0));
    EXPECT_EQ(a.longestPath(), (std::vector<int>{0, 1}));
}

TEST(LayerAssignment, InputsOutOfRangeAndSelfReadsAreNoEdges)
{
    const Inputs in{{}, {0, 1, -1, 7}};
    const LayerAssignment a(in, {});
    EXPECT_TRUE(a.joins(0, 1));
    EXPECT_FALSE(a.joins(1, 1));
    EXPECT_FALSE(a.joins(-1, 1));
    EXPECT_FALSE(a.joins(7, 1));
    EXPECT_EQ(a.users()[0], (std::vector<int>{1}));
    EXPECT_TRUE(a.users()[1].empty());
    EXPECT_EQ(a.longestPath(), (std::vector<int>{0, 1}));
}

TEST(LayerAssignment, TheLongestPathPutsEachItemOneLayerBelowItsLowestInput)
{
    // 0 -> 1 -> 2, and 3 reads 0 and 2.
    const Inputs in{{}, {0}, {1}, {0, 2}};
    const LayerAssignment a(in, {});
    EXPECT_EQ(a.longestPath(), (std::vector<int>{0, 1, 2, 3}));
}

TEST(LayerAssignment, ALaterBandStartsBelowTheLastLayerOfTheBandBefore)
{
    // Band 0: 0 -> 1. Band 1: 2, reading nothing; 3 in band "-1" counts as band 0.
    const Inputs in{{}, {0}, {}, {}};
    const LayerAssignment a(in, {0, 0, 1, -1});
    EXPECT_EQ(a.band(), (std::vector<int>{0, 0, 1, 0}));
    EXPECT_EQ(a.longestPath(), (std::vector<int>{0, 1, 2, 0}));
    EXPECT_EQ(a.bandStart()[2], 2);
    EXPECT_EQ(a.bandStart()[3], 0);
    // Bands of the wrong size are ignored: one band.
    const LayerAssignment one(in, {0, 1});
    EXPECT_EQ(one.longestPath(), (std::vector<int>{0, 1, 0, 0}));
}

TEST(LayerAssignment, PullDownMovesAWeightsTransposeJustAboveItsUserButNotTheWeight)
{
    // A chain 0..9; 10 a weight, 11 its transpose, 12 reads 9 and 11. The transpose reads a
    // source only it reads (no read) and feeds one: down to layer 9, just above 12 (layer 10).
    Inputs in = chain(10);
    in.push_back({});
    in.push_back({10});
    in.push_back({9, 11});
    const LayerAssignment a(in, {});
    std::vector<int> at = a.longestPath();
    ASSERT_EQ(at[11], 1);
    ASSERT_EQ(at[12], 10);
    a.pullDown(at);
    EXPECT_EQ(at[11], 9);
    EXPECT_EQ(at[10], 0);  // sources are sinkSources' job
    a.sinkSources(at);
    EXPECT_EQ(at[10], 8);
}

TEST(LayerAssignment, PullDownLeavesAnItemThatReadsMoreThanItFeeds)
{
    // 0 -> 1 -> 2 -> 3 -> 4 and 5 reading 1 and 2 (both computed), read by 4 only: two reads,
    // one feed, so 5 stays at 3 (one below 2).
    Inputs in = chain(5);
    in.push_back({1, 2});
    in[4].push_back(5);
    const LayerAssignment a(in, {});
    std::vector<int> at = a.longestPath();
    ASSERT_EQ(at[5], 3);
    ASSERT_EQ(at[4], 4);
    const std::vector<int> before = at;
    a.pullDown(at);
    EXPECT_EQ(at, before);
}

TEST(LayerAssignment, SinkSourcesPutsASourceJustAboveItsFirstUser)
{
    // 0 -> 1 -> 2 -> 3 and a source 4 read by 3 and by 2: just above 2.
    Inputs in = chain(4);
    in.push_back({});
    in[3].push_back(4);
    in[2].push_back(4);
    const LayerAssignment a(in, {});
    std::vector<int> at = a.longestPath();
    ASSERT_EQ(at[4], 0);
    a.sinkSources(at);
    EXPECT_EQ(at[4], 1);
    EXPECT_EQ(at[0], 0);  // 0 already sits just above its user
}

TEST(LayerAssignment, TightenMovesAnItemThatOnlyReadsUpAndOneThatOnlyFeedsDown)
{
    // 0 -> 1 -> 2 -> 3; 4 reads 0 and feeds nothing; from layer 3 it goes up to 1.
    Inputs in = chain(4);
    in.push_back({0});
    const LayerAssignment a(in, {});
    std::vector<int> at{0, 1, 2, 3, 3};
    a.tighten(at);
    EXPECT_EQ(at, (std::vector<int>{0, 1, 2, 3, 1}));

    // 1 -> 2 -> 3 and a source 0 read by 3 only: from layer 0 it goes down to 2.
    const Inputs feeds{{}, {}, {1}, {2, 0}};
    const LayerAssignment b(feeds, {});
    std::vector<int> bt{0, 0, 1, 2};
    b.tighten(bt);
    EXPECT_EQ(bt, (std::vector<int>{1, 0, 1, 2}));
}

TEST(LayerAssignment, ALonerTakesTheLayerOfItsNearestJoinedNeighbourInItsBand)
{
    // 0 -> 1 -> 3 -> 4; 2 joined to nothing sits with 3 (the later neighbour first); 5, alone
    // in band 1 apart from 6 (a loner too), finds no joined neighbour and stays.
    const Inputs in{{}, {0}, {}, {1}, {3}, {}, {}};
    const LayerAssignment a(in, {0, 0, 0, 0, 0, 1, 1});
    std::vector<int> at{0, 1, 0, 2, 3, 9, 9};
    a.placeLoners(at);
    EXPECT_EQ(at, (std::vector<int>{0, 1, 2, 2, 3, 9, 9}));
}

TEST(LayerAssignment, SinkAllPutsEveryItemAsLowAsItsUsersAllow)
{
    // 0 -> 1 -> 2 and 3 reading 0, read by nothing: 3 goes to the last layer, 0 stays above 1.
    const Inputs in{{}, {0}, {1}, {0}};
    const LayerAssignment a(in, {});
    std::vector<int> at{0, 1, 2, 1};
    a.sinkAll(at);
    EXPECT_EQ(at, (std::vector<int>{0, 1, 2, 2}));
}

TEST(LayerAssignment, TheFirstCandidateIsTheLongestPathPulledDownWithSourcesSunkAndLonersPlaced)
{
    Inputs in = chain(10);
    in.push_back({});
    in.push_back({10});
    in.push_back({9, 11});
    const LayerAssignment a(in, {});
    const auto candidates = a.candidates();
    ASSERT_FALSE(candidates.empty());
    // Worked out by hand: the chain on 0..9, 12 below it, its transpose just above, the weight
    // above that.
    EXPECT_EQ(candidates.front(), (std::vector<int>{0, 1, 2, 3, 4, 5, 6, 7, 8, 9, 8, 9, 10}));
}

TEST(LayerAssignment, CandidatesAreDistinctAndKeepEveryForwardEdgePointingDown)
{
    std::mt19937 random(11);
    std::size_t most = 0;
    for (int t = 0; t < 60; ++t) {
        const int n = 2 + static_cast<int>(random() % 60);
        Inputs in(static_cast<std::size_t>(n));
        for (int v = 1; v < n; ++v)
            for (int d = static_cast<int>(random() % 3); d > 0; --d)
                in[static_cast<std::size_t>(v)].push_back(static_cast<int>(random() % static_cast<unsigned>(v)));
        if (t % 3 == 0)
            in[0].push_back(n - 1);  // a cycle through item 0
        std::vector<int> bands;
        if (t % 2 == 0)
            for (int v = 0; v < n; ++v)
                bands.push_back(2 * v / n);
        const LayerAssignment a(in, bands);
        const auto candidates = a.candidates();
        most = std::max(most, candidates.size());
        for (std::size_t i = 0; i < candidates.size(); ++i) {
            for (std::size_t j = 0; j < i; ++j)
                EXPECT_NE(candidates[i], candidates[j]) << "graph " << t;
            const auto& at = candidates[i];
            for (int v = 0; v < n; ++v)
                for (int u : in[static_cast<std::size_t>(v)]) {
                    if (!a.joins(u, v))
                        continue;
                    // A back edge is laid out reversed: its input below.
                    const int above = a.forward(u, v) ? u : v, below = a.forward(u, v) ? v : u;
                    EXPECT_LT(at[above], at[below]) << "graph " << t << " layering " << i << ": " << u << " -> " << v;
                }
        }
    }
    EXPECT_GT(most, 2u);  // small graphs get more than the two layerings
}

TEST(LayerAssignment, BigGraphsGetFewerCandidates)
{
    // A chain, a weight, its transpose and a user at the chain's end: the pulled layering (the
    // transpose just above its user) differs from the longest path (the transpose at the top).
    for (int items : {LayerAssignment::kManyLayeringsItems + 1, LayerAssignment::kTwoLayeringsItems + 1}) {
        const int n = items - 3;
        Inputs in = chain(n);
        in.push_back({});
        in.push_back({n});
        in.push_back({n - 1, n + 1});
        const LayerAssignment a(in, {});
        EXPECT_EQ(a.candidates().size(), items > LayerAssignment::kTwoLayeringsItems ? 1u : 2u) << items;
    }
}
