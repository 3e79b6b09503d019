// LineDiff, the diff behind the Lessons' side-by-side scripts: exactly the lines that differ,
// hunks paired (line for line, or by likeness) with the part that differs, the lines shown opposite each other
// when the panes scroll together, and texts too large for the table.
#include "ui/lessons/LineDiff.h"

#include <gtest/gtest.h>

using ps::ui::LineDiff;

namespace {

std::vector<std::string> lines(std::initializer_list<const char*> l)
{
    return std::vector<std::string>(l.begin(), l.end());
}

std::string span(const std::string& s, int begin, int end)
{
    return s.substr(static_cast<std::size_t>(begin), static_cast<std::size_t>(end - begin));
}

TEST(LineDiff, IdenticalAndEmptyTexts)
{
    const auto a = lines({"x", "y"});
    const LineDiff same = LineDiff::compare(a, a);
    EXPECT_TRUE(same.identical());
    EXPECT_TRUE(same.removedLines().empty());
    EXPECT_TRUE(same.addedLines().empty());
    EXPECT_EQ(same.rightLineFor(1), 1);

    const LineDiff fromNothing = LineDiff::compare({}, a);
    EXPECT_EQ(fromNothing.addedLines(), (std::vector<int>{0, 1}));
    EXPECT_TRUE(fromNothing.pairs().empty());
    EXPECT_EQ(fromNothing.leftLineFor(1), 0);
    const LineDiff toNothing = LineDiff::compare(a, {});
    EXPECT_EQ(toNothing.removedLines(), (std::vector<int>{0, 1}));
    EXPECT_EQ(toNothing.rightLineFor(1), 0);
}

TEST(LineDiff, SplitLinesKeepsEmptyLinesAndDropsTheFinalNewline)
{
    EXPECT_EQ(LineDiff::splitLines("a\n\nb\n"), lines({"a", "", "b"}));
    EXPECT_EQ(LineDiff::splitLines("a\nb"), lines({"a", "b"}));
    EXPECT_TRUE(LineDiff::splitLines("").empty());
}

TEST(LineDiff, OnlyTheLinesThatDifferAndEachHunkPairedWithWhatDiffers)
{
    // A deletion, an insertion and a replacement, with equal lines between them.
    const auto left = lines({"head", "gone 1", "gone 2", "same", "x = a + offset", "tail"});
    const auto right = lines({"head", "same", "new 1", "new 2", "x = a + self.offset", "tail"});
    const LineDiff d = LineDiff::compare(left, right);
    EXPECT_FALSE(d.identical());
    EXPECT_EQ(d.removedLines(), (std::vector<int>{1, 2, 4}));
    EXPECT_EQ(d.addedLines(), (std::vector<int>{2, 3, 4}));

    // The replacement hunk: "x = ..." removed, "new 1", "new 2", "x = ..." added; the removed
    // line pairs with the one like it, and only what differs is marked.
    ASSERT_EQ(d.pairs().size(), 1u);
    const auto& p = d.pairs()[0];
    EXPECT_EQ(p.left, 4);
    EXPECT_EQ(p.right, 4);
    EXPECT_EQ(span(left[4], p.leftBegin, p.leftEnd), "");
    EXPECT_EQ(span(right[4], p.rightBegin, p.rightEnd), "self.");

    // Rows read in order: removed before added within a hunk.
    std::string kinds;
    for (const auto& r : d.rows())
        kinds += r.kind == LineDiff::Kind::Same ? '=' : r.kind == LineDiff::Kind::Removed ? '-' : '+';
    EXPECT_EQ(kinds, "=--=-+++=");
}

TEST(LineDiff, AnAmbiguousChangeReadsAsOneBlockInItsLowestPlace)
{
    // Removing "c1", "c2" and one of three blank lines: diff says 3,5d2, one block.
    const auto left = lines({"a", "", "c1", "c2", "", "", "b"});
    const auto right = lines({"a", "", "", "b"});
    const LineDiff d = LineDiff::compare(left, right);
    EXPECT_EQ(d.removedLines(), (std::vector<int>{2, 3, 4}));
    EXPECT_TRUE(d.addedLines().empty());
    for (const auto& r : d.rows()) {
        if (r.kind == LineDiff::Kind::Same) {
            EXPECT_EQ(left[static_cast<std::size_t>(r.left)], right[static_cast<std::size_t>(r.right)]);
        }
    }
}

TEST(LineDiff, APairedLineMarksOnlyItsDifferingMiddleAndNeverSplitsACharacter)
{
    const auto left = lines({"return self.lin(x) + offset", "t = 'caf\xc3\xa9'"});        // café
    const auto right = lines({"return self.lin(x) + self.offset", "t = 'caf\xc3\xa8'"});  // cafè
    const LineDiff d = LineDiff::compare(left, right);
    ASSERT_EQ(d.pairs().size(), 2u);
    const auto& a = d.pairs()[0];
    EXPECT_EQ(span(left[0], a.leftBegin, a.leftEnd), "");
    EXPECT_EQ(span(right[0], a.rightBegin, a.rightEnd), "self.");
    // é and è share their first byte: the span starts at the character, not inside it.
    const auto& b = d.pairs()[1];
    EXPECT_EQ(span(left[1], b.leftBegin, b.leftEnd), "\xc3\xa9");
    EXPECT_EQ(span(right[1], b.rightBegin, b.rightEnd), "\xc3\xa8");
}

TEST(LineDiff, LinesOppositeEachOtherFollowTheAlignment)
{
    const auto left = lines({"a", "removed", "b", "c", "old", "d"});
    const auto right = lines({"a", "b", "added 1", "added 2", "c", "new", "d"});
    const LineDiff d = LineDiff::compare(left, right);
    EXPECT_EQ(d.rightLineFor(0), 0);
    EXPECT_EQ(d.rightLineFor(1), 1);  // removed: the line the right side has at that place, "b"
    EXPECT_EQ(d.rightLineFor(2), 1);
    EXPECT_EQ(d.rightLineFor(3), 4);
    EXPECT_EQ(d.rightLineFor(4), 5);  // replaced: its counterpart
    EXPECT_EQ(d.rightLineFor(5), 6);
    EXPECT_EQ(d.leftLineFor(2), 3);  // added: the left side's next line, "c"
    EXPECT_EQ(d.leftLineFor(3), 3);
    EXPECT_EQ(d.leftLineFor(5), 4);
    EXPECT_EQ(d.rightLineFor(99), 6);  // clamped
}

TEST(LineDiff, TextsTooLargeForTheTableCountTheirWholeMiddleAsChanged)
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
    const LineDiff d = LineDiff::compare(left, right);
    EXPECT_EQ(d.removedLines().size(), 2100u);
    EXPECT_EQ(d.addedLines().size(), 2100u);
    EXPECT_EQ(d.removedLines().front(), 1);
    EXPECT_EQ(d.rightLineFor(0), 0);
    EXPECT_EQ(d.rightLineFor(2101), 2101);
}

}  // namespace

