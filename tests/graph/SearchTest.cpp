// Search by name, op, module, shape or source, and neighbourhoods n levels deep.
#include "GraphTestSupport.h"

#include "graph/GraphSearch.h"
#include "graph/Neighbourhood.h"

#include <gtest/gtest.h>

using namespace ps::graph;
using namespace ps::graphtest;

TEST(Search, FindsByNameOpModuleAndShape)
{
    auto list = nlohmann::json::parse(R"([
        {"name": "x", "kind": "input", "op": "placeholder", "qualname": "tokens", "shape": [8, 32]},
        {"name": "addmm", "op": "call_function", "target": "aten.addmm.default", "inputs": ["x"],
         "shape": [8, 64], "module": {"path": "model.fc1", "type": "Linear"}},
        {"name": "relu", "op": "call_function", "target": "aten.relu.default", "inputs": ["addmm"],
         "shape": [8, 64], "module": {"path": "model.act", "type": "ReLU"}}])");
    const auto g = GraphModel::fromJson({{"node_list", list}});
    EXPECT_EQ(GraphSearch::find(g, "ADDMM", SearchField::Op), std::vector<int>{1});
    EXPECT_EQ(GraphSearch::find(g, "tokens", SearchField::Name), std::vector<int>{0});
    EXPECT_EQ(GraphSearch::find(g, "linear", SearchField::Module), std::vector<int>{1});
    EXPECT_EQ(GraphSearch::find(g, "model.", SearchField::Module), (std::vector<int>{1, 2}));
    EXPECT_EQ(GraphSearch::find(g, "8,64", SearchField::Shape), (std::vector<int>{1, 2}));
    EXPECT_EQ(GraphSearch::find(g, "[8, 32]", SearchField::Shape), std::vector<int>{0});
    EXPECT_EQ(GraphSearch::find(g, "relu"), std::vector<int>{2});  // any field
    EXPECT_TRUE(GraphSearch::find(g, "relu", SearchField::Shape).empty());
    EXPECT_TRUE(GraphSearch::find(g, "  ").empty());
    EXPECT_EQ(GraphSearch::fieldFromName("module"), SearchField::Module);
}

TEST(Neighbourhood, WalksInputsAndUsersToTheGivenDepth)
{
    // a -> b -> c -> d -> e, and a -> d
    const auto g = makeGraph({{"a", {}}, {"b", {"a"}}, {"c", {"b"}}, {"d", {"c", "a"}}, {"e", {"d"}}});
    auto n = Neighbourhood::around(g, {2}, 1);
    EXPECT_EQ(n.upstream, std::vector<int>{1});
    EXPECT_EQ(n.downstream, std::vector<int>{3});
    n = Neighbourhood::around(g, {2}, 2);
    EXPECT_EQ(n.upstream, (std::vector<int>{0, 1}));
    EXPECT_EQ(n.downstream, (std::vector<int>{3, 4}));
    n = Neighbourhood::around(g, {3}, 1);
    EXPECT_EQ(n.upstream, (std::vector<int>{0, 2}));
    n = Neighbourhood::around(g, {0}, 0);
    EXPECT_TRUE(n.upstream.empty() && n.downstream.empty());
}

TEST(Search, FindsBySourceFrameLineOrCode)
{
    const auto g = GraphModel::fromJson(nlohmann::json::parse(R"J({"node_list": [
        {"name": "x", "op": "placeholder"},
        {"name": "convolution", "op": "call_function", "stack": [0, 1, 3]},
        {"name": "batch_norm", "op": "call_function", "stack": [2, 3]},
        {"name": "old", "op": "call_function", "source": {"file": "/home/me/fn.py", "line": 12}}],
      "frames": [
        {"file": "/env/torch/nn/modules/conv.py", "line": 560, "function": "_conv_forward",
         "code": "return F.conv2d(", "owner": "torch", "package": "torch"},
        {"file": "/env/torchvision/models/resnet.py", "line": 268, "function": "_forward_impl",
         "code": "x = self.conv1(x)", "owner": "package", "package": "torchvision"},
        {"file": "/env/torchvision/models/resnet.py", "line": 269, "function": "_forward_impl",
         "code": "x = self.bn1(x)", "owner": "package", "package": "torchvision"},
        {"file": "/home/me/fn.py", "line": 9, "function": "fn", "code": "return model(x)", "owner": "user"}]})J"));
    EXPECT_EQ(GraphSearch::find(g, "resnet.py:268", SearchField::Source), std::vector<int>{1});
    EXPECT_EQ(GraphSearch::find(g, "SELF.BN1", SearchField::Source), std::vector<int>{2});
    EXPECT_EQ(GraphSearch::find(g, "torchvision/models", SearchField::Source), (std::vector<int>{1, 2}));
    EXPECT_EQ(GraphSearch::find(g, "fn.py:", SearchField::Source), (std::vector<int>{1, 2, 3}));
    EXPECT_EQ(GraphSearch::find(g, "fn.py:12", SearchField::Source), std::vector<int>{3}) << "no stacks: its line";
    EXPECT_TRUE(GraphSearch::find(g, "self.conv1", SearchField::Any).empty()) << "any leaves source out";
    EXPECT_EQ(GraphSearch::fieldFromName("source"), SearchField::Source);
}
