// TerminalText::safe: what a terminal would act on becomes visible; printable text stays.

#include <gtest/gtest.h>

#include "library/core/TerminalText.h"

namespace ps::library {
namespace {

TEST(TerminalText, ControlCharactersBecomeVisibleEscapes)
{
    EXPECT_EQ(TerminalText::safe("\x1b]0;pwned\x07"), "\\x1b]0;pwned\\x07");
    EXPECT_EQ(TerminalText::safe("\x1b[2J"), "\\x1b[2J");
    EXPECT_EQ(TerminalText::safe("a\rb\tc\x7f"), "a\\x0db\\x09c\\x7f");
    EXPECT_EQ(TerminalText::safe(std::string("nul\0here", 8)), "nul\\x00here");
    EXPECT_EQ(TerminalText::safe("two\nlines"), "two\\x0alines");
    EXPECT_EQ(TerminalText::safe("two\nlines", true), "two\nlines");
    EXPECT_EQ(TerminalText::safe("two\r\nlines", true), "two\\x0d\nlines");
}

TEST(TerminalText, C1ControlsAndInvalidUtf8AreEscaped)
{
    EXPECT_EQ(TerminalText::safe("\xc2\x9b"
                                 "2J"),
        "\\u009b2J");  // U+009B, the C1 CSI
    EXPECT_EQ(TerminalText::safe("\xc2\x80\xc2\x9f"), "\\u0080\\u009f");
    EXPECT_EQ(TerminalText::safe("\x9b"
                                 "2J"),
        "\\x9b2J");                                                             // a lone byte: CSI to an 8-bit terminal
    EXPECT_EQ(TerminalText::safe("\xc0\x9b"), "\\xc0\\x9b");                    // overlong
    EXPECT_EQ(TerminalText::safe("\xed\xa0\x80"), "\\xed\\xa0\\x80");           // a surrogate
    EXPECT_EQ(TerminalText::safe("\xe2\x82"), "\\xe2\\x82");                    // cut short
    EXPECT_EQ(TerminalText::safe("\xf4\x90\x80\x80"), "\\xf4\\x90\\x80\\x80");  // past U+10FFFF
}

TEST(TerminalText, BidirectionalControlsAreEscapedSoTextReadsAsItIs)
{
    // "evil.py" written with a right-to-left override would read as "yp.live" on screen.
    EXPECT_EQ(TerminalText::safe("a\u202e"
                                 "yp.live"),
        "a\\u202eyp.live");
    EXPECT_EQ(TerminalText::safe("\u2066x\u2069\u200e\u200f\u061c"), "\\u2066x\\u2069\\u200e\\u200f\\u061c");
    EXPECT_EQ(TerminalText::safe("\u202a\u202b\u202c\u202d"), "\\u202a\\u202b\\u202c\\u202d");
    EXPECT_EQ(TerminalText::safe("\u05e9\u05dc\u05d5\u05dd"), "\u05e9\u05dc\u05d5\u05dd");  // Hebrew itself stays
}

TEST(TerminalText, PrintableTextIsKeptAsItIs)
{
    for (const char* text : {"resnet_block", "/home/user/scripts/model v2.py", "caf\xc3\xa9 \xc2\xa0nbsp",
             "\xe6\x97\xa5\xe6\x9c\xac", "\xf0\x9f\x94\xa5 fire", "back\\slash", ""})
        EXPECT_EQ(TerminalText::safe(text), text);
}

}  // namespace
}  // namespace ps::library
