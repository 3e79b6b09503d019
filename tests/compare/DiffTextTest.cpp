// The short forms the diff shows: long metadata values summed up, long lines cut where they differ.
#include "compare/DiffText.h"

#include <gtest/gtest.h>

using ps::compare::DiffText;

namespace {

std::string names(int n, int changed = -1)
{
    std::string out = "[";
    for (int i = 0; i < n; ++i)
        out += (i ? ", '" : "'") + std::to_string(i) + (i == changed ? ".bias'" : ".weight'");
    return out + "]";
}

}  // namespace

TEST(DiffText, ShortValuesStayAsTheyAre)
{
    EXPECT_EQ(
        DiffText::values("'eager'", "'inductor'"), std::make_pair(std::string("'eager'"), std::string("'inductor'")));
}

TEST(DiffText, LongListsAreCountedAndTheFirstDifferenceNamed)
{
    const auto [a, b] = DiffText::values(names(62), names(110));
    EXPECT_EQ(a, "[62 entries]");
    EXPECT_EQ(b, "[110 entries]");
    const auto [c, d] = DiffText::values(names(62), names(62, 4));
    EXPECT_EQ(c, "[62 entries; #5 '4.weight']");
    EXPECT_EQ(d, "[62 entries; #5 '4.bias']");
}

TEST(DiffText, EntriesRespectQuotesAndNesting)
{
    std::vector<std::string> e;
    ASSERT_TRUE(DiffText::entries("[(32, 16), 'a,b', [1, [2]], \"x\\\"y\"]", &e));
    ASSERT_EQ(e.size(), 4u);
    EXPECT_EQ(e[0], "(32, 16)");
    EXPECT_EQ(e[1], "'a,b'");
    EXPECT_EQ(e[2], "[1, [2]]");
    EXPECT_FALSE(DiffText::entries("'[not a list'", &e));
    EXPECT_FALSE(DiffText::entries("[1, (2]", &e));
}

TEST(DiffText, ALongLineIsCutAroundWhereItDiffersAndSaysSo)
{
    const std::string head(200, 'a');
    const std::string a = head + "OLD" + std::string(200, 'z');
    const std::string b = head + "NEW" + std::string(200, 'z');
    const std::size_t at = DiffText::firstDifference(a, b);
    EXPECT_EQ(at, 200u);
    const std::string ca = DiffText::clip(a, at, 60);
    const std::string cb = DiffText::clip(b, at, 60);
    EXPECT_NE(ca.find("OLD"), std::string::npos) << ca;
    EXPECT_NE(cb.find("NEW"), std::string::npos) << cb;
    EXPECT_EQ(ca.rfind("\u2026", 0), 0u) << "cut at the start: says so";
    EXPECT_EQ(ca.substr(ca.size() - 3), "\u2026") << "cut at the end: says so";
    EXPECT_EQ(DiffText::clip("short", 0, 60), "short");
    // Not long lists: cut around the difference too.
    const auto [va, vb] = DiffText::values(a, b, 60);
    EXPECT_NE(va.find("OLD"), std::string::npos);
    EXPECT_NE(vb.find("NEW"), std::string::npos);
}
