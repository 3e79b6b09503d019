// Lenses: op kinds, modules, kernels, dtype and layout changes, and a collapsed module's colour.
#include "GraphTestSupport.h"

#include "graph/GraphLens.h"
#include "graph/ModuleTree.h"

#include <gtest/gtest.h>

using namespace ps::graph;
using namespace ps::graphtest;

TEST(Lens, OpKinds)
{
    EXPECT_EQ(GraphLens::opKind("aten.addmm.default"), LensCategory::Matmul);
    EXPECT_EQ(GraphLens::opKind("aten.convolution_backward.default"), LensCategory::Convolution);
    EXPECT_EQ(GraphLens::opKind("aten.native_layer_norm_backward.default"), LensCategory::Normalization);
    EXPECT_EQ(GraphLens::opKind("aten.sum.dim_IntList"), LensCategory::Reduction);
    EXPECT_EQ(GraphLens::opKind("aten.permute.default"), LensCategory::View);
    EXPECT_EQ(GraphLens::opKind("aten._to_copy.default"), LensCategory::Memory);
    EXPECT_EQ(GraphLens::opKind("aten.native_dropout.default"), LensCategory::Random);
    EXPECT_EQ(GraphLens::opKind("aten.threshold_backward.default"), LensCategory::Elementwise);
    EXPECT_EQ(GraphLens::opKind("getitem"), LensCategory::Other);
    EXPECT_EQ(GraphLens::opKind(""), std::nullopt);
}

TEST(Lens, EveryFixedCategoryHasOneWordBothWays)
{
    for (int i = 0; i <= static_cast<int>(LensCategory::Unchanged); ++i) {
        const auto c = static_cast<LensCategory>(i);
        EXPECT_FALSE(toString(c).empty()) << i;
        EXPECT_EQ(lensCategoryFromString(toString(c)), c) << toString(c);
    }
    // a name (a module path, a kernel, a source line) is no fixed category
    EXPECT_EQ(lensCategoryFromString("model.layer1.0"), std::nullopt);
    EXPECT_EQ(lensCategoryFromString(""), std::nullopt);
}

TEST(Lens, DtypeAndLayoutChangesAgainstTheInputs)
{
    auto list = nlohmann::json::parse(R"([
        {"name": "x", "op": "placeholder", "kind": "input", "shape": [4, 8], "stride": [8, 1], "dtype": "float32"},
        {"name": "h", "op": "call_function", "target": "aten._to_copy.default", "inputs": ["x"],
         "shape": [4, 8], "stride": [8, 1], "dtype": "float16", "module": {"path": "m", "type": "M"}},
        {"name": "t", "op": "call_function", "target": "aten.t.default", "inputs": ["h"],
         "shape": [8, 4], "stride": [1, 8], "dtype": "float16", "module": {"path": "m", "type": "M"}},
        {"name": "r", "op": "call_function", "target": "aten.relu.default", "inputs": ["t"],
         "shape": [8, 4], "stride": [1, 8], "dtype": "float16", "module": {"path": "m.k", "type": "K"}}])");
    const auto g = GraphModel::fromJson(
        {{"node_list", list}}, nlohmann::json::parse(R"({"kernels": [{"name": "k0", "nodes": ["r"]}]})"));
    const auto t = ModuleTree::build(g);
    EXPECT_EQ(GraphLens::category(g, t, 1, Lens::DtypeLayout), "dtype change");
    EXPECT_EQ(GraphLens::category(g, t, 2, Lens::DtypeLayout), "layout change");
    EXPECT_EQ(GraphLens::category(g, t, 3, Lens::DtypeLayout), "unchanged");
    EXPECT_EQ(GraphLens::category(g, t, 0, Lens::DtypeLayout), "");
    EXPECT_EQ(GraphLens::category(g, t, 3, Lens::Kernel), "k0");
    EXPECT_EQ(GraphLens::category(g, t, 2, Lens::Kernel), "");
    EXPECT_EQ(GraphLens::category(g, t, 3, Lens::Module), "m.k");
    EXPECT_EQ(GraphLens::category(g, t, 0, Lens::Kind), "input");
    EXPECT_EQ(GraphLens::category(g, t, 1, Lens::OpKind), "memory");
    // A collapsed module takes its nodes' most common category; the module lens its own path.
    // h, t and r are one each: the first in graph order to reach the highest count wins.
    EXPECT_EQ(GraphLens::moduleCategory(g, t, t.find("m"), Lens::OpKind), "memory");
    EXPECT_EQ(GraphLens::moduleCategory(g, t, t.find("m"), Lens::Module), "m");
    EXPECT_EQ(GraphLens::moduleCategory(g, t, t.find("m"), Lens::DtypeLayout), "dtype change");
    for (Lens l : GraphLens::all())
        EXPECT_EQ(GraphLens::fromName(GraphLens::name(l)), l);
}

