// The measured data painted on the graph, as the front end reads it: a capture's kernel profile
// (captures[i].profile, `run --profile`) and the drift localised to graph nodes
// (captures[i].verify.accuracy.nodes, drift_starts, localise). A report without them (an older
// studio's, or a run not profiled) reads as before; damaged values read as absent, never a crash.
#include "model/DriftLocalisation.h"
#include "model/KernelProfile.h"
#include "model/NodeAccuracy.h"
#include "model/Report.h"

#include <nlohmann/json.hpp>

#include <gtest/gtest.h>

#include <cmath>
#include <limits>

using ps::model::DriftLocalisation;
using ps::model::KernelProfile;
using ps::model::NodeAccuracy;
using ps::model::Report;

namespace {

nlohmann::json measuredReportWith(const nlohmann::json& profile, const nlohmann::json& accuracy)
{
    nlohmann::json capture = {{"name", "fn"}, {"backend", "inductor"}, {"tracer", "make_fx"}, {"status", "ok"},
        {"verify", {{"ran", true}, {"status", "drift"}, {"matches_eager", false}}}};
    if (!profile.is_discarded())
        capture["profile"] = profile;
    if (!accuracy.is_discarded())
        capture["verify"]["accuracy"] = accuracy;
    return {{"schema", 1}, {"script", "/w/r.py"}, {"status", "ok"}, {"captures", nlohmann::json::array({capture})}};
}

const nlohmann::json kAbsent = nlohmann::json::value_t::discarded;

const nlohmann::json kProfile = {{"calls", 5}, {"wall_us", 1200.5}, {"profiled_wall_us", 1300.0}, {"overhead_us", 99.5},
    {"kernels",
        {{{"name", "cpp_fused_convolution_relu_0"}, {"nodes", {"convolution", "relu"}}, {"count", 5},
             {"self_us", 800.0}},
            {{"name", "aten::addmm"}, {"nodes", {"addmm"}}, {"count", 5}, {"self_us", 300}}}},
    {"unattributed_us", 100.5}};

const nlohmann::json kAccuracy = {{"verdict", "drift"}, {"reference", "float64"},
    {"nodes",
        {{{"node", "convolution"}, {"error", 1e-6}, {"eager_error", 1e-6}, {"leaves_band", false}},
            {{"node", "convolution_backward_3"}, {"error", 4e-3}, {"eager_error", 1e-4}, {"leaves_band", true}}}},
    {"drift_starts", {"convolution_backward_3"}},
    {"localise", {{"status", "done"}, {"observed", 2}, {"seconds", 1.5}}}};

}  // namespace

TEST(KernelProfile, ProfileIsReadWithEveryKernelAndItsNodes)
{
    const Report report = Report::fromJson(measuredReportWith(kProfile, kAbsent));
    const auto& c = report.captures.at(0);
    ASSERT_TRUE(c.profile);
    EXPECT_EQ(c.profile->calls, 5);
    EXPECT_DOUBLE_EQ(*c.profile->wallUs, 1200.5);
    EXPECT_DOUBLE_EQ(*c.profile->profiledWallUs, 1300.0);
    EXPECT_DOUBLE_EQ(*c.profile->overheadUs, 99.5);
    EXPECT_DOUBLE_EQ(*c.profile->unattributedUs, 100.5);
    ASSERT_EQ(c.profile->kernels.size(), 2u);
    EXPECT_EQ(c.profile->kernels[0].name, "cpp_fused_convolution_relu_0");
    EXPECT_EQ(c.profile->kernels[0].nodes, (std::vector<std::string>{"convolution", "relu"}));
    EXPECT_EQ(c.profile->kernels[0].count, 5);
    EXPECT_DOUBLE_EQ(c.profile->kernels[1].selfUs, 300.0);
    EXPECT_DOUBLE_EQ(c.profile->kernelsUs(), 1100.0);
    EXPECT_TRUE(c.profile->error.empty());
}

TEST(KernelProfile, NullOrAbsentProfileIsNotProfiled)
{
    EXPECT_FALSE(Report::fromJson(measuredReportWith(kAbsent, kAbsent)).captures.at(0).profile);
    EXPECT_FALSE(Report::fromJson(measuredReportWith(nullptr, kAbsent)).captures.at(0).profile);
    EXPECT_FALSE(Report::fromJson(measuredReportWith("fast", kAbsent)).captures.at(0).profile);
}

TEST(KernelProfile, FailedProfileKeepsItsError)
{
    const auto p = KernelProfile::fromJson(
        {{"calls", 0}, {"kernels", nlohmann::json::array()}, {"error", "RuntimeError: profiler already enabled"}});
    ASSERT_TRUE(p);
    EXPECT_EQ(p->error, "RuntimeError: profiler already enabled");
    EXPECT_TRUE(p->kernels.empty());
    EXPECT_FALSE(p->wallUs);
}

