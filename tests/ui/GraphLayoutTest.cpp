// The graph model (tolerant of what a report lacks) and the layered layout (no overlaps,
// every edge pointing down).
#include "UiTestSupport.h"

#include "ui/GraphLayout.h"
#include "ui/GraphModel.h"

#include <gtest/gtest.h>

#include <map>

using namespace ps::uitest;
using ps::ui::GraphLayout;
using ps::ui::GraphModel;

TEST(UiGraphModel, ToleratesMissingFieldsAndUnknownInputs)
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

    EXPECT_TRUE(GraphModel::fromJson(nullptr).empty());
    EXPECT_FALSE(GraphModel::fromJson(nullptr).error().empty());
    const auto broken = GraphModel::fromJson({{"error", "KeyError: 'val'"}});
    EXPECT_EQ(broken.error(), "KeyError: 'val'");
}

TEST(UiGraphLayout, NoBoxesOverlapAndEveryEdgePointsDown)
{
    for (int n : {1, 7, 300, 3000}) {
        const auto g = GraphModel::fromJson(syntheticGraph(n, "s.py", 40));
        ps::ui::LayoutOptions options;
        const auto layout = GraphLayout::compute(g, options);
        ASSERT_EQ(layout.boxes.size(), g.nodes().size());
        std::map<int, std::vector<double>> rows;
        for (std::size_t i = 0; i < g.nodes().size(); ++i) {
            const auto& b = layout.boxes[i];
            EXPECT_GE(b.x, -1e-6);
            EXPECT_LE(b.x + options.nodeWidth, layout.width + 1e-6);
            rows[b.layer].push_back(b.x);
            for (int from : g.nodes()[i].inputs)
                EXPECT_LT(layout.boxes[from].layer, b.layer) << "edge " << from << " -> " << i;
        }
        for (auto& [layer, xs] : rows) {
            std::sort(xs.begin(), xs.end());
            for (std::size_t k = 1; k < xs.size(); ++k)
                EXPECT_GE(xs[k] - xs[k - 1], options.nodeWidth + options.nodeGap - 1e-6) << "layer " << layer;
        }
    }
}

TEST(UiGraphLayout, ParametersSitJustAboveTheirFirstUser)
{
    const auto g = GraphModel::fromJson(syntheticGraph(500, "s.py", 40));
    const auto layout = GraphLayout::compute(g);
    for (std::size_t i = 0; i < g.nodes().size(); ++i) {
        const auto& n = g.nodes()[i];
        if (!n.inputs.empty() || n.users.empty())
            continue;
        int first = 1 << 30;
        for (int u : n.users)
            first = std::min(first, layout.boxes[u].layer);
        EXPECT_EQ(layout.boxes[i].layer, first - 1) << n.name;
    }
}
