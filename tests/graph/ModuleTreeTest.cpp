// The module tree from node module paths.
#include "GraphTestSupport.h"
#include "SyntheticGraph.h"

#include "graph/CollapseState.h"
#include "graph/ModuleTree.h"
#include "graph/VisibleGraph.h"

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

TEST(ModuleTree, ATrainingStepHasAForwardAndABackwardCopyOfEachModule)
{
    using ps::graph::Module;
    using ps::graph::Phase;
    const auto g = trainingStep();
    const auto t = ModuleTree::build(g);
    ASSERT_TRUE(t.phased());
    const int fwd = t.phaseGroup(Phase::Forward), bwd = t.phaseGroup(Phase::Backward);
    ASSERT_GT(fwd, 0);
    ASSERT_GT(bwd, 0);
    EXPECT_EQ(t.module(ModuleTree::root()).children, (std::vector<int>{fwd, bwd}));
    EXPECT_EQ(t.module(fwd).path, "forward:");
    EXPECT_EQ(t.module(fwd).name, "forward");
    EXPECT_EQ(t.module(bwd).path, "backward:");
    EXPECT_EQ(t.module(bwd).role, Module::Role::PhaseGroup);

    // Forward modules keep their model paths, with "forward:" as another name for them.
    const int f0 = t.find("model.0"), f1 = t.find("model.1"), b0 = t.find("backward:model.0"),
              b1 = t.find("backward:model.1");
    ASSERT_TRUE(f0 > 0 && f1 > 0 && b0 > 0 && b1 > 0);
    EXPECT_EQ(t.find("forward:model.0"), f0);
    EXPECT_EQ(t.find("forward:"), fwd);
    EXPECT_EQ(t.module(t.find("model")).parent, fwd);
    EXPECT_EQ(t.module(t.find("backward:model")).parent, bwd);
    EXPECT_EQ(t.module(b0).name, "0");
    EXPECT_EQ(t.module(b0).modelPath, "model.0");
    EXPECT_EQ(t.module(b0).type, "T");
    EXPECT_EQ(t.module(b0).phase, Phase::Backward);
    EXPECT_EQ(t.module(f0).phase, Phase::Forward);
    EXPECT_EQ(t.twin(f0), b0);
    EXPECT_EQ(t.twin(b1), f1);
    EXPECT_EQ(t.twin(fwd), -1);

    // Each copy holds only its phase's nodes; a weight sits in its forward module.
    EXPECT_EQ(t.module(f0).nodes, (std::vector<int>{1, 3}));
    EXPECT_EQ(t.module(f1).nodes, (std::vector<int>{2, 4}));
    EXPECT_EQ(t.module(b1).nodes, (std::vector<int>{7, 8}));
    EXPECT_EQ(t.module(b0).nodes, (std::vector<int>{11}));
    // The loss sits in the forward group, the seed of the backward in the backward group; the
    // user input and the output stay at the root.
    EXPECT_EQ(t.module(fwd).nodes, (std::vector<int>{5}));
    EXPECT_EQ(t.module(bwd).nodes, (std::vector<int>{6}));
    EXPECT_EQ(t.module(ModuleTree::root()).nodes, (std::vector<int>{0, 13}));
    EXPECT_EQ(t.module(ModuleTree::root()).total, static_cast<int>(g.nodes().size()));

    EXPECT_EQ(t.phaseOf(0), Phase::None);
    EXPECT_EQ(t.phaseOf(1), Phase::None);
    EXPECT_EQ(t.phaseOf(5), Phase::Forward);
    EXPECT_EQ(t.phaseOf(6), Phase::Backward);
    EXPECT_EQ(t.phaseOf(13), Phase::None);
    EXPECT_EQ(t.largest(), t.find("model"));  // a model module, not a group
}

TEST(ModuleTree, TheGradientBundleHoldsTheGradientOutputsAndTheirPlumbing)
{
    using ps::graph::Module;
    const auto g = trainingStep();
    const auto t = ModuleTree::build(g);
    const int grads = t.gradients();
    ASSERT_GT(grads, 0);
    EXPECT_EQ(t.module(grads).path, "backward:[gradients]");
    EXPECT_EQ(t.module(grads).name, "gradients");
    EXPECT_EQ(t.module(grads).role, Module::Role::Gradients);
    EXPECT_EQ(t.module(grads).parent, t.phaseGroup(ps::graph::Phase::Backward));
    EXPECT_EQ(t.find("backward:[gradients]"), grads);
    // al1, al0 and the t() that only feeds al1; g1w and g0w compute and stay in their modules.
    EXPECT_EQ(t.module(grads).nodes, (std::vector<int>{9, 10, 12}));
    EXPECT_EQ(t.moduleOf(7), t.find("backward:model.1"));
    EXPECT_EQ(t.moduleOf(11), t.find("backward:model.0"));
}

