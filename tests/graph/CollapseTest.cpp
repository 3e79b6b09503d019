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

namespace {

/// Every edge of `v` that runs from a backward item (band 1) to a forward one (band 0).
std::vector<std::pair<int, int>> backToForward(const VisibleGraph& v)
{
    std::vector<std::pair<int, int>> out;
    const auto& bands = v.bands();
    for (const auto& e : v.edges())
        if (bands[static_cast<std::size_t>(e.from)] > bands[static_cast<std::size_t>(e.to)])
            out.push_back({e.from, e.to});
    return out;
}

}  // namespace

TEST(Collapse, ATrainingStepCollapsesEachModulePerPhaseInDataFlowOrder)
{
    const auto g = trainingStep();
    const auto t = ModuleTree::build(g);
    CollapseState s(t);  // below the root: [forward:] and [backward:]
    auto v = VisibleGraph::build(g, t, s);
    EXPECT_EQ(edgesByName(g, t, v),
        (std::set<std::tuple<std::string, std::string, int>>{{"x", "[forward:]", 1}, {"x", "[backward:]", 1},
            {"[forward:]", "[backward:]", 3}, {"[forward:]", "out", 1}, {"[backward:]", "out", 2}}));
    EXPECT_EQ(v.bands(), (std::vector<int>{0, 0, 1, 1}));  // x, [forward:], [backward:], out

    // Both groups open, every model module collapsed: model.1's forward box and its backward
    // box are two boxes, and every edge between the phases runs forward -> backward.
    s.expand(t, t.phaseGroup(Phase::Forward));
    s.expand(t, t.phaseGroup(Phase::Backward));
    v = VisibleGraph::build(g, t, s);
    EXPECT_EQ(edgesByName(g, t, v),
        (std::set<std::tuple<std::string, std::string, int>>{{"x", "[model]", 1}, {"x", "[backward:model]", 1},
            {"[model]", "loss", 1}, {"[model]", "[backward:model]", 2}, {"loss", "seed", 1}, {"loss", "out", 1},
            {"seed", "[backward:model]", 2}, {"[backward:model]", "[backward:[gradients]]", 2},
            {"[backward:[gradients]]", "out", 2}}));
    EXPECT_TRUE(backToForward(v).empty());

    s.expand(t, t.find("model"));
    s.expand(t, t.find("backward:model"));
    v = VisibleGraph::build(g, t, s);
    const int f1 = v.itemOfModule(t.find("model.1")), b1 = v.itemOfModule(t.find("backward:model.1"));
    ASSERT_GE(f1, 0);
    ASSERT_GE(b1, 0);
    EXPECT_NE(f1, b1);
    EXPECT_EQ(v.bands()[static_cast<std::size_t>(f1)], 0);
    EXPECT_EQ(v.bands()[static_cast<std::size_t>(b1)], 1);
    EXPECT_EQ(v.itemOfNode(4), f1);  // a1, forward
    EXPECT_EQ(v.itemOfNode(8), b1);  // g1, backward
    EXPECT_TRUE(backToForward(v).empty());
    // model.1's forward box comes first in data-flow order: its output reaches the backward box.
    EXPECT_TRUE(edgesByName(g, t, v).count({"[model.1]", "loss", 1}));
    EXPECT_TRUE(edgesByName(g, t, v).count({"seed", "[backward:model.1]", 2}));
}

TEST(Collapse, TheBandsOfATrainingStepPutTheOutputLastAndTheInputsFirst)
{
    const auto g = trainingStep();
    const auto t = ModuleTree::build(g);
    const auto v = VisibleGraph::build(g, t, CollapseState::allExpanded(t));
    ASSERT_EQ(v.bands().size(), v.items().size());
    for (std::size_t i = 0; i < v.items().size(); ++i) {
        const int node = v.items()[i].id;
        EXPECT_EQ(v.bands()[i], node >= 6 ? 1 : 0) << g.nodes()[static_cast<std::size_t>(node)].name;
    }
    // An inference graph: one band.
    const auto small = sample();
    const auto st = ModuleTree::build(small);
    EXPECT_TRUE(VisibleGraph::build(small, st, CollapseState::allExpanded(st)).bands().empty());
}

TEST(Collapse, ATrainingStepOpensBothPhasesMirroredWithTheGradientsShut)
{
    const auto g = GraphModel::fromJson(transformerGraph(3000, 2));
    const auto t = ModuleTree::build(g);
    const auto s = CollapseState::initial(t, 80);
    EXPECT_TRUE(s.expanded(t.phaseGroup(Phase::Forward)));
    EXPECT_TRUE(s.expanded(t.phaseGroup(Phase::Backward)));
    ASSERT_GT(t.gradients(), 0);
    EXPECT_FALSE(s.expanded(t.gradients()));
    EXPECT_TRUE(s.expanded(t.find("model")));
    EXPECT_TRUE(s.expanded(t.find("backward:model")));
    int twins = 0;
    for (int m = 1; m < static_cast<int>(t.modules().size()); ++m)
        if (t.twin(m) >= 0) {
            ++twins;
            EXPECT_EQ(s.expanded(m), s.expanded(t.twin(m))) << t.module(m).path;
        }
    EXPECT_GT(twins, 10);
    const auto v = VisibleGraph::build(g, t, s);
    EXPECT_LE(static_cast<int>(v.items().size()), 80 + 40);
    EXPECT_TRUE(backToForward(v).empty());
    // Fully expanded too: the data never runs from the backward into the forward.
    EXPECT_TRUE(backToForward(VisibleGraph::build(g, t, CollapseState::allExpanded(t))).empty());
}

TEST(Collapse, ATrainingStepOpensWithItsLossBundlesShut)
{
    // The loss outside every module, four ops in each phase: one box per phase at opening.
    std::vector<N> nodes = {{"x", {}, "", "input"}, {"w", {}, "", "parameter", "m.weight"},
        {"y", {"x", "w"}, "m", "compute", "aten.mm.default", "forward"}};
    for (int i = 0; i < 4; ++i)
        nodes.push_back({"l" + std::to_string(i), {nodes.back().name}, "", "compute", "aten.relu.default", "forward"});
    for (int i = 0; i < 4; ++i)
        nodes.push_back({"b" + std::to_string(i), {nodes.back().name}, "", "compute", "aten.relu.default", "backward"});
    nodes.push_back({"gy", {nodes.back().name, "x"}, "m", "compute", "aten.mm.default", "backward"});
    nodes.push_back({"out", {"l3", "gy"}, "", "output"});
    const auto g = makeGraph(nodes);
    const auto t = ModuleTree::build(g);
    const auto s = CollapseState::initial(t, 80);
    const int fwd = t.find("forward:[outside]"), bwd = t.find("backward:[outside]");
    ASSERT_GT(fwd, 0);
    ASSERT_GT(bwd, 0);
    EXPECT_FALSE(s.expanded(fwd));
    EXPECT_FALSE(s.expanded(bwd));
    EXPECT_TRUE(s.expanded(t.find("m")));
    const auto v = VisibleGraph::build(g, t, s);
    EXPECT_EQ(v.itemOfNode(3), v.itemOfNode(6)) << "the forward loss is one box";
    EXPECT_EQ(v.itemOfNode(7), v.itemOfNode(10)) << "its backward is one box";
    EXPECT_NE(v.itemOfNode(3), v.itemOfNode(7));
    EXPECT_TRUE(backToForward(v).empty());
}