TEST(KernelProfile, DamagedValuesReadAsAbsent)
{
    nlohmann::json j = {{"calls", -3}, {"wall_us", "slow"}, {"profiled_wall_us", -5.0},
        {"overhead_us", std::numeric_limits<double>::quiet_NaN()}, {"unattributed_us", nullptr},
        {"kernels",
            {42, nullptr, {{"name", 7}, {"nodes", "relu"}, {"count", "x"}, {"self_us", -1.0}},
                {{"name", "k"}, {"nodes", {"a", 3, nullptr, "", "b"}}, {"count", 2},
                    {"self_us", std::numeric_limits<double>::infinity()}},
                {{"name", "huge"}, {"nodes", {"c"}}, {"count", 1}, {"self_us", 1e300}}}}};
    const auto p = KernelProfile::fromJson(j);
    ASSERT_TRUE(p);
    EXPECT_EQ(p->calls, 0);
    EXPECT_FALSE(p->wallUs);
    EXPECT_FALSE(p->profiledWallUs);
    EXPECT_FALSE(p->overheadUs);
    EXPECT_FALSE(p->unattributedUs);
    ASSERT_EQ(p->kernels.size(), 3u);
    EXPECT_EQ(p->kernels[0].name, "");
    EXPECT_TRUE(p->kernels[0].nodes.empty());
    EXPECT_EQ(p->kernels[0].count, 0);
    EXPECT_DOUBLE_EQ(p->kernels[0].selfUs, 0.0);
    EXPECT_EQ(p->kernels[1].nodes, (std::vector<std::string>{"a", "b"}));
    EXPECT_DOUBLE_EQ(p->kernels[1].selfUs, 0.0);
    EXPECT_DOUBLE_EQ(p->kernels[2].selfUs, 1e300);
    EXPECT_FALSE(KernelProfile::fromJson(nlohmann::json::array()));
}

TEST(NodeAccuracy, LocalisedDriftIsReadPerNode)
{
    const Report report = Report::fromJson(measuredReportWith(kAbsent, kAccuracy));
    const auto& c = report.captures.at(0);
    ASSERT_TRUE(c.verify && c.verify->accuracy);
    const auto& a = *c.verify->accuracy;
    ASSERT_EQ(a.nodes.size(), 2u);
    EXPECT_EQ(a.nodes[1].node, "convolution_backward_3");
    EXPECT_DOUBLE_EQ(*a.nodes[1].error, 4e-3);
    EXPECT_DOUBLE_EQ(*a.nodes[1].eagerError, 1e-4);
    EXPECT_TRUE(a.nodes[1].leavesBand);
    EXPECT_FALSE(a.nodes[0].leavesBand);
    EXPECT_NEAR(*a.nodes[1].bandRatio(), 40.0, 1e-9);
    EXPECT_EQ(a.driftStarts, (std::vector<std::string>{"convolution_backward_3"}));
    ASSERT_TRUE(a.localise);
    EXPECT_EQ(a.localise->status, DriftLocalisation::Status::Done);
    EXPECT_EQ(a.localise->observed, 2);
    EXPECT_DOUBLE_EQ(*a.localise->seconds, 1.5);
}

TEST(NodeAccuracy, AccuracyWithoutNodesReadsAsBefore)
{
    const Report report
        = Report::fromJson(measuredReportWith(kAbsent, {{"verdict", "drift"}, {"reference", "float64"}}));
    const auto& c = report.captures.at(0);
    ASSERT_TRUE(c.verify && c.verify->accuracy);
    EXPECT_TRUE(c.verify->accuracy->nodes.empty());
    EXPECT_TRUE(c.verify->accuracy->driftStarts.empty());
    EXPECT_FALSE(c.verify->accuracy->localise);
}

TEST(NodeAccuracy, SkippedLocalisationSaysWhy)
{
    const auto d = DriftLocalisation::fromJson(
        {{"status", "skipped"}, {"reason", "no drift to localise"}, {"observed", 0}, {"seconds", 0}});
    ASSERT_TRUE(d);
    EXPECT_EQ(d->status, DriftLocalisation::Status::Skipped);
    EXPECT_EQ(d->reason, "no drift to localise");
    EXPECT_EQ(ps::model::toString(d->status), "skipped");
}

TEST(NodeAccuracy, DamagedValuesReadAsAbsent)
{
    const auto nodes = NodeAccuracy::listFromJson({1, nullptr, {{"node", ""}}, {{"node", 5}},
        {{"node", "a"}, {"error", -1.0}, {"eager_error", std::numeric_limits<double>::quiet_NaN()},
            {"leaves_band", "yes"}},
        {{"node", "b"}, {"error", 1e-3}, {"eager_error", 0.0}, {"leaves_band", true}},
        {{"node", "c"}, {"error", 0.0}, {"eager_error", 0.0}}});
    ASSERT_EQ(nodes.size(), 3u);
    EXPECT_EQ(nodes[0].node, "a");
    EXPECT_FALSE(nodes[0].error);
    EXPECT_FALSE(nodes[0].eagerError);
    EXPECT_FALSE(nodes[0].leavesBand);
    EXPECT_FALSE(nodes[0].bandRatio());
    EXPECT_TRUE(std::isinf(*nodes[1].bandRatio()));
    EXPECT_DOUBLE_EQ(*nodes[2].bandRatio(), 1.0);
    EXPECT_TRUE(NodeAccuracy::listFromJson("nodes").empty());

    const Report report = Report::fromJson(measuredReportWith(kAbsent,
        {{"verdict", "drift"}, {"nodes", {{"node"}}}, {"drift_starts", {1, "", "x"}},
            {"localise", {{"status", "perhaps"}}}}));
    const auto& c = report.captures.at(0);
    ASSERT_TRUE(c.verify && c.verify->accuracy);
    EXPECT_EQ(c.verify->accuracy->driftStarts, (std::vector<std::string>{"x"}));
    EXPECT_FALSE(c.verify->accuracy->localise);
    EXPECT_FALSE(DriftLocalisation::fromJson({{"status", "failed"}, {"seconds", -2}})->seconds);
}