TEST(ModuleTree, TheSyntheticStepsGradientBundleIsItsPlumbingGradients)
{
    const auto g = ps::graph::GraphModel::fromJson(transformerGraph(2000));
    const auto t = ModuleTree::build(g);
    ASSERT_TRUE(t.phased());
    ASSERT_GT(t.gradients(), 0);
    // Its LayerNorm gradients are getitems feeding the output: bundled; its Linear gradients
    // are an mm and a sum in their modules: they stay there.
    std::vector<int> expected;
    for (std::size_t i = 0; i < g.nodes().size(); ++i) {
        const auto& n = g.nodes()[i];
        if (n.outputRole.rfind("gradient of", 0) != 0)
            continue;
        if (n.target == "getitem")
            expected.push_back(static_cast<int>(i));
        else
            EXPECT_EQ(t.module(t.moduleOf(static_cast<int>(i))).path, "backward:" + n.modulePath) << n.name;
    }
    ASSERT_FALSE(expected.empty());
    EXPECT_EQ(t.nodesIn(t.gradients()), expected);
    EXPECT_EQ(t.module(ModuleTree::root()).total, static_cast<int>(g.nodes().size()));
}

TEST(ModuleTree, WhatIsComputedFromTheBackwardCountsAsBackward)
{
    // An optimizer's update after loss.backward() is recorded as forward; it reads a gradient.
    const auto g = makeGraph({
        {"w", {}, "", "parameter", "m.weight"},
        {"y", {"w"}, "m", "compute", "aten.mul.Tensor", "forward"},
        {"gw", {"y"}, "m", "compute", "aten.mul.Tensor", "backward"},
        {"upd", {"w", "gw"}, "", "compute", "aten.sub.Tensor", "forward"},
        {"out", {"upd"}, "", "output"},
    });
    const auto t = ModuleTree::build(g);
    ASSERT_TRUE(t.phased());
    EXPECT_EQ(t.phaseOf(3), ps::graph::Phase::Backward);
    EXPECT_EQ(t.moduleOf(3), t.phaseGroup(ps::graph::Phase::Backward));
    EXPECT_EQ(t.gradients(), -1);
}

TEST(ModuleTree, AnInferenceGraphHasNoPhaseGroups)
{
    // Recorded as forward everywhere, or not recorded at all: the same tree as before phases.
    std::vector<N> nodes = {
        {"x", {}, "", "input"},
        {"w", {}, "", "parameter", "model.l.0.weight"},
        {"a", {"x", "w"}, "model.l.0"},
        {"b", {"a"}, "model.l.1"},
        {"c", {"b"}, ""},
        {"output", {"c"}, "", "output"},
    };
    const auto plain = ModuleTree::build(makeGraph(nodes));
    for (auto& n : nodes)
        if (n.kind == "compute")
            n.phase = "forward";
    const auto forward = ModuleTree::build(makeGraph(nodes));
    for (const auto* t : {&plain, &forward}) {
        EXPECT_FALSE(t->phased());
        EXPECT_EQ(t->phaseGroup(ps::graph::Phase::Forward), -1);
        EXPECT_EQ(t->gradients(), -1);
        ASSERT_EQ(t->modules().size(), 5u);  // root, model, model.l, model.l.0, model.l.1
        EXPECT_EQ(t->module(ModuleTree::root()).nodes, (std::vector<int>{0, 4, 5}));
        EXPECT_EQ(t->module(t->find("model")).parent, ModuleTree::root());
        EXPECT_EQ(t->module(t->find("model.l.0")).nodes, (std::vector<int>{1, 2}));
        EXPECT_EQ(t->twin(t->find("model")), -1);
    }
    for (std::size_t i = 0; i < plain.modules().size(); ++i) {
        EXPECT_EQ(plain.modules()[i].path, forward.modules()[i].path);
        EXPECT_EQ(plain.modules()[i].nodes, forward.modules()[i].nodes);
    }
}

TEST(ModuleTree, APathSaysItsPhaseAndRole)
{
    using ps::graph::Module;
    using ps::graph::Phase;
    auto d = ModuleTree::describe("backward:model.layers.0");
    EXPECT_EQ(d.phase, Phase::Backward);
    EXPECT_EQ(d.role, Module::Role::Model);
    EXPECT_EQ(d.modelPath, "model.layers.0");
    EXPECT_EQ(d.name, "0");
    d = ModuleTree::describe("model.layers.0");
    EXPECT_EQ(d.phase, Phase::None);
    EXPECT_EQ(d.modelPath, "model.layers.0");
    d = ModuleTree::describe("backward:");
    EXPECT_EQ(d.role, Module::Role::PhaseGroup);
    EXPECT_EQ(d.name, "backward");
    d = ModuleTree::describe("forward:");
    EXPECT_EQ(d.phase, Phase::Forward);
    EXPECT_EQ(d.role, Module::Role::PhaseGroup);
    d = ModuleTree::describe("backward:[gradients]");
    EXPECT_EQ(d.role, Module::Role::Gradients);
    EXPECT_EQ(d.name, "gradients");
}