TEST(LineDiff, AHunksLinesPairByLikenessNotByPlace)
{
    // Two lines replaced by six: the four added first are new, the last two rewrite the two
    // removed. Paired in order, `_softmax` would be boxed against `relu_1`.
    const std::vector<std::string> left
        = {"def f():", "    s = softmax(addmm_1, -1)", "    a = alias(s)", "    return s"};
    const std::vector<std::string> right = {"def f():", "    r = relu(addmm_1)", "    b = alias(r)", "    t = t(w)",
        "    m = addmm(b, r, t)", "    s = softmax(addmm_2, -1)", "    a = alias(s, 0)", "    return s"};
    const LineDiff d = LineDiff::compare(left, right);
    ASSERT_EQ(d.pairs().size(), 2u);
    EXPECT_EQ(d.pairs()[0].left, 1);
    EXPECT_EQ(d.pairs()[0].right, 5);
    EXPECT_EQ(d.pairs()[1].left, 2);
    EXPECT_EQ(d.pairs()[1].right, 6);
    // Lines with nothing in common stay unpaired: nothing boxed.
    const LineDiff unlike = LineDiff::compare({"x = 1", "alpha()"}, {"x = 1", "zzzzzz", "qqqq"});
    EXPECT_TRUE(unlike.pairs().empty());
}
