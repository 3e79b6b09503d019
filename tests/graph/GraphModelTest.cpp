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
