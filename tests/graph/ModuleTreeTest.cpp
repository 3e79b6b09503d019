// The module tree from node module paths.
#include "GraphTestSupport.h"
#include "SyntheticGraph.h"

#include "graph/ModuleTree.h"

#include <gtest/gtest.h>

using ps::graph::ModuleTree;
using namespace ps::graphtest;

TEST(ModuleTree, EveryPrefixIsAModuleAndTotalsAddUp)
{
    const auto g = makeGraph({
        {"x", {}, "", "input"},
        {"model.l.0.weight", {}, "", "parameter", "model.l.0.weight"},
        {"a", {"x", "model.l.0.weight"}, "model.l.0"},
        {"b", {"a"}, "model.l.0"},
        {"c", {"b"}, "model.l.1.inner"},
        {"d", {"c"}, "model"},
        {"output", {"d"}, "", "output"},
    });
    const auto t = ModuleTree::build(g);
    ASSERT_GE(t.find("model.l.1.inner"), 0);
    const int model = t.find("model"), l = t.find("model.l"), l0 = t.find("model.l.0"), l1 = t.find("model.l.1");
    ASSERT_TRUE(model > 0 && l > 0 && l0 > 0 && l1 > 0);
    EXPECT_EQ(t.module(l).parent, model);
    EXPECT_EQ(t.module(l0).parent, l);
    EXPECT_EQ(t.module(l0).name, "0");
    EXPECT_EQ(t.module(l0).type, "T");
    EXPECT_EQ(t.module(l1).depth, 3);
    // The parameter lives in the module its qualified name names.
    EXPECT_EQ(t.moduleOf(1), l0);
    EXPECT_EQ(t.module(l0).nodes, (std::vector<int>{1, 2, 3}));
    EXPECT_EQ(t.module(l0).total, 3);
    EXPECT_EQ(t.module(l).total, 4);
    EXPECT_EQ(t.module(model).total, 5);
    EXPECT_EQ(t.module(ModuleTree::root()).total, 7);
    EXPECT_EQ(t.module(ModuleTree::root()).nodes, (std::vector<int>{0, 6}));
    EXPECT_EQ(t.module(l).children, (std::vector<int>{l0, l1}));  // order of first appearance
    EXPECT_EQ(t.chain(t.find("model.l.1.inner")), (std::vector<int>{model, l, l1, t.find("model.l.1.inner")}));
    EXPECT_EQ(t.nodesIn(l), (std::vector<int>{1, 2, 3, 4}));
    EXPECT_TRUE(t.contains(model, l1));
    EXPECT_FALSE(t.contains(l0, l1));
    EXPECT_EQ(t.largest(), model);
    EXPECT_EQ(t.find("nope"), -1);
}

TEST(ModuleTree, AParameterOfAnUnknownModuleStaysAtTheRoot)
{
    const auto g = makeGraph({{"w", {}, "", "parameter", "elsewhere.weight"}, {"a", {"w"}, "m"}});
    const auto t = ModuleTree::build(g);
    EXPECT_EQ(t.moduleOf(0), ModuleTree::root());
    EXPECT_EQ(t.find("elsewhere"), -1);
}

TEST(ModuleTree, SyntheticTransformerHasItsBlocks)
{
    const auto g = ps::graph::GraphModel::fromJson(transformerGraph(2000));
    const auto t = ModuleTree::build(g);
    const int blocks = t.find("model.stages.0.blocks");
    ASSERT_GT(blocks, 0);
    EXPECT_GE(t.module(blocks).children.size(), 5u);
    EXPECT_EQ(t.module(t.find("model.stages.0.blocks.0")).type, "Block");
    EXPECT_EQ(t.module(t.find("model.stages.0.blocks.0.attn.q_proj")).type, "Linear");
    // Every node is in exactly one module: the root's total is the node count.
    EXPECT_EQ(t.module(ModuleTree::root()).total, static_cast<int>(g.nodes().size()));
}

TEST(ModuleTree, EmptySegmentsOfAPathNameNoModule)
{
    const auto g = makeGraph({{"x", {}, "", "input"}, {"a", {"x"}, "m..b"}, {"c", {"a"}, "m.b."}, {"d", {"c"}, "."}});
    const auto t = ModuleTree::build(g);
    EXPECT_EQ(t.modules().size(), 3u);  // root, m, m.b
    EXPECT_EQ(t.moduleOf(1), t.find("m.b"));
    EXPECT_EQ(t.moduleOf(2), t.find("m.b"));
    EXPECT_EQ(t.moduleOf(3), 0);
    EXPECT_EQ(t.find("m..b"), t.find("m.b"));
    for (std::size_t i = 1; i < t.modules().size(); ++i) {
        EXPECT_FALSE(t.modules()[i].name.empty()) << t.modules()[i].path;
    }
}
