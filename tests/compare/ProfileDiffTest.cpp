// Two runs' profiles (`run --profile`) per top-level module: a kernel's time split evenly over its
// nodes' modules, the unattributed time a row of its own, the largest change first, in the diff's
// JSON and in `library diff`'s text.
#include "compare/ProfileDiff.h"
#include "compare/RunDiff.h"
#include "compare/RunDiffPrinter.h"

#include <gtest/gtest.h>

#include <sstream>

using nlohmann::json;
using ps::compare::ProfileDiff;

namespace {

json node(const std::string& name, const std::string& module)
{
    return {{"name", name}, {"op", "call_function"}, {"module", {{"path", module}, {"type", "Conv2d"}}}};
}

// layer1's conv and layer3's conv; a kernel fusing layer3's conv and bn; one kernel naming no node
json profiledCapture(double layer1Us, double layer3Us, double unattributedUs)
{
    json graph = {{"node_list",
        {node("convolution", "model.layer1.0.conv1"), node("convolution_9", "model.layer3.1.conv1"),
            node("native_batch_norm_9", "model.layer3.1.bn1")}}};
    json kernels
        = {{{"name", "extern_kernels.convolution"}, {"nodes", {"convolution"}}, {"count", 1}, {"self_us", layer1Us}},
            {{"name", "cpp_fused_convolution_9"}, {"nodes", {"convolution_9", "native_batch_norm_9"}}, {"count", 1},
                {"self_us", layer3Us}},
            {{"name", "cpp_fused_0"}, {"nodes", json::array()}, {"count", 1}, {"self_us", 5.0}}};
    return {{"name", "fn"}, {"status", "ok"}, {"graph", graph},
        {"profile",
            {{"calls", 5}, {"wall_us", 100.0}, {"profiled_wall_us", 110.0}, {"overhead_us", 10.0}, {"kernels", kernels},
                {"unattributed_us", unattributedUs}}}};
}

}  // namespace

TEST(ProfileDiff, AKernelsTimeReachesTheTopLevelModulesOfItsNodes)
{
    const auto times = ProfileDiff::moduleTimes(profiledCapture(1000, 4100, 300));
    const std::vector<std::pair<std::string, double>> expected
        = {{"(no graph node)", 5.0}, {"(outside kernels)", 300.0}, {"model.layer1", 1000.0}, {"model.layer3", 4100.0}};
    EXPECT_EQ(times, expected);
}

TEST(ProfileDiff, ModulesAreSortedByTheirChangeAndSaidAsBeforeAndAfter)
{
    const auto rows = ProfileDiff::compare(profiledCapture(1000, 4100, 300), profiledCapture(900, 6300, 300));
    ASSERT_EQ(rows.size(), 4u);
    EXPECT_EQ(rows[0].describe(), "model.layer3: 4.10 ms -> 6.30 ms");
    EXPECT_EQ(rows[1].describe(), "model.layer1: 1.00 ms -> 900 us");
    EXPECT_DOUBLE_EQ(rows[0].changeUs(), 2200.0);
}

TEST(ProfileDiff, NothingUnlessBothRunsWereProfiled)
{
    json plain = profiledCapture(1, 2, 3);
    plain.erase("profile");
    EXPECT_TRUE(ProfileDiff::compare(plain, profiledCapture(1, 2, 3)).empty());
    json failed = profiledCapture(1, 2, 3);
    failed["profile"] = {{"calls", 0}, {"kernels", json::array()}, {"error", "not profiled"}};
    EXPECT_TRUE(ProfileDiff::compare(profiledCapture(1, 2, 3), failed).empty());
}

TEST(ProfileDiff, LibraryDiffPrintsAndCarriesThePerModuleTimes)
{
    ps::compare::RunSide a{
        "run #1", {{"schema", 1}, {"status", "ok"}, {"captures", {profiledCapture(1000, 4100, 300)}}}, "", {}};
    ps::compare::RunSide b{
        "run #2", {{"schema", 1}, {"status", "ok"}, {"captures", {profiledCapture(1000, 6300, 300)}}}, "", {}};
    const auto diff = ps::compare::RunDiff::compare(a, b);
    std::ostringstream out;
    ps::compare::RunDiffPrinter::print(diff, a, b, out);
    EXPECT_NE(out.str().find("  time per call by module (run --profile), largest change first:\n"
                             "    model.layer3: 4.10 ms -> 6.30 ms\n"),
        std::string::npos)
        << out.str();
    const json j = diff.toJson(a, b);
    EXPECT_EQ(j["captures"][0]["profile"][0]["module"], "model.layer3");
    EXPECT_EQ(j["captures"][0]["profile"][0]["b_us"], 6300.0);
}
