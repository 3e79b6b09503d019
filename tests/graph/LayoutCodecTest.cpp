// The layout cache's key and bytes: the key changes with everything the layout reads, the
// PSLAYOU2 bytes give back the same layout, routes included, and anything else is refused
// without reading past the end.
#include "SyntheticGraph.h"

#include "graph/GraphModel.h"
#include "graph/LayeredLayout.h"
#include "graph/LayoutCodec.h"

#include <gtest/gtest.h>

#include <cstdint>
#include <cstring>
#include <string>

using namespace ps::graph;
using namespace ps::graphtest;

TEST(LayoutCodec, TheCacheKeyNamesEverythingTheLayoutReads)
{
    const LayoutInput a{{{}, {0}, {0, 1}}, {176, 214, 176}};
    const std::string key = LayoutCodec::inputKey(a, {});
    EXPECT_EQ(key.size(), 16u);
    EXPECT_EQ(LayoutCodec::inputKey(a, {}), key);  // stable
    LayoutInput b = a;
    b.inputs[2] = {1, 0};  // the same edges, read in another order: another barycentre
    EXPECT_NE(LayoutCodec::inputKey(b, {}), key);
    LayoutInput c = a;
    c.widths[1] = 176;
    EXPECT_NE(LayoutCodec::inputKey(c, {}), key);
    LayoutOptions wider;
    wider.nodeGap += 1;
    EXPECT_NE(LayoutCodec::inputKey(a, wider), key);
    LayoutInput banded = a;
    banded.bands = {0, 0, 1};
    EXPECT_NE(LayoutCodec::inputKey(banded, {}), key);
    LayoutOptions roomier;
    roomier.edgeGap += 1;
    EXPECT_NE(LayoutCodec::inputKey(a, roomier), key);
    const LayoutInput d{{{}, {0}, {0}, {1}}, {}};  // one item more
    EXPECT_NE(LayoutCodec::inputKey(d, {}), LayoutCodec::inputKey(LayoutInput{{{}, {0}, {0}}, {}}, {}));
}

TEST(LayoutCodec, EncodesAndDecodesExactly)
{
    const auto g = GraphModel::fromJson(transformerGraph(400));
    const auto layout = LayeredLayout::compute(g);
    const std::string bytes = LayoutCodec::encode(layout);
    const auto back = LayoutCodec::decode(bytes, layout.boxes.size());
    ASSERT_TRUE(back);
    EXPECT_EQ(back->layerCount, layout.layerCount);
    EXPECT_EQ(back->width, layout.width);
    for (std::size_t i = 0; i < layout.boxes.size(); ++i) {
        EXPECT_EQ(back->boxes[i].x, layout.boxes[i].x);
        EXPECT_EQ(back->boxes[i].layer, layout.boxes[i].layer);
    }
    EXPECT_FALSE(LayoutCodec::decode(bytes, layout.boxes.size() + 1));            // another graph
    EXPECT_FALSE(LayoutCodec::decode(bytes.substr(0, 40), layout.boxes.size()));  // truncated
    std::string tampered = bytes;
    tampered[0] = 'X';
    EXPECT_FALSE(LayoutCodec::decode(tampered, layout.boxes.size()));
}

TEST(LayoutCodec, RoutesSurviveTheCacheAndOldOrDamagedBytesAreRefused)
{
    const auto g = GraphModel::fromJson(transformerGraph(400));
    const auto layout = LayeredLayout::compute(g);
    ASSERT_FALSE(layout.routes.empty());
    const std::string bytes = LayoutCodec::encode(layout);
    const auto back = LayoutCodec::decode(bytes, layout.boxes.size());
    ASSERT_TRUE(back);
    ASSERT_EQ(back->routes.size(), layout.routes.size());
    for (std::size_t i = 0; i < layout.routes.size(); ++i) {
        EXPECT_EQ(back->routes[i].from, layout.routes[i].from);
        EXPECT_EQ(back->routes[i].to, layout.routes[i].to);
        ASSERT_EQ(back->routes[i].points.size(), layout.routes[i].points.size());
        for (std::size_t k = 0; k < layout.routes[i].points.size(); ++k) {
            EXPECT_EQ(back->routes[i].points[k].x, layout.routes[i].points[k].x);
            EXPECT_EQ(back->routes[i].points[k].y, layout.routes[i].points[k].y);
        }
    }
    EXPECT_EQ(LayoutCodec::encode(*back), bytes);

    // What the first format wrote: "PSLAYOU1", the head and the boxes, no routes.
    std::string v1 = bytes.substr(0, 8 + 8 + 4 + 16 + layout.boxes.size() * (4 * 8 + 4));
    v1[7] = '1';
    EXPECT_FALSE(LayoutCodec::decode(v1, layout.boxes.size()));
    std::string renamed = bytes;
    renamed[7] = '1';
    EXPECT_FALSE(LayoutCodec::decode(renamed, layout.boxes.size()));

    // Cut anywhere, or with a count pointing past the end: refused, never read past the end.
    for (std::size_t cut = 0; cut < bytes.size(); cut += 1 + cut / 64)
        EXPECT_FALSE(LayoutCodec::decode(std::string_view(bytes).substr(0, cut), layout.boxes.size())) << cut;
    EXPECT_FALSE(LayoutCodec::decode(bytes + "x", layout.boxes.size()));
    const std::size_t routeCountAt = 8 + 8 + 4 + 16 + layout.boxes.size() * (4 * 8 + 4);
    for (std::uint64_t count : {std::uint64_t{0}, std::uint64_t{1} << 60, ~std::uint64_t{0}}) {
        std::string lying = bytes;
        std::memcpy(lying.data() + routeCountAt, &count, sizeof count);
        EXPECT_FALSE(LayoutCodec::decode(lying, layout.boxes.size()));
    }
    std::string farPoint = bytes;  // the first route's point count
    const std::uint32_t many = 0xffffffffu;
    std::memcpy(farPoint.data() + routeCountAt + 8 + 8, &many, sizeof many);
    EXPECT_FALSE(LayoutCodec::decode(farPoint, layout.boxes.size()));
    std::string badEnd = bytes;  // the first route's producer, out of range
    const std::int32_t outside = static_cast<std::int32_t>(layout.boxes.size());
    std::memcpy(badEnd.data() + routeCountAt + 8, &outside, sizeof outside);
    EXPECT_FALSE(LayoutCodec::decode(badEnd, layout.boxes.size()));
}