TEST(Lens, AModulesForwardAndBackwardCopiesShareTheModuleColour)
{
    // trainingStep(): model.0 and model.1 each have a forward copy ("model.0") and a backward
    // copy ("backward:model.0"); under the module lens both copies are one category.
    const auto g = trainingStep();
    const auto t = ModuleTree::build(g);
    ASSERT_TRUE(t.phased());
    ASSERT_GT(t.gradients(), 0);
    for (const char* path : {"model.0", "model.1", "model"}) {
        const int forward = t.find(path);
        const int backward = t.find(std::string("backward:") + path);
        ASSERT_GT(forward, 0) << path;
        ASSERT_GT(backward, 0) << path;
        EXPECT_EQ(GraphLens::moduleCategory(g, t, forward, Lens::Module), path);
        EXPECT_EQ(GraphLens::moduleCategory(g, t, backward, Lens::Module), path);
    }
    // Node by node: a0 (forward, model.0) and g0w (backward, model.0); a1 and g1w in model.1.
    EXPECT_EQ(GraphLens::category(g, t, 3, Lens::Module), "model.0");
    EXPECT_EQ(GraphLens::category(g, t, 11, Lens::Module), "model.0");
    EXPECT_EQ(GraphLens::category(g, t, 4, Lens::Module), "model.1");
    EXPECT_EQ(GraphLens::category(g, t, 7, Lens::Module), "model.1");
    // Two modules still differ, and the groups keep colours of their own.
    EXPECT_NE(GraphLens::category(g, t, 3, Lens::Module), GraphLens::category(g, t, 4, Lens::Module));
    EXPECT_EQ(GraphLens::moduleCategory(g, t, t.phaseGroup(Phase::Forward), Lens::Module), "forward:");
    EXPECT_EQ(GraphLens::moduleCategory(g, t, t.phaseGroup(Phase::Backward), Lens::Module), "backward:");
    EXPECT_EQ(GraphLens::moduleCategory(g, t, t.gradients(), Lens::Module), std::string(ModuleTree::kGradientsPath));
    // The loss (in the forward group, no module of the model) and an input (the root): as before.
    EXPECT_EQ(GraphLens::category(g, t, 5, Lens::Module), "forward:");
    EXPECT_EQ(GraphLens::category(g, t, 0, Lens::Module), "");
}

TEST(Lens, SourceGroupsNodesByTheInnermostFrameOfTheUsersCodeOrOfAPackage)
{
    const auto g = GraphModel::fromJson(nlohmann::json::parse(R"J({"node_list": [
        {"name": "x", "op": "placeholder", "kind": "input"},
        {"name": "conv", "op": "call_function", "target": "aten.convolution.default", "inputs": ["x"],
         "module": {"path": "model.conv1", "type": "Conv2d"}, "stack": [0, 1, 3, 4]},
        {"name": "bn", "op": "call_function", "target": "aten.batch_norm.default", "inputs": ["conv"],
         "module": {"path": "model.bn1", "type": "BatchNorm2d"}, "stack": [2, 4]},
        {"name": "old", "op": "call_function", "target": "aten.relu.default", "inputs": ["bn"],
         "source": {"file": "/home/me/fn.py", "line": 12}}],
      "frames": [
        {"file": "/env/torch/nn/modules/conv.py", "line": 560, "function": "_conv_forward", "owner": "torch",
         "package": "torch"},
        {"file": "/env/torchvision/models/resnet.py", "line": 268, "function": "_forward_impl", "owner": "package",
         "package": "torchvision"},
        {"file": "/env/torchvision/models/resnet.py", "line": 269, "function": "_forward_impl", "owner": "package",
         "package": "torchvision"},
        {"file": "/env/torchvision/models/resnet.py", "line": 285, "function": "forward", "owner": "package",
         "package": "torchvision"},
        {"file": "/home/me/fn.py", "line": 9, "function": "fn", "owner": "user"}]})J"));
    const auto t = ModuleTree::build(g);
    EXPECT_EQ(GraphLens::category(g, t, 1, Lens::Source), "fn.py:9");
    EXPECT_EQ(GraphLens::category(g, t, 1, Lens::Source, "torchvision"), "resnet.py:268");
    EXPECT_EQ(GraphLens::category(g, t, 2, Lens::Source, "torchvision"), "resnet.py:269");
    EXPECT_EQ(GraphLens::category(g, t, 1, Lens::Source, "torch"), "conv.py:560");
    EXPECT_EQ(GraphLens::category(g, t, 2, Lens::Source, "torch"), "") << "no torch frame: no colour";
    EXPECT_EQ(GraphLens::category(g, t, 0, Lens::Source), "") << "a placeholder was made by precompile";
    EXPECT_EQ(GraphLens::category(g, t, 3, Lens::Source), "fn.py:12") << "a report without stacks: its line";
    EXPECT_EQ(GraphLens::category(g, t, 3, Lens::Source, "torchvision"), "");
    EXPECT_EQ(GraphLens::sourceScopes(g), (std::vector<std::string>{"torchvision", "torch"}));
    EXPECT_EQ(GraphLens::fromName("source line"), Lens::Source);
}
