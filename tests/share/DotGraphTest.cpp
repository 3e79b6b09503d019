// DotGraph: Graphviz's dot of real captures (tests/fixtures/graphs): every node and edge of the
// graph once, modules as nested clusters as the Graph tab nests them, and any name quoted so
// that it parses (tests/share/test_export_graph.py has Graphviz itself read the files).

#include "share/DotGraph.h"

#include "graph/GraphModel.h"
#include "model/Capture.h"

#include <gtest/gtest.h>

#include <fstream>
#include <regex>
#include <set>
#include <sstream>
#include <string>

using nlohmann::json;
using ps::share::DotGraph;

namespace {

ps::model::Capture dotFixture(const std::string& name)
{
    std::ifstream in(std::string(PS_SOURCE_DIR) + "/tests/fixtures/graphs/" + name);
    EXPECT_TRUE(in) << name;
    const json j = json::parse(in);
    json capture = j.contains("capture") ? j["capture"] : json{{"status", "ok"}, {"graph", j["graph"]}};
    capture["name"] = "fn";
    return ps::model::Capture::fromJson(capture);
}

std::size_t countMatches(const std::string& text, const std::regex& pattern)
{
    return static_cast<std::size_t>(
        std::distance(std::sregex_iterator(text.begin(), text.end(), pattern), std::sregex_iterator()));
}

/// The line that opens cluster `name`, and the indentation depth it sits at.
std::size_t depthOf(const std::string& text, const std::string& cluster)
{
    const std::string open = "subgraph \"cluster_" + cluster + "\" {";
    const auto at = text.find(open);
    if (at == std::string::npos)
        return 0;
    const auto lineStart = text.rfind('\n', at) + 1;
    return (at - lineStart) / 4;
}

TEST(DotGraph, EveryNodeAndEdgeOfAnInferenceGraphInItsModulesCluster)
{
    const auto capture = dotFixture("resnet18_inference.json");
    const auto graph = ps::graph::GraphModel::fromJson(capture.json["graph"]);
    const auto result = DotGraph::write("run 1: resnet18", {{"fn", &capture}});
    ASSERT_EQ(result.captures, std::vector<std::string>{"fn"});
    EXPECT_EQ(result.nodes, graph.nodes().size());
    EXPECT_EQ(result.edges, graph.edgeCount());
    const std::string& dot = result.text;
    EXPECT_EQ(dot.rfind("digraph \"run 1: resnet18\" {\n", 0), 0u);
    EXPECT_EQ(countMatches(dot, std::regex(R"(\n *"[^"]+" \[label=)")), graph.nodes().size());
    EXPECT_EQ(countMatches(dot, std::regex(R"(\n *"[^"]+" -> "[^"]+";)")), graph.edgeCount());
    // Nested as the modules nest: model > model.layer1 > model.layer1.0 > model.layer1.0.conv1.
    EXPECT_EQ(depthOf(dot, "model"), 1u);
    EXPECT_EQ(depthOf(dot, "model.layer1"), 2u);
    EXPECT_EQ(depthOf(dot, "model.layer1.0"), 3u);
    EXPECT_EQ(depthOf(dot, "model.layer1.0.conv1"), 4u);
    EXPECT_NE(dot.find("label=\"model.layer1.0 (BasicBlock)\";"), std::string::npos);
    // A node's label: its name, op, shape and dtype.
    EXPECT_NE(dot.find("\"convolution\" [label=\"convolution\\naten.convolution.default\\n[1, 64, 32, 32] float32\""),
        std::string::npos)
        << dot.substr(dot.find("\"convolution\" ["), 200);
    // The conv1 weight sits in conv1's cluster.
    const auto cluster = dot.find("subgraph \"cluster_model.conv1\"");
    const auto weight = dot.find("\"flat_1\" [");
    ASSERT_NE(cluster, std::string::npos);
    EXPECT_GT(weight, cluster);
    EXPECT_LT(weight, dot.find('}', cluster));
}

TEST(DotGraph, ATrainingStepsPhasesAreClustersWithTheirOwnCopiesOfTheModules)
{
    const auto capture = dotFixture("training_step.json");
    const auto graph = ps::graph::GraphModel::fromJson(capture.json["graph"]);
    const auto result = DotGraph::write("step", {{"fn", &capture}});
    EXPECT_EQ(result.nodes, graph.nodes().size());
    EXPECT_EQ(result.edges, graph.edgeCount());
    EXPECT_EQ(depthOf(result.text, "forward:"), 1u);
    EXPECT_EQ(depthOf(result.text, "backward:"), 1u);
    EXPECT_EQ(depthOf(result.text, "model"), 2u);
    EXPECT_EQ(depthOf(result.text, "backward:model"), 2u);
    EXPECT_EQ(depthOf(result.text, "backward:model.2"), 3u);
    EXPECT_NE(result.text.find("label=\"backward\";"), std::string::npos);
}

TEST(DotGraph, SeveralCapturesAreClustersWithTheirNodesPrefixed)
{
    const auto a = dotFixture("training_step.json");
    const auto b = dotFixture("resnet18_inference.json");
    const auto none = ps::model::Capture::fromJson({{"name", "broken"}, {"status", "error"}});
    const auto result = DotGraph::write("two", {{"step", &a}, {"broken", &none}, {"resnet", &b}});
    EXPECT_EQ(result.captures, (std::vector<std::string>{"step", "resnet"}));
    const auto ga = ps::graph::GraphModel::fromJson(a.json["graph"]);
    const auto gb = ps::graph::GraphModel::fromJson(b.json["graph"]);
    EXPECT_EQ(result.nodes, ga.nodes().size() + gb.nodes().size());
    EXPECT_EQ(result.edges, ga.edgeCount() + gb.edgeCount());
    EXPECT_NE(result.text.find("subgraph \"cluster_step/\" {"), std::string::npos);
    EXPECT_NE(result.text.find("\"step/addmm\" [label="), std::string::npos);
    EXPECT_NE(result.text.find("\"resnet/convolution\" -> \"resnet/native_batch_norm\";"), std::string::npos);
    EXPECT_NE(result.text.find("subgraph \"cluster_resnet/model.layer1\" {"), std::string::npos);
}

TEST(DotGraph, ALensPaintsTheNodesItMeasuredWithTheirValues)
{
    const auto capture = dotFixture("resnet18_inference_profiled.json");
    // The nodes the profile's kernels name (each carries its kernel's time).
    std::set<std::string> names, timed;
    for (const auto& n : capture.json["graph"]["node_list"])
        names.insert(n["name"].get<std::string>());
    std::string slowest;
    double slowestUs = 0;
    for (const auto& k : capture.json["profile"]["kernels"]) {
        std::vector<std::string> known;
        for (const auto& n : k["nodes"])
            if (names.count(n.get<std::string>()))
                known.push_back(n.get<std::string>());
        if (k["self_us"].get<double>() <= 0 || known.empty())
            continue;
        timed.insert(known.begin(), known.end());
        if (known.size() == 1 && k["self_us"].get<double>() > slowestUs)
            slowestUs = k["self_us"].get<double>(), slowest = known[0];
    }
    const auto result = DotGraph::write("r", {{"fn", &capture}}, ps::graph::MeasuredLens::Measure::Time);
    EXPECT_EQ(result.painted, timed.size());
    EXPECT_EQ(countMatches(result.text, std::regex(R"re(\\ntime [0-9.]+ (µs|ms|s)")re")), timed.size());
    ASSERT_FALSE(slowest.empty());
    const auto at = result.text.find("\"" + slowest + "\" [label=");
    ASSERT_NE(at, std::string::npos);
    const std::string line = result.text.substr(at, result.text.find('\n', at) - at);
    EXPECT_NE(line.find("time " + ps::graph::MeasuredLens::format(ps::graph::MeasuredLens::Measure::Time, slowestUs)),
        std::string::npos)
        << line;
    // Modules give their total.
    EXPECT_TRUE(
        std::regex_search(result.text, std::regex(R"re(label="model.layer1 \(Sequential\)\\n[0-9.]+ (µs|ms)";)re")));
    // Without the lens asked for, nothing painted; a lens the run lacks paints nothing.
    EXPECT_EQ(DotGraph::write("r", {{"fn", &capture}}).painted, 0u);
    EXPECT_EQ(DotGraph::write("r", {{"fn", &capture}}, ps::graph::MeasuredLens::Measure::Error).painted, 0u);
}

TEST(DotGraph, QuotingEscapesQuotesBackslashesAndWhatIsNotText)
{
    EXPECT_EQ(DotGraph::quoted("model.layer1.0"), "\"model.layer1.0\"");
    EXPECT_EQ(DotGraph::quoted("a\"b"), "\"a\\\"b\"");
    EXPECT_EQ(DotGraph::quoted("a\\"), "\"a\\\\\"") << "a trailing backslash must not escape the closing quote";
    EXPECT_EQ(DotGraph::quoted("two\nlines"), "\"two\\nlines\"");
    EXPECT_EQ(DotGraph::quoted("esc\x1b[0m"), "\"esc\xef\xbf\xbd[0m\"");
    EXPECT_EQ(DotGraph::quoted("bad\xff"), "\"bad\xef\xbf\xbd\"");
    EXPECT_EQ(DotGraph::quoted("\xc3\xa9t\xc3\xa9 \xe2\x88\x95"), "\"\xc3\xa9t\xc3\xa9 \xe2\x88\x95\"");
    EXPECT_EQ(DotGraph::quoted("\xe2\x88"), "\"\xef\xbf\xbd\xef\xbf\xbd\"") << "a cut sequence";
}

TEST(DotGraph, AHostileNodeNameIsQuotedEverywhereItAppears)
{
    const json graph = {{"node_list",
        {{{"name", "x\"];evil"}, {"op", "placeholder"}, {"target", "x"}, {"kind", "input"}, {"inputs", json::array()}},
            {{"name", "y\\"}, {"op", "call_function"}, {"target", "aten.relu.default"}, {"kind", "compute"},
                {"inputs", {"x\"];evil"}}, {"module", {{"path", "m.\"q\""}, {"type", "T"}}}},
            {{"name", "output"}, {"op", "output"}, {"target", "output"}, {"kind", "output"}, {"inputs", {"y\\"}}}}}};
    const auto capture = ps::model::Capture::fromJson({{"name", "fn"}, {"status", "ok"}, {"graph", graph}});
    const auto result = DotGraph::write("hostile \"run\"", {{"fn", &capture}});
    EXPECT_EQ(result.nodes, 3u);
    EXPECT_EQ(result.edges, 2u);
    EXPECT_NE(result.text.find("\"x\\\"];evil\" -> \"y\\\\\";"), std::string::npos) << result.text;
    EXPECT_NE(result.text.find("subgraph \"cluster_m.\\\"q\\\"\" {"), std::string::npos) << result.text;
    EXPECT_EQ(result.text.rfind("digraph \"hostile \\\"run\\\"\" {", 0), 0u);
}

}  // namespace
