#include "compare/SequenceDiff.h"
#include "compare/TextDiff.h"

#include <gtest/gtest.h>

#include <algorithm>

#include <random>

using ps::compare::SequenceDiff;
using ps::compare::TextDiff;

namespace {

/// The LCS length by dynamic programming, for checking the alignment is minimal.
int lcs(const std::vector<std::uint64_t>& a, const std::vector<std::uint64_t>& b)
{
    std::vector<std::vector<int>> t(a.size() + 1, std::vector<int>(b.size() + 1, 0));
    for (std::size_t i = 1; i <= a.size(); ++i)
        for (std::size_t j = 1; j <= b.size(); ++j)
            t[i][j] = a[i - 1] == b[j - 1] ? t[i - 1][j - 1] + 1 : std::max(t[i - 1][j], t[i][j - 1]);
    return t[a.size()][b.size()];
}

bool monotoneAndEqual(const std::vector<std::pair<int, int>>& pairs, const std::vector<std::uint64_t>& a,
    const std::vector<std::uint64_t>& b)
{
    for (std::size_t k = 0; k < pairs.size(); ++k) {
        if (a[static_cast<std::size_t>(pairs[k].first)] != b[static_cast<std::size_t>(pairs[k].second)])
            return false;
        if (k && (pairs[k].first <= pairs[k - 1].first || pairs[k].second <= pairs[k - 1].second))
            return false;
    }
    return true;
}

}  // namespace

TEST(SequenceDiff, AlignmentIsALongestCommonSubsequenceOnRandomSequences)
{
    std::mt19937 rng(7);
    for (int trial = 0; trial < 200; ++trial) {
        std::vector<std::uint64_t> a(rng() % 40);
        std::vector<std::uint64_t> b(rng() % 40);
        for (auto& x : a)
            x = rng() % 4;
        for (auto& x : b)
            x = rng() % 4;
        const auto found = SequenceDiff::align(a, b);
        ASSERT_TRUE(monotoneAndEqual(found.pairs, a, b));
        EXPECT_EQ(static_cast<int>(found.pairs.size()), lcs(a, b)) << "trial " << trial;
        EXPECT_FALSE(found.approximate);
    }
}

TEST(SequenceDiff, VeryDifferentLongSequencesFallBackToAMonotoneApproximateAlignment)
{
    std::mt19937 rng(3);
    std::vector<std::uint64_t> a(30000);
    std::vector<std::uint64_t> b(30000);
    for (auto& x : a)
        x = rng() % 50;
    for (auto& x : b)
        x = rng() % 50;
    const auto found = SequenceDiff::align(a, b);
    EXPECT_TRUE(found.approximate);
    EXPECT_TRUE(monotoneAndEqual(found.pairs, a, b));
    EXPECT_GT(found.pairs.size(), 1000u);
}

TEST(SequenceDiff, KeysOnceASideAlignExactlyPastTheEditCap)
{
    // 20000 distinct keys; b drops 5000 of them and gains 5000 new ones at random places: 10000
    // edits, past the cap, yet the fallback is exact when no key repeats on a side.
    std::mt19937 rng(7);
    std::vector<std::uint64_t> a(20000);
    for (std::size_t i = 0; i < a.size(); ++i)
        a[i] = i;
    std::vector<std::uint64_t> b;
    std::uint64_t fresh = 1000000;
    for (std::uint64_t x : a) {
        if (rng() % 4 == 0)
            b.push_back(fresh++);
        else
            b.push_back(x);
    }
    const int kept = static_cast<int>(std::count_if(b.begin(), b.end(), [](std::uint64_t x) { return x < 1000000; }));
    ASSERT_GT(static_cast<int>(a.size()) - kept + static_cast<int>(fresh - 1000000), SequenceDiff::kMaxEdits);
    const auto found = SequenceDiff::align(a, b);
    EXPECT_FALSE(found.approximate);
    EXPECT_TRUE(monotoneAndEqual(found.pairs, a, b));
    EXPECT_EQ(static_cast<int>(found.pairs.size()), kept);
}

TEST(TextDiff, AnInsertedBlockIsOneHunkAndUnchangedLinesMapAcross)
{
    const TextDiff d = TextDiff::compare("a\nb\nc\nd\n", "a\nb\nX\nY\nc\nd\n");
    ASSERT_EQ(d.hunks().size(), 1u);
    EXPECT_EQ(d.hunks()[0].bStart, 3);
    EXPECT_EQ(d.hunks()[0].bCount, 2);
    EXPECT_EQ(d.hunks()[0].aCount, 0);
    EXPECT_EQ(d.added(), 2);
    EXPECT_EQ(d.removed(), 0);
    EXPECT_EQ(d.mapLine(3), 5);  // "c" moved down by two
    EXPECT_EQ(d.mapLine(1), 1);
}

TEST(TextDiff, AnEditedLineDoesNotMap)
{
    const TextDiff d = TextDiff::compare("x = 1\ny = 2\n", "x = 1\ny = 3\n");
    ASSERT_EQ(d.hunks().size(), 1u);
    EXPECT_EQ(d.hunks()[0].aCount, 1);
    EXPECT_EQ(d.hunks()[0].bCount, 1);
    EXPECT_FALSE(d.mapLine(2).has_value());
    EXPECT_TRUE(TextDiff::compare("same\n", "same\n").identical());
}
