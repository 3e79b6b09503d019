// PageGraph::toJson: what the HTML report's graph panel reads for one capture, on real captures
// (tests/fixtures/graphs): the graph section unchanged, kernels from the lowering, the lenses as
// the window measures them, and an opening state that the page's engine rebuilds exactly.

#include "share/PageGraph.h"

#include "graph/CollapseState.h"
#include "graph/GraphModel.h"
#include "graph/MeasuredLens.h"
#include "graph/ModuleTree.h"
#include "graph/VisibleGraph.h"
#include "model/Capture.h"

#include <gtest/gtest.h>

#include <fstream>
#include <set>
#include <string>

using nlohmann::json;
using namespace ps;

namespace {

json readFixture(const std::string& name)
{
    std::ifstream in(std::string(PS_SOURCE_DIR) + "/tests/fixtures/graphs/" + name);
    EXPECT_TRUE(in) << name;
    return json::parse(in);
}

/// The fixture as a capture: either a stored capture, or a bare graph section.
model::Capture captureOf(const std::string& name)
{
    const json j = readFixture(name);
    if (j.contains("capture"))
        return model::Capture::fromJson(j["capture"]);
    return model::Capture::fromJson(json{{"name", "fixture"}, {"status", "ok"}, {"graph", j["graph"]}});
}

const json* lensNamed(const json& page, const std::string& name)
{
    for (const auto& lens : page["lenses"])
        if (lens["name"] == name)
            return &lens;
    return nullptr;
}

/// What the page does with "opening": everything collapsed, then each listed module expanded.
graph::CollapseState replayOpening(const graph::ModuleTree& tree, const json& opening)
{
    graph::CollapseState state(tree);
    for (const auto& path : opening["expanded"]) {
        const int m = tree.find(path.get<std::string>());
        EXPECT_GT(m, 0) << path;
        if (m > 0)
            state.expand(tree, m);
    }
    return state;
}

}  // namespace

TEST(PageGraph, NoGraphIsNull)
{
    EXPECT_TRUE(share::PageGraph::toJson(model::Capture::fromJson(json{{"name", "f"}, {"status", "ok"}})).is_null());
    EXPECT_TRUE(share::PageGraph::toJson(
        model::Capture::fromJson(json{{"name", "f"}, {"status", "ok"}, {"graph", {{"node_list", json::array()}}}}))
                    .is_null());
}

