// TextDiff, the one line diff (library diff, the Compare view, the Lessons' side-by-side
// scripts), and LinePairs: exactly the lines that differ, each hunk in the place diff tools put
// it, hunks paired (line for line, or by likeness) with the part that differs, the lines shown
// opposite each other when two panes scroll together, and texts too large for the table.
#include "compare/TextDiff.h"
#include "compare/LinePairs.h"

#include <gtest/gtest.h>

using ps::compare::LinePairs;
using ps::compare::TextDiff;

namespace {

std::vector<std::string> lines(std::initializer_list<const char*> l)
{
    return std::vector<std::string>(l.begin(), l.end());
}

/// The diff of two lists of lines; its views point into them, so they must outlive it.
TextDiff diffOf(const std::vector<std::string>& a, const std::vector<std::string>& b)
{
    auto views = [](const std::vector<std::string>& l) { return std::vector<std::string_view>(l.begin(), l.end()); };
    return TextDiff::compareLines(views(a), views(b));
}

std::string span(const std::string& s, int begin, int end)
{
    return s.substr(static_cast<std::size_t>(begin), static_cast<std::size_t>(end - begin));
}

TEST(TextDiff, IdenticalAndEmptyTexts)
{
    const auto a = lines({"x", "y"});
    const TextDiff same = diffOf(a, a);
    EXPECT_TRUE(same.identical());
    EXPECT_TRUE(same.removedLines().empty());
    EXPECT_TRUE(same.addedLines().empty());
    EXPECT_EQ(same.bLineFor(1), 1);

    const TextDiff fromNothing = diffOf({}, a);
    EXPECT_EQ(fromNothing.addedLines(), (std::vector<int>{0, 1}));
    EXPECT_TRUE(LinePairs::of(fromNothing).empty());
    EXPECT_EQ(fromNothing.aLineFor(1), 0);
    const TextDiff toNothing = diffOf(a, {});
    EXPECT_EQ(toNothing.removedLines(), (std::vector<int>{0, 1}));
    EXPECT_EQ(toNothing.bLineFor(1), 0);
}

TEST(TextDiff, SplitLinesKeepsEmptyLinesAndDropsTheFinalNewlineAndCarriageReturns)
{
    using V = std::vector<std::string_view>;
    EXPECT_EQ(TextDiff::splitLines("a\n\nb\n"), (V{"a", "", "b"}));
    EXPECT_EQ(TextDiff::splitLines("a\r\nb"), (V{"a", "b"}));
    EXPECT_TRUE(TextDiff::splitLines("").empty());
}

TEST(TextDiff, OnlyTheLinesThatDifferAndEachHunkPairedWithWhatDiffers)
{
    // A deletion, an insertion and a replacement, with equal lines between them.
    const auto left = lines({"head", "gone 1", "gone 2", "same", "x = a + offset", "tail"});
    const auto right = lines({"head", "same", "new 1", "new 2", "x = a + self.offset", "tail"});
    const TextDiff d = diffOf(left, right);
    EXPECT_FALSE(d.identical());
    EXPECT_EQ(d.removedLines(), (std::vector<int>{1, 2, 4}));
    EXPECT_EQ(d.addedLines(), (std::vector<int>{2, 3, 4}));

    // The replacement hunk: "x = ..." removed, "new 1", "new 2", "x = ..." added; the removed
    // line pairs with the one like it, and only what differs is marked.
    const auto pairs = LinePairs::of(d);
    ASSERT_EQ(pairs.size(), 1u);
    const auto& p = pairs[0];
    EXPECT_EQ(p.a, 4);
    EXPECT_EQ(p.b, 4);
    EXPECT_EQ(span(left[4], p.aBegin, p.aEnd), "");
    EXPECT_EQ(span(right[4], p.bBegin, p.bEnd), "self.");

    // Rows read in order: removed before added within a hunk.
    std::string kinds;
    for (const auto& r : d.rows())
        kinds += r.kind == TextDiff::Kind::Same ? '=' : r.kind == TextDiff::Kind::Removed ? '-' : '+';
    EXPECT_EQ(kinds, "=--=-+++=");
    // The same as hunks (1-based): lines 2-3 of a deleted before b's 2; line 5 of a replaced by
    // b's 3-5.
    ASSERT_EQ(d.hunks().size(), 2u);
    EXPECT_EQ(d.hunks()[0].aStart, 2);
    EXPECT_EQ(d.hunks()[0].aCount, 2);
    EXPECT_EQ(d.hunks()[0].bStart, 2);
    EXPECT_EQ(d.hunks()[0].bCount, 0);
    EXPECT_EQ(d.hunks()[1].aStart, 5);
    EXPECT_EQ(d.hunks()[1].aCount, 1);
    EXPECT_EQ(d.hunks()[1].bStart, 3);
    EXPECT_EQ(d.hunks()[1].bCount, 3);
    EXPECT_EQ(d.removed(), 3);
    EXPECT_EQ(d.added(), 3);
    EXPECT_EQ(d.mapLine(4), 2);  // "same"
    EXPECT_FALSE(d.mapLine(2).has_value());
}

TEST(TextDiff, AnAmbiguousChangeReadsAsOneBlockInItsLowestPlace)
{
    // Removing "c1", "c2" and one of three blank lines: diff says 3,5d2, one block.
    const auto left = lines({"a", "", "c1", "c2", "", "", "b"});
    const auto right = lines({"a", "", "", "b"});
    const TextDiff d = diffOf(left, right);
    EXPECT_EQ(d.removedLines(), (std::vector<int>{2, 3, 4}));
    EXPECT_TRUE(d.addedLines().empty());
    // One hunk, as `library diff` prints it and the window marks it.
    ASSERT_EQ(d.hunks().size(), 1u);
    EXPECT_EQ(d.hunks()[0].aStart, 3);
    EXPECT_EQ(d.hunks()[0].aCount, 3);
    EXPECT_EQ(d.hunks()[0].bCount, 0);
    for (const auto& r : d.rows()) {
        if (r.kind == TextDiff::Kind::Same) {
            EXPECT_EQ(left[static_cast<std::size_t>(r.a)], right[static_cast<std::size_t>(r.b)]);
        }
    }
}

TEST(TextDiff, APairedLineMarksOnlyItsDifferingMiddleAndNeverSplitsACharacter)
{
    const auto left = lines({"return self.lin(x) + offset", "t = 'caf\xc3\xa9'"});        // café
    const auto right = lines({"return self.lin(x) + self.offset", "t = 'caf\xc3\xa8'"});  // cafè
    const TextDiff d = diffOf(left, right);
    const auto pairs = LinePairs::of(d);
    ASSERT_EQ(pairs.size(), 2u);
    const auto& a = pairs[0];
    EXPECT_EQ(span(left[0], a.aBegin, a.aEnd), "");
    EXPECT_EQ(span(right[0], a.bBegin, a.bEnd), "self.");
    // é and è share their first byte: the span starts at the character, not inside it.
    const auto& b = pairs[1];
    EXPECT_EQ(span(left[1], b.aBegin, b.aEnd), "\xc3\xa9");
    EXPECT_EQ(span(right[1], b.bBegin, b.bEnd), "\xc3\xa8");
}

TEST(TextDiff, LinesOppositeEachOtherFollowTheAlignment)
{
    const auto left = lines({"a", "removed", "b", "c", "old", "d"});
    const auto right = lines({"a", "b", "added 1", "added 2", "c", "new", "d"});
    const TextDiff d = diffOf(left, right);
    EXPECT_EQ(d.bLineFor(0), 0);
    EXPECT_EQ(d.bLineFor(1), 1);  // removed: the line the right side has at that place, "b"
    EXPECT_EQ(d.bLineFor(2), 1);
    EXPECT_EQ(d.bLineFor(3), 4);
    EXPECT_EQ(d.bLineFor(4), 5);  // replaced: its counterpart
    EXPECT_EQ(d.bLineFor(5), 6);
    EXPECT_EQ(d.aLineFor(2), 3);  // added: the left side's next line, "c"
    EXPECT_EQ(d.aLineFor(3), 3);
    EXPECT_EQ(d.aLineFor(5), 4);
    EXPECT_EQ(d.bLineFor(99), 6);  // clamped
}

TEST(TextDiff, TextsTooLargeForTheTableCountTheirWholeMiddleAsChanged)
{
    std::vector<std::string> left, right;
    left.push_back("same head");
    right.push_back("same head");
    for (int i = 0; i < 2100; ++i) {
        left.push_back("left " + std::to_string(i));
        right.push_back("right " + std::to_string(i));
    }
    left.push_back("same tail");
    right.push_back("same tail");
    const TextDiff d = diffOf(left, right);
    EXPECT_EQ(d.removedLines().size(), 2100u);
    EXPECT_EQ(d.addedLines().size(), 2100u);
    EXPECT_EQ(d.removedLines().front(), 1);
    EXPECT_EQ(d.bLineFor(0), 0);
    EXPECT_EQ(d.bLineFor(2101), 2101);
}

}  // namespace

