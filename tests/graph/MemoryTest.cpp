// Memory: what each node allocates from its meta (sizes, strides, dtype), views and in-place ops
// allocating nothing, the live total along the graph's order, its peak and what is alive there.
#include "graph/GraphMemory.h"
#include "graph/GraphModel.h"
#include "graph/TensorLayout.h"

#include <nlohmann/json.hpp>

#include <gtest/gtest.h>

#include <fstream>

using namespace ps::graph;

namespace {

// tests/fixtures/graphs/resnet18_inference.json as an independent Python script of the same rules
// reads it: the parameters and buffers (11.7 M float32 values), and the peak at bn1, where conv1's
// output (1x64x32x32 float32, 256 KiB) and bn1's are both alive.
constexpr std::uint64_t kResnet18Held = 46845760;
constexpr std::uint64_t kResnet18Peak = 524288;
constexpr const char* kResnet18PeakNode = "native_batch_norm";

GraphModel graphOf(const char* nodes)
{
    return GraphModel::fromJson({{"node_list", nlohmann::json::parse(nodes)}});
}

}  // namespace

TEST(Memory, StorageExtentFromSizesStridesAndDtype)
{
    EXPECT_EQ((TensorLayout{{4, 8}, {8, 1}, "float32"}.storageBytes()), 128u);
    EXPECT_EQ((TensorLayout{{4, 8}, {}, "torch.float16"}.storageBytes()), 64u);  // contiguous
    // A transposed view spans the same storage; an expanded one (stride 0) only its row.
    EXPECT_EQ((TensorLayout{{8, 4}, {1, 8}, "float32"}.storageBytes()), 128u);
    EXPECT_EQ((TensorLayout{{1000, 8}, {0, 1}, "float32"}.storageBytes()), 32u);
    // Padding between rows counts: 1 + 3*10 + 7*1 elements.
    EXPECT_EQ((TensorLayout{{4, 8}, {10, 1}, "int64"}.storageBytes()), 38u * 8);
    EXPECT_EQ((TensorLayout{{0, 8}, {8, 1}, "float32"}.storageBytes()), 0u);
    EXPECT_EQ((TensorLayout{{}, {}, "bool"}.storageBytes()), 1u);  // a scalar
    EXPECT_FALSE((TensorLayout{{4}, {1}, "quux"}.storageBytes()));
    EXPECT_FALSE((TensorLayout{{-4}, {1}, "float32"}.storageBytes()));
    EXPECT_FALSE((TensorLayout{{4}, {-1}, "float32"}.storageBytes()));
    EXPECT_FALSE((TensorLayout{{1 << 30, 1 << 30, 1 << 30}, {}, "float64"}.storageBytes()));
}

TEST(Memory, ViewsAndInPlaceOpsAllocateNothingAndKeepTheirBaseAlive)
{
    // a (512 B) is viewed as v; v's last user is m: a lives until m, not just until v.
    const auto g = graphOf(R"([
        {"name": "x", "op": "placeholder", "shape": [16, 8], "stride": [8, 1], "dtype": "float32"},
        {"name": "a", "op": "call_function", "target": "aten.relu.default", "inputs": ["x"],
         "shape": [16, 8], "stride": [8, 1], "dtype": "float32"},
        {"name": "v", "op": "call_function", "target": "aten.t.default", "inputs": ["a"],
         "shape": [8, 16], "stride": [1, 8], "dtype": "float32"},
        {"name": "b", "op": "call_function", "target": "aten.relu_.default", "inputs": ["x"],
         "shape": [16, 8], "stride": [8, 1], "dtype": "float32"},
        {"name": "c", "op": "call_function", "target": "aten.sum.default", "inputs": ["b"],
         "shape": [], "stride": [], "dtype": "float32"},
        {"name": "m", "op": "call_function", "target": "aten.mm.default", "inputs": ["v", "x"],
         "shape": [8, 8], "stride": [8, 1], "dtype": "float32"},
        {"name": "output", "op": "output", "target": "output", "inputs": ["m", "c"]}])");
    const GraphMemory mem(g);
    EXPECT_EQ(mem.held(), 512u);
    EXPECT_EQ(mem.allocated(0), 0u);  // held, not allocated
    EXPECT_EQ(mem.allocated(1), 512u);
    EXPECT_EQ(mem.allocated(2), 0u);
    EXPECT_TRUE(mem.alias(2));
    EXPECT_EQ(mem.owner(2), 1);
    EXPECT_EQ(mem.allocated(3), 0u);  // in place on x
    EXPECT_EQ(mem.allocated(4), 4u);
    EXPECT_EQ(mem.allocated(5), 256u);
    EXPECT_EQ(mem.lastUse(1), 5);  // through its view v
    EXPECT_EQ(mem.lastUse(4), 6);  // a result: until the output
    EXPECT_EQ(mem.liveAfter(1), 512u);
    EXPECT_EQ(mem.liveAfter(4), 516u);
    EXPECT_EQ(mem.liveAfter(5), 772u);  // a, c and m at once
    EXPECT_EQ(mem.liveAfter(6), 260u);  // a freed after m
    EXPECT_EQ(mem.peak(), 772u);
    EXPECT_EQ(mem.peakNode(), 5);
    EXPECT_EQ(mem.aliveAtPeak(), (std::vector<int>{1, 5, 4}));  // largest first
    EXPECT_EQ(mem.unknown(), 0);
}

