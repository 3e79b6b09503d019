// `precompile-studio run --profile`: the verified artifact's calls profiled per kernel, the summary
// printing the totals and the most expensive kernels with their graph nodes and source lines.
#include "StudioRun.h"

#include <gtest/gtest.h>

using namespace ps::test;

TEST(ProfileRun, PrintsTheTotalsAndTheKernelsWithTheirNodesAndSourceLines)
{
    const auto p = runProcess({PS_TEST_STUDIO, "run", fixture("profiled_mlp.py"), "--profile", "--no-store"});
    ASSERT_EQ(p.exitCode, 0) << p.out << p.err;
    EXPECT_NE(p.out.find("    profile: 5 calls, "), std::string::npos) << p.out;
    EXPECT_NE(p.out.find(" per call (profiler overhead "), std::string::npos) << p.out;
    EXPECT_NE(p.out.find("; kernels' self time "), std::string::npos) << p.out;
    EXPECT_NE(p.out.find(" unattributed\n"), std::string::npos) << p.out;
    // two extern addmm (one per Linear) and the relu's C++ kernel, each with its nodes and the
    // line of the script whose call made them
    std::size_t addmm = 0;
    for (auto at = p.out.find("extern_kernels.addmm  "); at != std::string::npos;
         at = p.out.find("extern_kernels.addmm  ", at + 1))
        ++addmm;
    EXPECT_EQ(addmm, 2u) << p.out;
    EXPECT_NE(p.out.find("extern_kernels.addmm  t, addmm  profiled_mlp.py:12\n"), std::string::npos) << p.out;
    EXPECT_NE(p.out.find("  cpp_fused_relu_0  "), std::string::npos) << p.out;
}

TEST(ProfileRun, TheReportHoldsTheProfileOnlyWhenAskedFor)
{
    const auto profiled = runStudio(fixture("profiled_mlp.py"), {"--profile"});
    const auto& profile = profiled.report["captures"][0]["profile"];
    ASSERT_TRUE(profile.is_object()) << profiled.report.dump(1);
    EXPECT_EQ(profile["calls"], 5);
    double sum = profile["unattributed_us"].get<double>();
    for (const auto& k : profile["kernels"])
        sum += k["self_us"].get<double>();
    EXPECT_NEAR(sum, profile["profiled_wall_us"].get<double>(), 0.05 * profile["profiled_wall_us"].get<double>());
    const auto plain = runStudio(fixture("profiled_mlp.py"));
    EXPECT_FALSE(plain.report["captures"][0].contains("profile"));
}
