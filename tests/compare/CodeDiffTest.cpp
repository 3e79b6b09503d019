#include "compare/CodeDiff.h"

#include <gtest/gtest.h>

using nlohmann::json;
using ps::compare::Change;
using ps::compare::CodeDiff;

namespace {

json kernel(const std::string& name, const std::string& sha, std::vector<std::string> nodes)
{
    return {{"name", name}, {"kind", "triton"}, {"start", 1}, {"end", 2}, {"source_sha256", sha}, {"nodes", nodes},
        {"ops", json::array()}};
}

json capture(json kernels, int metadataStart, int metadataEnd, int total)
{
    return {{"name", "fn"},
        {"lowering",
            {{"backend", "inductor"},
                {"sections",
                    {{{"kind", "header"}, {"title", "Header"}, {"start", 1}, {"end", metadataStart - 1}},
                        {{"kind", "metadata"}, {"title", "Calling-convention metadata"}, {"start", metadataStart},
                            {"end", metadataEnd}},
                        {{"kind", "driver"}, {"title", "Driver"}, {"start", metadataEnd + 1}, {"end", total}}}},
                {"kernels", kernels}}}};
}

const std::map<std::string, std::string> kSameNames = {{"a", "a"}, {"b", "b"}, {"c", "c"}};

}  // namespace

TEST(CodeDiff, AChangedFusionReadsAsOneRefusedGroupAndEqualKernelsAsSame)
{
    const json a = capture({kernel("k1", "s1", {"a", "b"}), kernel("k2", "s2", {"c"})}, 2, 3, 4);
    const json b = capture({kernel("k12", "s3", {"a", "b", "c"})}, 2, 3, 4);
    const std::string code = "# h\nBACKEND = 'inductor'\nX = 1\ncall()\n";
    const CodeDiff d = CodeDiff::compare(a, code, b, code + "\n", kSameNames);
    ASSERT_EQ(d.kernels().size(), 1u);
    EXPECT_EQ(d.kernels()[0].status, Change::Refused);
    EXPECT_EQ(d.kernels()[0].a.size(), 2u);
    EXPECT_EQ(d.kernels()[0].b.size(), 1u);

    const CodeDiff same = CodeDiff::compare(a, code, a, code, kSameNames);
    EXPECT_TRUE(same.identical());
    EXPECT_EQ(same.kernelsChanged(), 0);
}

TEST(CodeDiff, TheSameNodesWithNewCodeIsAChangedKernel)
{
    const json a = capture({kernel("k1", "s1", {"a", "b"})}, 2, 3, 4);
    const json b = capture({kernel("k1", "s9", {"a", "b"})}, 2, 3, 4);
    const CodeDiff d = CodeDiff::compare(a, std::string("x\n"), b, std::string("y\n"), kSameNames);
    ASSERT_EQ(d.kernels().size(), 1u);
    EXPECT_EQ(d.kernels()[0].status, Change::Changed);
}

TEST(CodeDiff, MetadataIsComparedFieldByFieldAndSectionsByKind)
{
    const json a = capture(json::array(), 2, 4, 5);
    const json b = capture(json::array(), 2, 4, 5);
    const std::string codeA = "# header\nBACKEND = 'eager'\nPARAM_SHAPES = [(8, 4)]\nNUM_POSITIONAL_ARGS = 2\ncall()\n";
    const std::string codeB = "# header\nBACKEND = 'eager'\nPARAM_SHAPES = [(8, 8)]\nNUM_POSITIONAL_ARGS = 2\ncall()\n";
    const CodeDiff d = CodeDiff::compare(a, codeA, b, codeB, {});
    ASSERT_EQ(d.metadata().size(), 1u);
    EXPECT_EQ(d.metadata()[0].name, "PARAM_SHAPES");
    EXPECT_EQ(d.metadata()[0].before, "[(8, 4)]");
    EXPECT_EQ(d.metadata()[0].after, "[(8, 8)]");
    int changed = 0;
    for (const auto& s : d.sections())
        if (s.status != Change::Same) {
            ++changed;
            EXPECT_EQ(s.kind, "metadata");
            EXPECT_EQ(s.added, 1);
            EXPECT_EQ(s.removed, 1);
        }
    EXPECT_EQ(changed, 1);
}