TEST(TextDiff, AHunksLinesPairByLikenessNotByPlace)
{
    // Two lines replaced by six: the four added first are new, the last two rewrite the two
    // removed. Paired in order, `_softmax` would be boxed against `relu_1`.
    const std::vector<std::string> left
        = {"def f():", "    s = softmax(addmm_1, -1)", "    a = alias(s)", "    return s"};
    const std::vector<std::string> right = {"def f():", "    r = relu(addmm_1)", "    b = alias(r)", "    t = t(w)",
        "    m = addmm(b, r, t)", "    s = softmax(addmm_2, -1)", "    a = alias(s, 0)", "    return s"};
    const TextDiff d = diffOf(left, right);
    const auto pairs = LinePairs::of(d);
    ASSERT_EQ(pairs.size(), 2u);
    EXPECT_EQ(pairs[0].a, 1);
    EXPECT_EQ(pairs[0].b, 5);
    EXPECT_EQ(pairs[1].a, 2);
    EXPECT_EQ(pairs[1].b, 6);
    // Lines with nothing in common stay unpaired: nothing boxed.
    const auto x = lines({"x = 1", "alpha()"});
    const auto y = lines({"x = 1", "zzzzzz", "qqqq"});
    EXPECT_TRUE(LinePairs::of(diffOf(x, y)).empty());
}
