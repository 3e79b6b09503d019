// ModelExplorerGraph: the Model Explorer graph JSON and node data of real captures
// (tests/fixtures/graphs), checked against the report they came from: every node once where it
// belongs, every edge of the capture an incoming edge of exactly one graph, modules as
// namespaces, tensor layouts as output metadata, the lenses' values as the window measures them.

#include "share/ModelExplorerGraph.h"

#include "model/Capture.h"

#include <gtest/gtest.h>

#include <cmath>
#include <fstream>
#include <map>
#include <set>
#include <string>

using nlohmann::json;
using ps::share::ModelExplorerGraph;

namespace {

json readGraphFixture(const std::string& name)
{
    std::ifstream in(std::string(PS_SOURCE_DIR) + "/tests/fixtures/graphs/" + name);
    EXPECT_TRUE(in) << name;
    return json::parse(in);
}

/// The fixture as a capture named "fn": a stored capture, or a bare graph section.
ps::model::Capture fixtureCapture(const std::string& name)
{
    json j = readGraphFixture(name);
    json capture = j.contains("capture") ? j["capture"] : json{{"status", "ok"}, {"graph", j["graph"]}};
    capture["name"] = "fn";
    return ps::model::Capture::fromJson(capture);
}

std::string attr(const json& node, const std::string& key)
{
    for (const auto& a : node["attrs"])
        if (a["key"] == key)
            return a["value"].get<std::string>();
    return {};
}

const json& nodeIn(const json& graph, const std::string& id)
{
    for (const auto& n : graph["nodes"])
        if (n["id"] == id)
            return n;
    static const json none;
    ADD_FAILURE() << "no node " << id << " in " << graph["id"];
    return none;
}

/// (source, target) of every edge of the capture's report, and of the graphs' incoming edges.
std::multiset<std::pair<std::string, std::string>> reportEdges(const ps::model::Capture& c)
{
    std::multiset<std::pair<std::string, std::string>> out;
    for (const auto& n : c.json["graph"]["node_list"])
        for (const auto& in : n["inputs"])
            out.insert({in.get<std::string>(), n["name"].get<std::string>()});
    return out;
}

std::multiset<std::pair<std::string, std::string>> exportedEdges(const json& collection)
{
    std::multiset<std::pair<std::string, std::string>> out;
    for (const auto& g : collection["graphs"])
        for (const auto& n : g["nodes"])
            if (n.contains("incomingEdges"))
                for (const auto& e : n["incomingEdges"])
                    out.insert({e["sourceNodeId"].get<std::string>(), n["id"].get<std::string>()});
    return out;
}

TEST(ModelExplorerGraph, AnInferenceGraphIsOneGraphWithModulesAsNamespaces)
{
    const auto capture = fixtureCapture("resnet18_inference.json");
    ModelExplorerGraph explorer("run 1: resnet18");
    const auto ids = explorer.add(capture, "fn");
    ASSERT_EQ(ids, std::vector<std::string>{"fn"});
    const json c = explorer.collection();
    EXPECT_EQ(c["label"], "run 1: resnet18");
    ASSERT_EQ(c["graphs"].size(), 1u);
    const json& g = c["graphs"][0];
    EXPECT_EQ(g["id"], "fn");

    const auto& list = capture.json["graph"]["node_list"];
    ASSERT_EQ(g["nodes"].size(), list.size());
    std::set<std::string> ids2;
    for (const auto& n : g["nodes"])
        EXPECT_TRUE(ids2.insert(n["id"].get<std::string>()).second) << "duplicate id " << n["id"];
    EXPECT_EQ(exportedEdges(c), reportEdges(capture));

    // Each computed node sits in its module's namespace; parameters with their module.
    for (const auto& n : list) {
        const json& node = nodeIn(g, n["name"]);
        if (n["module"].is_object() && n["module"]["path"].is_string()) {
            std::string expected = n["module"]["path"];
            for (auto& ch : expected)
                ch = ch == '.' ? '/' : ch;
            EXPECT_EQ(node["namespace"], expected) << n["name"];
        }
        if (n.contains("shape")) {
            ASSERT_EQ(node["outputsMetadata"].size(), 1u) << n["name"];
            std::string shape = "[";
            for (std::size_t k = 0; k < n["shape"].size(); ++k)
                shape += (k ? ", " : "") + n["shape"][k].dump();
            shape += "]";
            std::map<std::string, std::string> meta;
            for (const auto& a : node["outputsMetadata"][0]["attrs"])
                meta[a["key"]] = a["value"];
            EXPECT_EQ(meta["shape"], shape) << n["name"];
            EXPECT_EQ(meta["dtype"], n["dtype"]) << n["name"];
            EXPECT_FALSE(meta["stride"].empty()) << n["name"];
        }
    }
    EXPECT_EQ(nodeIn(g, "flat_1")["namespace"], "model/conv1") << "model.conv1.weight lives in model.conv1";
    EXPECT_EQ(nodeIn(g, "convolution")["label"], "aten.convolution");
    EXPECT_EQ(attr(nodeIn(g, "convolution"), "module"), "model.conv1 (Conv2d)");
    EXPECT_EQ(g["groupNodeAttributes"]["model/layer1/0"]["type"], "BasicBlock");
    EXPECT_EQ(g["groupNodeAttributes"]["model/layer1/0"]["module"], "model.layer1.0");
    EXPECT_EQ(g["groupNodeAttributes"][""]["nodes"], std::to_string(list.size()));
    // This fixture predates stacks: no source from frames, the user's line still there.
    EXPECT_TRUE(attr(nodeIn(g, "convolution"), "stack").empty());
}

TEST(ModelExplorerGraph, ATrainingStepIsAForwardAndABackwardGraphSharingNoEdge)
{
    const auto capture = fixtureCapture("training_step.json");
    ModelExplorerGraph explorer("step");
    const auto ids = explorer.add(capture, "fn");
    ASSERT_EQ(ids, (std::vector<std::string>{"fn forward", "fn backward"}));
    const json c = explorer.collection();
    const json& forward = c["graphs"][0];
    const json& backward = c["graphs"][1];
    EXPECT_EQ(forward["groupNodeAttributes"][""]["phase"], "forward");
    EXPECT_EQ(backward["groupNodeAttributes"][""]["phase"], "backward");

    // Every edge of the step is an incoming edge of exactly one graph, and every node is owned
    // (not a saved copy) by at least one.
    EXPECT_EQ(exportedEdges(c), reportEdges(capture));
    std::set<std::string> owned;
    for (const auto& g : c["graphs"]) {
        std::set<std::string> here;
        for (const auto& n : g["nodes"]) {
            EXPECT_TRUE(here.insert(n["id"].get<std::string>()).second) << "duplicate " << n["id"] << " in " << g["id"];
            if (n["namespace"] != "[saved from forward]")
                owned.insert(n["id"].get<std::string>());
            // An edge's source is a node of the same graph.
            for (const auto& e : n.value("incomingEdges", json::array()))
                EXPECT_NO_FATAL_FAILURE(nodeIn(g, e["sourceNodeId"]));
        }
    }
    EXPECT_EQ(owned.size(), capture.json["graph"]["node_list"].size());

    EXPECT_EQ(nodeIn(forward, "addmm")["namespace"], "model/0");
    EXPECT_EQ(nodeIn(forward, "mse_loss")["namespace"], "[outside]");
    EXPECT_EQ(attr(nodeIn(forward, "addmm"), "phase"), "forward");
    EXPECT_EQ(nodeIn(backward, "mm")["namespace"], "model/2");
    EXPECT_EQ(attr(nodeIn(backward, "mm"), "phase"), "backward");
    EXPECT_EQ(nodeIn(backward, "output")["label"], "output");
    // The backward reads the forward's activations: there as saved copies, in the forward too.
    const json& saved = nodeIn(backward, "tanh");
    EXPECT_EQ(saved["namespace"], "[saved from forward]");
    EXPECT_FALSE(saved.contains("incomingEdges"));
    EXPECT_EQ(attr(saved, "saved_from"), "fn forward, model/1");
    EXPECT_EQ(nodeIn(forward, "tanh")["namespace"], "model/1");
    EXPECT_TRUE(backward["groupNodeAttributes"].contains("[saved from forward]"));
    // Inputs and parameters are in every graph that reads them, never saved copies: x feeds
    // the forward's first Linear and the backward's gradient of its weight.
    EXPECT_EQ(nodeIn(forward, "flat_5")["namespace"], "");
    EXPECT_EQ(nodeIn(backward, "flat_5")["namespace"], "");
    for (const auto& n : backward["nodes"]) {
        if (n["namespace"] == "[saved from forward]") {
            EXPECT_NE(attr(n, "op"), "placeholder") << n["id"];
        }
    }
}

TEST(ModelExplorerGraph, SourceLinesComeFromTheNodesStack)
{
    const auto capture = fixtureCapture("resnet18_inference_profiled.json");
    ModelExplorerGraph explorer("r");
    explorer.add(capture, "fn");
    const json g = explorer.collection()["graphs"][0];
    const json& conv = nodeIn(g, "convolution");
    // The innermost frame outside torch: torchvision's line that called conv1.
    EXPECT_NE(attr(conv, "source").find("torchvision/models/resnet.py:268"), std::string::npos) << attr(conv, "source");
    EXPECT_EQ(attr(conv, "source_code"), "x = self.conv1(x)");
    EXPECT_NE(attr(conv, "stack").find("torch/nn/modules/conv.py:"), std::string::npos);
    EXPECT_FALSE(attr(conv, "kernel").empty()) << "inductor's lowering names the kernel computing it";
}

TEST(ModelExplorerGraph, TheProfilesTimeAndTheGraphsMemoryAreNodeData)
{
    const auto capture = fixtureCapture("resnet18_inference_profiled.json");
    ModelExplorerGraph explorer("r");
    explorer.add(capture, "fn");
    const auto data = explorer.nodeData();
    ASSERT_EQ(data.size(), 2u) << "time and memory; no drift was localised";
    EXPECT_EQ(data[0].lens, "time");
    EXPECT_EQ(data[1].lens, "memory");
    const json& time = data[0].data["fn"];
    EXPECT_EQ(time["gradient"].size(), 2u);
    EXPECT_EQ(time["gradient"][0]["stop"], 0);
    EXPECT_EQ(time["gradient"][1]["stop"], 1);
    // Each node carries the time of the kernel(s) computing it: a fused kernel's time on each node
    // of its group.
    std::set<std::string> names;
    for (const auto& n : capture.json["graph"]["node_list"])
        names.insert(n["name"].get<std::string>());
    std::map<std::string, double> expected;
    for (const auto& k : capture.json["profile"]["kernels"]) {
        std::set<std::string> group;
        for (const auto& n : k["nodes"])
            if (names.count(n.get<std::string>()))
                group.insert(n.get<std::string>());
        for (const auto& n : group)
            expected[n] += k["self_us"].get<double>();
    }
    ASSERT_FALSE(expected.empty());
    EXPECT_EQ(time["results"].size(), expected.size());
    for (const auto& [id, result] : time["results"].items()) {
        ASSERT_TRUE(expected.count(id)) << id;
        EXPECT_NEAR(result["value"].get<double>(), expected[id], expected[id] * 1e-9) << id;
    }
    // Memory: a convolution's output, 4 bytes per element of its shape.
    const json& memory = data[1].data["fn"]["results"];
    std::int64_t elements = 1;
    for (const auto& n : capture.json["graph"]["node_list"])
        if (n["name"] == "convolution")
            for (const auto& s : n["shape"])
                elements *= s.get<std::int64_t>();
    EXPECT_EQ(memory["convolution"]["value"].get<double>(), static_cast<double>(elements * 4));
    EXPECT_FALSE(memory.contains("flat_1")) << "parameters are held, not allocated";
}

TEST(ModelExplorerGraph, TheLocalisedDriftIsErrorNodeDataPerPhase)
{
    const auto capture = fixtureCapture("resnet18_training_drift.json");
    ModelExplorerGraph explorer("drift");
    explorer.add(capture, "fn");
    const auto data = explorer.nodeData();
    ASSERT_EQ(data.size(), 2u);
    EXPECT_EQ(data[0].lens, "error");
    const json& error = data[0].data;
    ASSERT_TRUE(error.contains("fn forward") && error.contains("fn backward")) << error.dump().substr(0, 200);
    std::size_t valued = 0;
    for (const auto& n : capture.json["verify"]["accuracy"]["nodes"])
        valued += n["error"].is_number() && n["eager_error"].is_number();
    EXPECT_EQ(error["fn forward"]["results"].size() + error["fn backward"]["results"].size(), valued);
    // Each value sits in the graph that owns its node.
    const json c = explorer.collection();
    for (const auto& g : c["graphs"])
        for (const auto& [id, result] : error[g["id"].get<std::string>()]["results"].items())
            EXPECT_NE(nodeIn(g, id)["namespace"], "[saved from forward]") << id;
}

TEST(ModelExplorerGraph, AGetitemsEdgeNamesTheTupleElementItTakes)
{
    const auto capture = fixtureCapture("resnet18_training_drift.json");
    ModelExplorerGraph explorer("drift");
    explorer.add(capture, "fn");
    const json forward = explorer.collection()["graphs"][0];
    // native_batch_norm gives (output, mean, invstd): three outputs, each with its layout.
    const json& bn = nodeIn(forward, "native_batch_norm");
    ASSERT_EQ(bn["outputsMetadata"].size(), 3u);
    EXPECT_EQ(bn["outputsMetadata"][1]["id"], "1");
    // getitem takes the output, whose layout is the only one of its kind: element 0, said.
    const json& out = nodeIn(forward, "getitem");
    EXPECT_EQ(out["incomingEdges"][0]["sourceNodeOutputId"], "0");
    EXPECT_EQ(attr(out, "item"), "0");
    // mean and invstd share a layout and this report predates "item": said, not guessed.
    EXPECT_EQ(
        attr(nodeIn(forward, "getitem_1"), "item"), "one of 1, 2 (the same layout; the report does not say which)");

    // Where the worker recorded the element, it is the edge's output.
    json graph = {{"node_list",
        {{{"name", "x"}, {"op", "placeholder"}, {"target", "x"}, {"kind", "input"}, {"inputs", json::array()},
             {"shape", {4, 3}}, {"stride", {3, 1}}, {"dtype", "float32"}},
            {{"name", "split"}, {"op", "call_function"}, {"target", "aten.split.Tensor"}, {"kind", "compute"},
                {"inputs", {"x"}},
                {"values",
                    {{{"shape", {2, 3}}, {"stride", {3, 1}}, {"dtype", "float32"}},
                        {{"shape", {2, 3}}, {"stride", {3, 1}}, {"dtype", "float32"}}}}},
            {{"name", "b"}, {"op", "call_function"}, {"target", "operator.getitem"}, {"kind", "compute"},
                {"inputs", {"split"}}, {"item", 1}, {"shape", {2, 3}}, {"stride", {3, 1}}, {"dtype", "float32"}},
            {{"name", "output"}, {"op", "output"}, {"target", "output"}, {"kind", "output"}, {"inputs", {"b"}}}}}};
    ModelExplorerGraph recorded("split");
    recorded.add(ps::model::Capture::fromJson({{"name", "fn"}, {"status", "ok"}, {"graph", graph}}), "fn");
    const json g = recorded.collection()["graphs"][0];
    EXPECT_EQ(nodeIn(g, "b")["incomingEdges"][0]["sourceNodeOutputId"], "1");
    EXPECT_EQ(attr(nodeIn(g, "b"), "item"), "1");
    EXPECT_EQ(nodeIn(g, "split")["outputsMetadata"].size(), 2u);
    // Without it, the same layouts leave the element unsaid.
    graph["node_list"][2].erase("item");
    ModelExplorerGraph unrecorded("split");
    unrecorded.add(ps::model::Capture::fromJson({{"name", "fn"}, {"status", "ok"}, {"graph", graph}}), "fn");
    EXPECT_EQ(attr(nodeIn(unrecorded.collection()["graphs"][0], "b"), "item"),
        "one of 0, 1 (the same layout; the report does not say which)");
}

TEST(ModelExplorerGraph, ACaptureWithoutAGraphAddsNothing)
{
    ModelExplorerGraph explorer("none");
    EXPECT_TRUE(explorer.add(ps::model::Capture::fromJson({{"name", "fn"}, {"status", "error"}}), "fn").empty());
    EXPECT_TRUE(explorer.collection()["graphs"].empty());
    EXPECT_TRUE(explorer.nodeData().empty());
}

TEST(ModelExplorerGraph, NamespacesAreModulePathsWithSlashes)
{
    EXPECT_EQ(ModelExplorerGraph::namespaceOf("model.layer1.0.conv1"), "model/layer1/0/conv1");
    EXPECT_EQ(ModelExplorerGraph::namespaceOf("model"), "model");
    EXPECT_EQ(ModelExplorerGraph::namespaceOf("model.a/b"), "model/a\u2215b");
}

}  // namespace
