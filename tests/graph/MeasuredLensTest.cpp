// Numeric lenses: a kernel's time on each node of its group and once in a module's total, the error
// over eager's band with a module's worst, memory per node with a module's total, units, and
// hostile values (unknown nodes, NaN, negative) left out.
#include "GraphTestSupport.h"

#include "graph/GraphMemory.h"
#include "graph/MeasuredLens.h"
#include "graph/ModuleTree.h"

#include <gtest/gtest.h>

#include <limits>

using namespace ps::graph;
using namespace ps::graphtest;

namespace {

/// x -> a (m.0) -> b (m.1) -> c (m.1) -> output
GraphModel lensChain()
{
    return makeGraph({{"x", {}, "", "input"}, {"a", {"x"}, "m.0"}, {"b", {"a"}, "m.1"}, {"c", {"b"}, "m.1"},
        {"out", {"c"}, "", "output"}});
}

}  // namespace

TEST(MeasuredLens, TimeShowsAKernelOnceOnItsGroupAndModulesCountItOnce)
{
    const auto g = lensChain();
    const auto t = ModuleTree::build(g);
    const double nan = std::numeric_limits<double>::quiet_NaN();
    const auto lens = MeasuredLens::time(g,
        {{"k_fused", {"b", "c", "ghost"}, 300.0}, {"k_a", {"a"}, 50.0}, {"k_span", {"a", "b"}, 10.0},
            {"k_lost", {"nowhere"}, 7.0}, {"k_bad", {"a"}, nan}, {"k_neg", {"a"}, -4.0}});
    ASSERT_TRUE(lens.any());
    EXPECT_FALSE(lens.node(0));             // the input: no kernel
    EXPECT_DOUBLE_EQ(*lens.node(1), 60.0);  // in k_a and k_span
    // b and c are one kernel's group (the unknown node left out): each shows the kernel's 300 µs.
    EXPECT_DOUBLE_EQ(*lens.node(2), 310.0);  // and k_span's 10
    EXPECT_DOUBLE_EQ(*lens.node(3), 300.0);
    EXPECT_EQ(lens.kernelOf(2), "k_fused, k_span");
    EXPECT_EQ(lens.kernelOf(3), "k_fused");
    // The kernels, slowest first, each with its group; a node knows its kernel.
    ASSERT_EQ(lens.kernels().size(), 3u);
    EXPECT_EQ(lens.kernels()[0].kernel, "k_fused");
    EXPECT_EQ(lens.kernels()[0].nodes, (std::vector<int>{2, 3}));
    EXPECT_DOUBLE_EQ(lens.kernels()[0].us, 300.0);
    EXPECT_EQ(lens.kernels()[1].kernel, "k_a");
    EXPECT_EQ(lens.kernelsOf(3), std::vector<int>{0});
    EXPECT_EQ(lens.kernelsOf(2), (std::vector<int>{0, 2}));
    EXPECT_TRUE(lens.kernelsOf(0).empty());
    EXPECT_DOUBLE_EQ(lens.unattributedUs(), 7.0);
    // A module counts each kernel computing its nodes once: k_span in both m.0 and m.1, once in m.
    EXPECT_DOUBLE_EQ(*lens.module(t, t.find("m.0")), 60.0);
    EXPECT_DOUBLE_EQ(*lens.module(t, t.find("m.1")), 310.0);
    EXPECT_DOUBLE_EQ(*lens.module(t, t.find("m")), 360.0);
    EXPECT_DOUBLE_EQ(lens.min(), 60.0);
    EXPECT_DOUBLE_EQ(lens.max(), 310.0);
    EXPECT_DOUBLE_EQ(lens.position(60.0), 0.0);
    EXPECT_DOUBLE_EQ(lens.position(310.0), 1.0);
    EXPECT_FALSE(lens.node(99));
    // Over a range of boxes shown: logarithmic, clamped, nothing for a range without values.
    EXPECT_DOUBLE_EQ(MeasuredLens::position(100.0, 10.0, 1000.0), 0.5);
    EXPECT_DOUBLE_EQ(MeasuredLens::position(5000.0, 10.0, 1000.0), 1.0);
    EXPECT_DOUBLE_EQ(MeasuredLens::position(0.0, 10.0, 1000.0), 0.0);
    EXPECT_DOUBLE_EQ(MeasuredLens::position(5.0, 0.0, 0.0), 0.0);
    EXPECT_FALSE(MeasuredLens::time(g, {}).any());
}