TEST(PageGraph, ProfiledResnetHasKernelsTimeAndMemoryAndItsOpeningReplays)
{
    const auto capture = captureOf("resnet18_inference_profiled.json");
    const json page = share::PageGraph::toJson(capture);
    ASSERT_TRUE(page.is_object());
    const json& section = capture.json["graph"];
    EXPECT_EQ(page["graph"], section);
    EXPECT_EQ(page["nodes"], section["node_list"].size());
    EXPECT_EQ(page["error"], "");

    const auto g = graph::GraphModel::fromJson(section, capture.json["lowering"]);
    // Kernels: exactly the nodes the lowering names, with their kernel.
    std::size_t withKernel = 0;
    for (const auto& n : g.nodes())
        if (!n.kernel.empty()) {
            ++withKernel;
            EXPECT_EQ(page["kernels"].value(n.name, ""), n.kernel) << n.name;
        }
    EXPECT_GT(withKernel, 20u);
    EXPECT_EQ(page["kernels"].size(), withKernel);

    // The time lens: each node's value is what MeasuredLens gives the window, with its words.
    const json* time = lensNamed(page, "time");
    ASSERT_NE(time, nullptr);
    ASSERT_NE(lensNamed(page, "memory"), nullptr);
    EXPECT_EQ(lensNamed(page, "error"), nullptr);  // not verified per node
    std::vector<graph::MeasuredLens::Kernel> kernels;
    for (const auto& k : capture.profile->kernels)
        kernels.push_back({k.name, k.nodes, k.selfUs});
    const auto lens = graph::MeasuredLens::time(g, kernels);
    std::size_t valued = 0;
    for (int i = 0; i < static_cast<int>(g.nodes().size()); ++i)
        valued += lens.node(i) ? 1 : 0;
    ASSERT_EQ((*time)["nodes"].size(), valued);
    ASSERT_GT(valued, 0u);
    for (const auto& entry : (*time)["nodes"]) {
        const int i = entry[0];
        EXPECT_DOUBLE_EQ(entry[1].get<double>(), *lens.node(i));
        EXPECT_EQ(entry[2], graph::MeasuredLens::format(graph::MeasuredLens::Measure::Time, *lens.node(i)));
    }
    EXPECT_FALSE((*time)["kernels"].empty());
    // The model's module total is every node's time.
    const auto tree = graph::ModuleTree::build(g);
    bool sawModel = false;
    for (const auto& m : (*time)["modules"])
        if (m[0] == "model") {
            sawModel = true;
            EXPECT_DOUBLE_EQ(m[1].get<double>(), *lens.module(tree, tree.find("model")));
        }
    EXPECT_TRUE(sawModel);

    // Opening: the window's initial state, which the page rebuilds by expanding the paths.
    const auto initial = graph::CollapseState::initial(tree, graph::CollapseState::kOpeningBudget);
    EXPECT_EQ(page["opening"]["budget"], graph::CollapseState::kOpeningBudget);
    EXPECT_FALSE(page["opening"]["expanded"].empty());
    EXPECT_TRUE(replayOpening(tree, page["opening"]) == initial);
    // Its layout travels with it: one box per item the opening state shows, each sized as the
    // window sizes it (a node 176 wide, a collapsed module 214).
    const auto visible = graph::VisibleGraph::build(g, tree, initial);
    const json& layout = page["opening"]["layout"];
    ASSERT_GT(layout.size(), 4 + 6 * visible.items().size());
    EXPECT_EQ(layout[0].get<double>(), static_cast<double>(visible.items().size()));
    for (std::size_t i = 0; i < visible.items().size(); ++i) {
        const bool module = visible.items()[i].kind == graph::VisibleItem::Module;
        EXPECT_EQ(layout[4 + 6 * i].get<double>(), module ? 1.0 : 0.0);
        EXPECT_EQ(layout[4 + 6 * i + 1].get<double>(), visible.items()[i].id);
        EXPECT_EQ(layout[4 + 6 * i + 4].get<double>(), module ? graph::VisibleGraph::kModuleWidth : 176.0);
    }
}

TEST(PageGraph, TrainingStepWithDriftHasErrorLensAndPhasedOpening)
{
    const auto capture = captureOf("resnet18_training_drift.json");
    const json page = share::PageGraph::toJson(capture);
    ASSERT_TRUE(page.is_object());
    const json* error = lensNamed(page, "error");
    ASSERT_NE(error, nullptr);
    EXPECT_FALSE((*error)["nodes"].empty());
    EXPECT_FALSE((*error)["leaves"].empty());  // the drift leaves eager's band somewhere
    const auto g = graph::GraphModel::fromJson(capture.json["graph"], capture.json["lowering"]);
    const auto tree = graph::ModuleTree::build(g);
    ASSERT_TRUE(tree.phased());
    std::set<std::string> expanded;
    for (const auto& p : page["opening"]["expanded"])
        expanded.insert(p.get<std::string>());
    EXPECT_TRUE(expanded.count("forward:"));
    EXPECT_TRUE(expanded.count("backward:"));
    EXPECT_FALSE(expanded.count(std::string(graph::ModuleTree::kGradientsPath)));
    EXPECT_TRUE(replayOpening(tree, page["opening"])
        == graph::CollapseState::initial(tree, graph::CollapseState::kOpeningBudget));
}

TEST(PageGraph, BareGraphSectionHasMemoryLensOnly)
{
    const json page = share::PageGraph::toJson(captureOf("training_step.json"));
    ASSERT_TRUE(page.is_object());
    EXPECT_TRUE(page["kernels"].empty());
    ASSERT_EQ(page["lenses"].size(), 1u);
    EXPECT_EQ(page["lenses"][0]["name"], "memory");
}