namespace {

/// A step whose loss is four ops outside every module (log_softmax, nll, mean, alias) and whose
/// backward of it is four more: 0 x, 1 w, 2 y (m), 3-6 the loss, 7 seed, 8-10 its backward,
/// 11 gy (backward m), 12 gw (backward m), 13 out.
ps::graph::GraphModel stepWithALoss()
{
    return makeGraph({
        {"x", {}, "", "input"},
        {"w", {}, "", "parameter", "m.weight"},
        {"y", {"x", "w"}, "m", "compute", "aten.mm.default", "forward"},
        {"ls", {"y"}, "", "compute", "aten._log_softmax.default", "forward"},
        {"nll", {"ls"}, "", "compute", "aten.nll_loss_forward.default", "forward"},
        {"loss", {"nll"}, "", "compute", "aten.mean.default", "forward"},
        {"det", {"loss"}, "", "compute", "aten.alias.default", "forward"},
        {"seed", {"loss"}, "", "compute", "aten.ones_like.default", "backward"},
        {"gnll", {"seed", "ls"}, "", "compute", "aten.nll_loss_backward.default", "backward"},
        {"gls", {"gnll", "ls"}, "", "compute", "aten._log_softmax_backward_data.default", "backward"},
        {"gsum", {"gls"}, "", "compute", "aten.mul.Tensor", "backward"},
        {"gy", {"gsum", "x"}, "m", "compute", "aten.mm.default", "backward"},
        {"gw", {"gy"}, "m", "compute", "aten.t.default", "backward"},
        {"out", {"det", "gw"}, "", "output"},
    });
}

}  // namespace

TEST(ModuleTree, APhasesNodesOutsideEveryModuleAreOneBundleWhenThereAreSeveral)
{
    using ps::graph::Module;
    using ps::graph::Phase;
    const auto g = stepWithALoss();
    const auto t = ModuleTree::build(g);
    ASSERT_TRUE(t.phased());
    const int fwd = t.find("forward:[outside]"), bwd = t.find("backward:[outside]");
    ASSERT_GT(fwd, 0);
    ASSERT_GT(bwd, 0);
    EXPECT_EQ(t.module(fwd).role, Module::Role::Outside);
    EXPECT_EQ(t.module(fwd).parent, t.phaseGroup(Phase::Forward));
    EXPECT_EQ(t.module(fwd).phase, Phase::Forward);
    EXPECT_EQ(t.module(fwd).nodes, (std::vector<int>{3, 4, 5, 6}));
    EXPECT_EQ(t.module(bwd).parent, t.phaseGroup(Phase::Backward));
    EXPECT_EQ(t.module(bwd).phase, Phase::Backward);
    EXPECT_EQ(t.module(bwd).nodes, (std::vector<int>{7, 8, 9, 10}));
    EXPECT_TRUE(t.module(t.phaseGroup(Phase::Forward)).nodes.empty());
    EXPECT_TRUE(t.module(t.phaseGroup(Phase::Backward)).nodes.empty());
    EXPECT_EQ(t.module(ModuleTree::root()).total, static_cast<int>(g.nodes().size()));
    // The path alone says what it is.
    const auto d = ModuleTree::describe("backward:[outside]");
    EXPECT_EQ(d.role, Module::Role::Outside);
    EXPECT_EQ(d.phase, Phase::Backward);
    EXPECT_EQ(ModuleTree::describe("forward:[outside]").phase, Phase::Forward);

    // One loose node (trainingStep's loss, its seed) stays in its group.
    const auto small = ModuleTree::build(trainingStep());
    EXPECT_EQ(small.find("forward:[outside]"), -1);
    EXPECT_EQ(small.find("backward:[outside]"), -1);
}

TEST(ModuleTree, AModuleAppliedTwiceIsAlwaysShownOpen)
{
    // A ResNet block: its ReLU module is applied after bn1 and again after the residual add.
    const auto g = makeGraph({
        {"x", {}, "", "input"},
        {"conv1", {"x"}, "model.block.conv1"},
        {"relu", {"conv1"}, "model.block.relu"},
        {"conv2", {"relu"}, "model.block.conv2"},
        {"add", {"conv2", "x"}, "model.block"},
        {"relu_1", {"add"}, "model.block.relu"},
        {"output", {"relu_1"}, "", "output"},
    });
    const auto t = ModuleTree::build(g);
    const int relu = t.find("model.block.relu"), block = t.find("model.block"), conv2 = t.find("model.block.conv2");
    ASSERT_TRUE(relu > 0 && block > 0 && conv2 > 0);
    EXPECT_TRUE(t.module(relu).reentrant) << "relu -> conv2 -> add -> relu_1 leaves it and comes back";
    EXPECT_FALSE(t.module(block).reentrant);
    EXPECT_FALSE(t.module(conv2).reentrant);

    // Collapsed everywhere but the block, the ReLU's two nodes still show where they compute:
    // no box stands for both, so no cycle goes into the layout.
    ps::graph::CollapseState state(t);
    state.expand(t, block);
    ASSERT_FALSE(state.expanded(relu));
    const auto visible = ps::graph::VisibleGraph::build(g, t, state);
    EXPECT_NE(visible.itemOfNode(2), visible.itemOfNode(5));
    EXPECT_EQ(visible.items()[static_cast<std::size_t>(visible.itemOfNode(2))].kind, ps::graph::VisibleItem::Node);
}