TEST(MeasuredLens, ErrorIsTheRatioToEagersBandAndAModuleShowsItsWorst)
{
    const auto g = lensChain();
    const auto t = ModuleTree::build(g);
    const auto lens = MeasuredLens::error(g,
        {{"a", 1e-6, 1e-6, false}, {"b", 4e-4, 1e-5, true}, {"c", 2e-5, 1e-5, false}, {"ghost", 1.0, 1.0, true},
            {"x", std::numeric_limits<double>::infinity(), 1.0, false}, {"out", 1.0, 0.0, true}});
    EXPECT_DOUBLE_EQ(*lens.node(1), 1.0);
    EXPECT_DOUBLE_EQ(*lens.node(2), 40.0);
    EXPECT_TRUE(lens.leavesBand(2));
    EXPECT_FALSE(lens.leavesBand(3));
    EXPECT_FALSE(lens.node(0));                              // infinite error: absent
    EXPECT_DOUBLE_EQ(*lens.node(4), 1e6);                    // an error over an exact eager: off the scale
    EXPECT_DOUBLE_EQ(*lens.module(t, t.find("m.1")), 40.0);  // worst, not total
    EXPECT_DOUBLE_EQ(*lens.module(t, t.find("m")), 40.0);
    EXPECT_EQ(MeasuredLens::format(MeasuredLens::Measure::Error, 40.0), "40× band");
    EXPECT_EQ(MeasuredLens::format(MeasuredLens::Measure::Error, 1.5), "1.50× band");
}

TEST(MeasuredLens, MemoryPaintsEachNodesAllocationAndAModuleItsTotal)
{
    auto list = nlohmann::json::parse(R"([
        {"name": "x", "op": "placeholder", "kind": "input", "shape": [256], "dtype": "float32"},
        {"name": "a", "op": "call_function", "target": "aten.relu.default", "inputs": ["x"], "shape": [256],
         "dtype": "float32", "module": {"path": "m.0", "type": "T"}},
        {"name": "v", "op": "call_function", "target": "aten.view.default", "inputs": ["a"], "shape": [16, 16],
         "dtype": "float32", "module": {"path": "m.1", "type": "T"}},
        {"name": "b", "op": "call_function", "target": "aten.exp.default", "inputs": ["v"], "shape": [16, 16],
         "dtype": "float64", "module": {"path": "m.1", "type": "T"}},
        {"name": "out", "op": "output", "target": "output", "inputs": ["b"]}])");
    const auto g = GraphModel::fromJson({{"node_list", list}});
    const auto t = ModuleTree::build(g);
    const GraphMemory mem(g);
    const auto lens = MeasuredLens::memory(g, mem);
    EXPECT_FALSE(lens.node(0));  // held, shown apart
    EXPECT_DOUBLE_EQ(*lens.node(1), 1024.0);
    EXPECT_DOUBLE_EQ(*lens.node(2), 0.0);  // a view
    EXPECT_DOUBLE_EQ(*lens.node(3), 2048.0);
    EXPECT_FALSE(lens.node(4));
    EXPECT_DOUBLE_EQ(*lens.module(t, t.find("m.1")), 2048.0);
    EXPECT_DOUBLE_EQ(*lens.module(t, t.find("m")), 3072.0);
    EXPECT_EQ(mem.peak(), 3072u);
    EXPECT_EQ(MeasuredLens::format(MeasuredLens::Measure::Memory, 3072.0), "3.0 KiB");
    EXPECT_EQ(MeasuredLens::format(MeasuredLens::Measure::Memory, 512.0 * 1024 * 1024), "512.0 MiB");
    EXPECT_EQ(MeasuredLens::format(MeasuredLens::Measure::Time, 1250.0), "1.25 ms");
    EXPECT_EQ(MeasuredLens::format(MeasuredLens::Measure::Time, 830.0), "830 µs");
}
