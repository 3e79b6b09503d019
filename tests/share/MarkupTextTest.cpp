#include "share/MarkupText.h"

#include <gtest/gtest.h>

using ps::share::MarkupText;

TEST(MarkupText, EscapesTheFiveMarkupCharacters)
{
    EXPECT_EQ(MarkupText::escape(R"(a < b && c > "d" 'e')"), "a &lt; b &amp;&amp; c &gt; &quot;d&quot; &#39;e&#39;");
}

TEST(MarkupText, KeepsTabsNewlinesAndUtf8)
{
    EXPECT_EQ(MarkupText::escape("x\ty\r\nz – ünïcode ✓ 𝔸"), "x\ty\r\nz – ünïcode ✓ 𝔸");
}

TEST(MarkupText, ReplacesWhatXmlForbids)
{
    // A coloured log line, a NUL, DEL and a C1 control (CSI as U+009B).
    EXPECT_EQ(MarkupText::escape("\x1b[31mred\x1b[0m"), "\xEF\xBF\xBD[31mred\xEF\xBF\xBD[0m");
    EXPECT_EQ(MarkupText::escape(std::string("a\0b", 3)),
        "a\xEF\xBF\xBD"
        "b");
    EXPECT_EQ(MarkupText::escape("\x7f"), "\xEF\xBF\xBD");
    EXPECT_EQ(MarkupText::escape("\xC2\x9B"), "\xEF\xBF\xBD");
}

TEST(MarkupText, ReplacesBytesThatAreNotUtf8)
{
    EXPECT_EQ(MarkupText::escape("\xff"), "\xEF\xBF\xBD");
    EXPECT_EQ(MarkupText::escape("\xC0\xAF"), "\xEF\xBF\xBD\xEF\xBF\xBD");                  // overlong '/'
    EXPECT_EQ(MarkupText::escape("\xED\xA0\x80"), "\xEF\xBF\xBD\xEF\xBF\xBD\xEF\xBF\xBD");  // a surrogate
    EXPECT_EQ(MarkupText::escape("ok\xE2\x9C"), "ok\xEF\xBF\xBD\xEF\xBF\xBD");              // cut short
    EXPECT_EQ(MarkupText::escape("\xEF\xBF\xBE"), "\xEF\xBF\xBD");                          // U+FFFE
}