TEST(Memory, TupleOutputsAreSummedAndGetitemAllocatesNothing)
{
    const auto g = graphOf(R"([
        {"name": "x", "op": "placeholder", "shape": [4], "dtype": "float32"},
        {"name": "bn", "op": "call_function", "target": "aten.native_batch_norm.default", "inputs": ["x"],
         "values": [{"shape": [4], "stride": [1], "dtype": "float32"}, {"shape": [0], "stride": [1], "dtype": "float32"},
                    {"shape": [2], "stride": [1], "dtype": "float64"}, 7]},
        {"name": "g", "op": "call_function", "target": "operator.getitem", "inputs": ["bn"]},
        {"name": "r", "op": "call_function", "target": "aten.relu.default", "inputs": ["g"],
         "shape": [4], "stride": [1], "dtype": "float32"},
        {"name": "output", "op": "output", "target": "output", "inputs": ["r"]}])");
    const GraphMemory mem(g);
    EXPECT_EQ(mem.allocated(1), 16u + 0u + 16u);
    EXPECT_EQ(mem.allocated(2), 0u);
    EXPECT_EQ(mem.owner(2), 1);
    EXPECT_EQ(mem.lastUse(1), 3);  // through the getitem
    EXPECT_EQ(mem.peak(), 48u);
    EXPECT_EQ(mem.peakNode(), 3);
}

TEST(Memory, NodesWithoutMetaAreUnknownAndHostileGraphsDoNotCrash)
{
    const auto g = graphOf(R"([
        {"name": "a", "op": "call_function", "target": "aten.relu.default", "inputs": ["zz"]},
        {"name": "b", "op": "call_function", "target": "aten.view.default", "inputs": ["b"],
         "shape": [4], "dtype": "float32"},
        {"name": "c", "op": "call_function", "target": "aten.relu.default", "inputs": ["a"],
         "shape": [-1, "x"], "dtype": "float32"},
        {"name": "d", "op": "call_function", "target": "aten.relu.default", "inputs": ["a"],
         "shape": [4], "stride": [1], "dtype": "unknown"}])");
    const GraphMemory mem(g);
    EXPECT_FALSE(mem.allocated(0));
    EXPECT_FALSE(mem.allocated(2));
    EXPECT_FALSE(mem.allocated(3));
    EXPECT_EQ(mem.unknown(), 3);
    EXPECT_FALSE(mem.allocated(99));
    EXPECT_EQ(mem.liveAfter(-1), 0u);
    EXPECT_EQ(mem.peak(), 16u);  // b: a view of itself is no alias
    const GraphMemory empty(GraphModel::fromJson(nlohmann::json()));
    EXPECT_EQ(empty.peakNode(), -1);
    EXPECT_TRUE(empty.aliveAtPeak().empty());
}

TEST(Memory, AStoredResnet18InferencePeaksOnItsFirstActivations)
{
    std::ifstream in(std::string(PS_SOURCE_DIR) + "/tests/fixtures/graphs/resnet18_inference.json");
    ASSERT_TRUE(in);
    const auto report = nlohmann::json::parse(in);
    const auto g = GraphModel::fromJson(report.at("graph"));
    const GraphMemory mem(g);
    EXPECT_EQ(mem.unknown(), 0);
    // Checked against tests/fixtures/graphs by an independent script (the same rules in Python).
    EXPECT_EQ(mem.held(), kResnet18Held);
    EXPECT_EQ(mem.peak(), kResnet18Peak);
    ASSERT_GE(mem.peakNode(), 0);
    EXPECT_EQ(g.nodes()[mem.peakNode()].name, kResnet18PeakNode);
    std::uint64_t alive = 0;
    for (int i : mem.aliveAtPeak())
        alive += *mem.allocated(i);
    EXPECT_EQ(alive, mem.peak());
}
