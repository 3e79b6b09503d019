// The graph model: tolerant of what a report lacks; kernels attached from the lowering.
#include "GraphTestSupport.h"

#include <gtest/gtest.h>

using ps::graph::GraphModel;
using namespace ps::graphtest;

TEST(GraphModel, ToleratesMissingFieldsAndUnknownInputs)
{
    const auto g = GraphModel::fromJson(nlohmann::json::parse(R"({"node_list": [
        {"name": "a"},
        {"name": "b", "inputs": ["a", "nope", 3], "shape": [2, "s0"], "source": {"file": "f.py", "line": 7},
         "module": {"path": "m.0", "type": "Linear"}, "target": "aten.addmm.default",
         "output": [{"index": 0, "role": "gradient", "param": "m.0.weight"}]},
        "garbage",
        {"name": "c", "values": [{"shape": [1]}, {"value": 3}], "inputs": ["b", "c"]}]})"));
    ASSERT_EQ(g.nodes().size(), 3u);
    EXPECT_EQ(g.edgeCount(), 2u);
    EXPECT_EQ(g.nodes()[1].shape, "[2, s0]");
    EXPECT_EQ(g.nodes()[1].shortTarget(), "addmm");
    EXPECT_EQ(g.nodes()[1].moduleType, "Linear");
    EXPECT_EQ(g.nodes()[1].outputRole, "gradient of m.0.weight");
    EXPECT_EQ(g.nodes()[2].shape, "(2 values)");
    EXPECT_EQ(g.nodesAtLine("f.py", 7), std::vector<int>{1});
    EXPECT_TRUE(g.nodesAtLine("other.py", 7).empty());
    EXPECT_EQ(g.moduleTypes().at("m.0"), "Linear");

    EXPECT_TRUE(GraphModel::fromJson(nullptr).empty());
    EXPECT_FALSE(GraphModel::fromJson(nullptr).error().empty());
    const auto broken = GraphModel::fromJson({{"error", "KeyError: 'val'"}});
    EXPECT_EQ(broken.error(), "KeyError: 'val'");
}

TEST(GraphModel, AMarkedInputSaysWhichDimsAreDynamicAndTheirSymbols)
{
    const auto g = GraphModel::fromJson(nlohmann::json::parse(R"({"node_list": [
        {"name": "flat_1", "kind": "input", "qualname": "tokens", "shape": ["u0", 6, "u1"],
         "dynamic": [{"dim": 0, "symbol": "u0", "shape_id": "batch", "min": 2, "max": null},
                     {"dim": 2, "symbol": "u1", "shape_id": null, "min": null, "max": 64}, "junk", {"dim": "x"}]},
        {"name": "flat_2", "kind": "input", "qualname": "mask", "shape": [4, 6]}]})"));
    ASSERT_EQ(g.nodes().size(), 2u);
    EXPECT_EQ(g.nodes()[0].dynamic, "dim 0 = u0 (shape_id batch, min 2), dim 2 = u1 (max 64)");
    EXPECT_EQ(g.nodes()[1].dynamic, "");
}

TEST(GraphModel, KernelsFromTheLoweringNameTheirNodes)
{
    const auto lowering = nlohmann::json::parse(R"({"kernels": [
        {"name": "cpp_fused_relu_0", "nodes": ["b", "c", "ghost"]},
        {"name": "bad"},
        {"name": "cpp_fused_mul_1", "nodes": ["c"]}],
        "extern_calls": [{"name": "extern_kernels.mm", "nodes": ["a"]}]})");
    const auto g = makeGraph({{"a", {}}, {"b", {"a"}}, {"c", {"b"}}, {"d", {"c"}}}, lowering);
    EXPECT_EQ(g.nodes()[0].kernel, "extern_kernels.mm");
    EXPECT_EQ(g.nodes()[1].kernel, "cpp_fused_relu_0");
    EXPECT_EQ(g.nodes()[2].kernel, "cpp_fused_relu_0");  // the first kernel naming it wins
    EXPECT_EQ(g.nodes()[3].kernel, "");
}

