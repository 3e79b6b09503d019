// The layered layout: no overlapping boxes, every edge pointing down (layer order), cycles
// from collapsed modules survived, and the cache's binary form.
#include "GraphTestSupport.h"
#include "SyntheticGraph.h"

#include "graph/CollapseState.h"
#include "graph/LayeredLayout.h"
#include "graph/ModuleTree.h"
#include "graph/VisibleGraph.h"

#include <gtest/gtest.h>

#include <map>

using namespace ps::graph;
using namespace ps::graphtest;

namespace {

void expectNoOverlap(const LayoutResult& layout, double gap)
{
    std::map<int, std::vector<const NodeBox*>> rows;
    for (const auto& b : layout.boxes) {
        EXPECT_GE(b.x, -1e-6);
        EXPECT_LE(b.x + b.w, layout.width + 1e-6);
        EXPECT_LE(b.y + b.h, layout.height + 1e-6);
        rows[b.layer].push_back(&b);
    }
    for (auto& [layer, boxes] : rows) {
        std::sort(boxes.begin(), boxes.end(), [](auto* a, auto* b) { return a->x < b->x; });
        for (std::size_t k = 1; k < boxes.size(); ++k)
            ASSERT_GE(boxes[k]->x - (boxes[k - 1]->x + boxes[k - 1]->w), gap - 1e-6) << "layer " << layer;
        for (const auto* b : boxes)
            EXPECT_DOUBLE_EQ(b->y, boxes.front()->y);
    }
}

}  // namespace

TEST(Layout, NoBoxesOverlapAndEveryEdgePointsDown)
{
    for (int n : {1, 7, 300, 3000}) {
        const auto g = GraphModel::fromJson(transformerGraph(n));
        LayoutOptions options;
        const auto layout = LayeredLayout::compute(g, options);
        ASSERT_EQ(layout.boxes.size(), g.nodes().size());
        expectNoOverlap(layout, options.nodeGap);
        for (std::size_t i = 0; i < g.nodes().size(); ++i)
            for (int from : g.nodes()[i].inputs)
                ASSERT_LT(layout.boxes[static_cast<std::size_t>(from)].layer, layout.boxes[i].layer)
                    << "edge " << from << " -> " << i;
    }
}

TEST(Layout, BoxesOfManyWidthsDoNotOverlap)
{
    const auto g = GraphModel::fromJson(transformerGraph(3000));
    const auto t = ModuleTree::build(g);
    auto s = CollapseState::initial(t, 200);
    const auto v = VisibleGraph::build(g, t, s);
    LayoutInput in{v.inputLists(), {}};
    for (const auto& item : v.items())
        in.widths.push_back(item.kind == VisibleItem::Module ? 260.0 : 150.0 + (item.id % 7) * 10);
    LayoutOptions options;
    const auto layout = LayeredLayout::compute(in, options);
    ASSERT_EQ(layout.boxes.size(), v.items().size());
    expectNoOverlap(layout, options.nodeGap);
    for (std::size_t i = 0; i < layout.boxes.size(); ++i)
        EXPECT_DOUBLE_EQ(layout.boxes[i].w, in.widths[i]);
}

TEST(Layout, ParametersSitJustAboveTheirFirstUser)
{
    const auto g = GraphModel::fromJson(transformerGraph(500));
    const auto layout = LayeredLayout::compute(g);
    for (std::size_t i = 0; i < g.nodes().size(); ++i) {
        const auto& n = g.nodes()[i];
        if (!n.inputs.empty() || n.users.empty())
            continue;
        int first = 1 << 30;
        for (int u : n.users)
            first = std::min(first, layout.boxes[static_cast<std::size_t>(u)].layer);
        EXPECT_EQ(layout.boxes[i].layer, first - 1) << n.name;
    }
}

TEST(Layout, ACycleIsBrokenAtItsEarliestItem)
{
    // 0 -> 1 -> 2 -> 1 (a module box read and feeding a node outside it), 2 -> 3.
    LayoutInput in{{{}, {0, 2}, {1}, {2}}, {}};
    const auto layout = LayeredLayout::compute(in);
    ASSERT_EQ(layout.boxes.size(), 4u);
    EXPECT_LT(layout.boxes[0].layer, layout.boxes[1].layer);
    EXPECT_LT(layout.boxes[1].layer, layout.boxes[2].layer);  // 2 -> 1 is the back edge
    EXPECT_LT(layout.boxes[2].layer, layout.boxes[3].layer);
    expectNoOverlap(layout, LayoutOptions{}.nodeGap);
}

TEST(Layout, ABackEdgeNeverJoinsTwoBoxesOfOneLayer)
{
    // 0 reads 1, 1 reads 2, 2 reads 1: the order is 0, 1, 2 (0 is earliest), so 1 -> 0 is a
    // back edge whose ends must still be a layer apart, the feeding end below.
    LayoutInput in{{{1}, {2}, {1}}, {}};
    const auto layout = LayeredLayout::compute(in);
    ASSERT_EQ(layout.boxes.size(), 3u);
    for (int v = 0; v < 3; ++v)
        for (int u : in.inputs[v])
            EXPECT_NE(layout.boxes[u].layer, layout.boxes[v].layer) << u << " -> " << v;
    EXPECT_GT(layout.boxes[1].layer, layout.boxes[0].layer);
    expectNoOverlap(layout, LayoutOptions{}.nodeGap);
}

TEST(Layout, TheCacheKeyNamesEverythingTheLayoutReads)
{
    const LayoutInput a{{{}, {0}, {0, 1}}, {176, 214, 176}};
    const std::string key = LayeredLayout::inputKey(a, {});
    EXPECT_EQ(key.size(), 16u);
    EXPECT_EQ(LayeredLayout::inputKey(a, {}), key);  // stable
    LayoutInput b = a;
    b.inputs[2] = {1, 0};  // the same edges, read in another order: another barycentre
    EXPECT_NE(LayeredLayout::inputKey(b, {}), key);
    LayoutInput c = a;
    c.widths[1] = 176;
    EXPECT_NE(LayeredLayout::inputKey(c, {}), key);
    LayoutOptions wider;
    wider.nodeGap += 1;
    EXPECT_NE(LayeredLayout::inputKey(a, wider), key);
    const LayoutInput d{{{}, {0}, {0}, {1}}, {}};  // one item more
    EXPECT_NE(LayeredLayout::inputKey(d, {}), LayeredLayout::inputKey(LayoutInput{{{}, {0}, {0}}, {}}, {}));
}

TEST(Layout, EncodesAndDecodesExactly)
{
    const auto g = GraphModel::fromJson(transformerGraph(400));
    const auto layout = LayeredLayout::compute(g);
    const std::string bytes = LayeredLayout::encode(layout);
    const auto back = LayeredLayout::decode(bytes, layout.boxes.size());
    ASSERT_TRUE(back);
    EXPECT_EQ(back->layerCount, layout.layerCount);
    EXPECT_EQ(back->width, layout.width);
    for (std::size_t i = 0; i < layout.boxes.size(); ++i) {
        EXPECT_EQ(back->boxes[i].x, layout.boxes[i].x);
        EXPECT_EQ(back->boxes[i].layer, layout.boxes[i].layer);
    }
    EXPECT_FALSE(LayeredLayout::decode(bytes, layout.boxes.size() + 1));            // another graph
    EXPECT_FALSE(LayeredLayout::decode(bytes.substr(0, 40), layout.boxes.size()));  // truncated
    std::string tampered = bytes;
    tampered[0] = 'X';
    EXPECT_FALSE(LayeredLayout::decode(tampered, layout.boxes.size()));
}
