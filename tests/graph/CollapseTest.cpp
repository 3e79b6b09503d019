// Collapse and expand: a collapsed module is one box, its edges merged; expand shows what is in it.
#include "GraphTestSupport.h"
#include "SyntheticGraph.h"

#include "graph/CollapseState.h"
#include "graph/ModuleTree.h"
#include "graph/VisibleGraph.h"

#include <gtest/gtest.h>

#include <set>

using namespace ps::graph;
using namespace ps::graphtest;

namespace {

// x -> [m.a: a1 -> a2] -> [m.b: b1, b2 both read a2] -> out, plus x -> b1.
GraphModel sample()
{
    return makeGraph({
        {"x", {}, "", "input"},
        {"a1", {"x"}, "m.a"},
        {"a2", {"a1"}, "m.a"},
        {"b1", {"a2", "x"}, "m.b"},
        {"b2", {"a2"}, "m.b"},
        {"out", {"b1", "b2"}, "", "output"},
    });
}

std::set<std::tuple<std::string, std::string, int>> edgesByName(
    const GraphModel& g, const ModuleTree& t, const VisibleGraph& v)
{
    auto label = [&](int item) {
        const auto& it = v.items()[static_cast<std::size_t>(item)];
        return it.kind == VisibleItem::Node ? g.nodes()[static_cast<std::size_t>(it.id)].name
                                            : "[" + t.module(it.id).path + "]";
    };
    std::set<std::tuple<std::string, std::string, int>> out;
    for (const auto& e : v.edges())
        out.insert({label(e.from), label(e.to), e.count});
    return out;
}

}  // namespace

TEST(Collapse, ACollapsedModuleIsOneBoxWithItsEdgesMerged)
{
    const auto g = sample();
    const auto t = ModuleTree::build(g);
    CollapseState s(t);  // everything below the root collapsed: [m]
    auto v = VisibleGraph::build(g, t, s);
    ASSERT_EQ(v.items().size(), 3u);  // x, [m], out
    EXPECT_EQ(v.itemOfNode(1), v.itemOfNode(4));
    EXPECT_EQ(v.itemOfModule(t.find("m")), v.itemOfNode(2));
    // x feeds a1 and b1 (two edges, one box); b1 and b2 both feed out; a1->a2 etc. vanish inside.
    EXPECT_EQ(edgesByName(g, t, v),
        (std::set<std::tuple<std::string, std::string, int>>{{"x", "[m]", 2}, {"[m]", "out", 2}}));

    s.expand(t, t.find("m"));  // m open, m.a and m.b still collapsed
    v = VisibleGraph::build(g, t, s);
    EXPECT_EQ(v.items().size(), 4u);
    EXPECT_EQ(v.itemOfModule(t.find("m")), -1);
    EXPECT_EQ(edgesByName(g, t, v),
        (std::set<std::tuple<std::string, std::string, int>>{
            {"x", "[m.a]", 1}, {"x", "[m.b]", 1}, {"[m.a]", "[m.b]", 2}, {"[m.b]", "out", 2}}));

    s.expand(t, t.find("m.b"));
    v = VisibleGraph::build(g, t, s);
    EXPECT_EQ(edgesByName(g, t, v),
        (std::set<std::tuple<std::string, std::string, int>>{{"x", "[m.a]", 1}, {"x", "b1", 1}, {"[m.a]", "b1", 1},
            {"[m.a]", "b2", 1}, {"b1", "out", 1}, {"b2", "out", 1}}));
    EXPECT_EQ(s.visibleCount(t), static_cast<int>(v.items().size()));

    s.collapse(t.find("m"));  // m.b stays open underneath, for the next expand of m
    v = VisibleGraph::build(g, t, s);
    EXPECT_EQ(v.items().size(), 3u);
    EXPECT_TRUE(s.expanded(t.find("m.b")));
    s.collapse(ModuleTree::root());  // the root never collapses
    EXPECT_TRUE(s.expanded(ModuleTree::root()));
}

TEST(Collapse, RevealOpensExactlyTheModulesAboveANode)
{
    const auto g = sample();
    const auto t = ModuleTree::build(g);
    CollapseState s(t);
    EXPECT_EQ(s.hiddenBy(t, 3), t.find("m"));
    EXPECT_EQ(s.hiddenBy(t, 0), -1);
    EXPECT_TRUE(s.reveal(t, 3));
    EXPECT_FALSE(s.reveal(t, 3));
    EXPECT_EQ(s.hiddenBy(t, 3), -1);
    EXPECT_EQ(s.hiddenBy(t, 1), t.find("m.a"));
    EXPECT_TRUE(s.expanded(t.find("m")));
    EXPECT_FALSE(s.expanded(t.find("m.a")));
}

TEST(Collapse, TheOpeningStateKeepsWithinItsBudgetAndOpensSingleChildChains)
{
    const auto g = GraphModel::fromJson(transformerGraph(20000));
    const auto t = ModuleTree::build(g);
    const auto s = CollapseState::initial(t, 60);
    const int visible = s.visibleCount(t);
    EXPECT_LE(visible, 60);
    EXPECT_GE(visible, 4);
    // "model" has several children, "model.stages" too: both open at once.
    EXPECT_TRUE(s.expanded(t.find("model")));
    EXPECT_TRUE(s.expanded(t.find("model.stages")));
    EXPECT_EQ(VisibleGraph::build(g, t, s).items().size(), static_cast<std::size_t>(visible));

    // A small graph opens completely.
    const auto small = sample();
    const auto st = ModuleTree::build(small);
    EXPECT_EQ(CollapseState::initial(st, 60), CollapseState::allExpanded(st));
}

TEST(Collapse, TheOpeningShowsTheModelsOutlineEvenBesideManyLooseNodes)
{
    // A training step: the loss and much of the backward belong to no module. 100 loose nodes
    // are over a budget of 80 by themselves; the model still opens one level and more.
    std::vector<N> nodes = {{"x", {}, "", "input"}};
    for (int b = 0; b < 4; ++b)
        for (const char* part : {"attn", "mlp"})
            for (int i = 0; i < 10; ++i)
                nodes.push_back({"f" + std::to_string(nodes.size()), {nodes.back().name},
                    "model.blocks." + std::to_string(b) + "." + part});
    for (int i = 0; i < 100; ++i)
        nodes.push_back({"g" + std::to_string(i), {nodes.back().name}, ""});
    nodes.push_back({"out", {nodes.back().name}, "", "output"});
    const auto g = makeGraph(nodes);
    const auto t = ModuleTree::build(g);
    const auto s = CollapseState::initial(t, 80);
    EXPECT_TRUE(s.expanded(t.find("model")));
    EXPECT_TRUE(s.expanded(t.find("model.blocks")));
    const auto v = VisibleGraph::build(g, t, s);
    EXPECT_LE(static_cast<int>(v.items().size()), 102 + 40);
    EXPECT_GT(static_cast<int>(v.items().size()), 102 + 3);
}