TEST(GraphModel, ABakedConstantCarriesItsInvariantAndTheUsersBinding)
{
    const auto g = GraphModel::fromJson(nlohmann::json::parse(R"({"node_list": [
        {"name": "_tensor_constant0", "kind": "constant", "qualname": "scale",
         "binding": {"name": "scale", "origin": "global", "defined": {"file": "s.py", "line": 4},
                     "used": {"file": "s.py", "line": 9}},
         "violation": {"invariant": 1, "rule": "constant-tensor"}},
        {"name": "x", "kind": "input", "violation": "not an object", "binding": 7}]})"));
    ASSERT_EQ(g.nodes().size(), 2u);
    EXPECT_EQ(g.nodes()[0].violation, 1);
    EXPECT_EQ(g.nodes()[0].violationRule, "constant-tensor");
    EXPECT_EQ(g.nodes()[0].binding, "global scale, defined at line 4, used at line 9");
    EXPECT_EQ(g.nodes()[1].violation, 0);
    EXPECT_TRUE(g.nodes()[1].binding.empty());
}

TEST(GraphModel, StacksNameTheirFramesInnermostFirst)
{
    const auto g = GraphModel::fromJson(nlohmann::json::parse(R"J({"node_list": [
        {"name": "x", "op": "placeholder"},
        {"name": "convolution", "op": "call_function", "stack": [0, 1, 2]},
        {"name": "relu", "op": "call_function", "stack": [3, 2]}],
      "frames": [
        {"file": "/env/torch/nn/modules/conv.py", "line": 560, "function": "_conv_forward",
         "code": "return F.conv2d(", "owner": "torch", "package": "torch"},
        {"file": "/env/torchvision/models/resnet.py", "line": 268, "function": "_forward_impl",
         "code": "x = self.conv1(x)", "owner": "package", "package": "torchvision"},
        {"file": "/home/me/fn.py", "line": 9, "function": "fn", "code": "return model(x)", "owner": "user"},
        {"file": "/env/torchvision/models/resnet.py", "line": 270, "function": "_forward_impl",
         "code": null, "owner": "package", "package": "torchvision"}]})J"));
    ASSERT_EQ(g.frames().size(), 4u);
    EXPECT_TRUE(g.stackError().empty());
    EXPECT_TRUE(g.nodes()[0].stack.empty());
    const auto conv = g.stackOf(1);
    ASSERT_EQ(conv.size(), 3u);
    EXPECT_EQ(conv[0]->function, "_conv_forward");
    EXPECT_EQ(conv[1]->file, "/env/torchvision/models/resnet.py");
    EXPECT_EQ(conv[1]->line, 268);
    EXPECT_EQ(conv[1]->code, "x = self.conv1(x)");
    EXPECT_EQ(conv[1]->package, "torchvision");
    EXPECT_TRUE(conv[2]->isUser());
    EXPECT_TRUE(conv[2]->package.empty());
    EXPECT_EQ(g.stackOf(2)[0]->line, 270);
    EXPECT_TRUE(g.stackOf(2)[0]->code.empty());
    EXPECT_TRUE(g.stackOf(99).empty());
}

TEST(GraphModel, BadStacksAreSaidAndLeftOutNeverThrown)
{
    // A report made before stacks were recorded: no frames, no stacks, nothing to say.
    const auto old = GraphModel::fromJson(nlohmann::json::parse(R"J({"node_list": [{"name": "a"}]})J"));
    EXPECT_TRUE(old.frames().empty());
    EXPECT_TRUE(old.stackError().empty());
    EXPECT_TRUE(old.stackOf(0).empty());

    const auto g = GraphModel::fromJson(nlohmann::json::parse(R"J({"node_list": [
        {"name": "a", "stack": [0, 7, -1, "x", 1]},
        {"name": "b", "stack": "nope"}],
      "frames": [{"file": "f.py", "line": 3, "function": "fn", "owner": "user"}, "garbage"]})J"));
    ASSERT_EQ(g.nodes().size(), 2u);
    EXPECT_EQ(g.nodes()[0].stack, (std::vector<int>{0, 1}));
    EXPECT_EQ(g.stackError(), "frame 1 of the graph is not an object");
    EXPECT_TRUE(g.nodes()[1].stack.empty());
    EXPECT_TRUE(g.stackOf(0)[1]->file.empty());

    const auto range = GraphModel::fromJson(nlohmann::json::parse(R"J({"node_list": [{"name": "a", "stack": [0, 5]}],
      "frames": [{"file": "f.py", "line": 3, "function": "fn", "owner": "user"}]})J"));
    EXPECT_EQ(range.nodes()[0].stack, std::vector<int>{0});
    EXPECT_EQ(range.stackError(), "node a's stack names frame 5, but the graph lists 1 frame");
    EXPECT_TRUE(GraphModel::fromJson(nlohmann::json::parse(R"J({"node_list": [], "frames": 3})J"))
                    .stackError()
                    .starts_with("the graph's frames"));
}
