// model::VisibleText and VisibleStream: a host's output made visible piece by piece, a character
// cut between two pieces kept whole, the layout of a program's output kept.

#include "model/VisibleStream.h"
#include "model/VisibleText.h"

#include <gtest/gtest.h>

namespace ps::model {
namespace {

TEST(VisibleText, LayoutKeepsWhatAProgramsOutputIsMadeOf)
{
    EXPECT_EQ(VisibleText::of("a\tb\r\nc", VisibleText::Keep::Layout), "a\tb\r\nc");
    EXPECT_EQ(VisibleText::of("a\tb\r\nc", VisibleText::Keep::Newlines), "a\\x09b\\x0d\nc");
    EXPECT_EQ(VisibleText::of("a\tb\r\nc"), "a\\x09b\\x0d\\x0ac");
    EXPECT_EQ(VisibleText::of("\x1b]0;title\x07\x1b[2J", VisibleText::Keep::Layout), "\\x1b]0;title\\x07\\x1b[2J");
}

TEST(VisibleStream, ACharacterCutBetweenPiecesStaysWhole)
{
    const std::string text = "caf\xc3\xa9 \xe6\x97\xa5 \xf0\x9f\x94\xa5\n";  // é, 日, 🔥
    for (std::size_t cut = 0; cut <= text.size(); ++cut) {
        VisibleStream stream;
        std::string shown = stream.feed(text.substr(0, cut));  // one statement each: in this order
        shown += stream.feed(text.substr(cut));
        shown += stream.flush();
        EXPECT_EQ(shown, text) << "cut at " << cut;
    }
}

TEST(VisibleStream, EscapesAreShownWhereverThePiecesEnd)
{
    const std::string text = "ok \x1b[31mred\x1b[0m \xe2\x80\xae"
                             "evil\n";
    std::string shown;
    VisibleStream stream;
    for (char c : text)
        shown += stream.feed(std::string(1, c));
    shown += stream.flush();
    EXPECT_EQ(shown, "ok \\x1b[31mred\\x1b[0m \\u202eevil\n");
}

TEST(VisibleStream, ABrokenCharacterAtTheEndIsShownNotLost)
{
    VisibleStream stream;
    EXPECT_EQ(stream.feed("end \xe6\x97"), "end ");
    EXPECT_EQ(stream.flush(), "\\xe6\\x97");
    EXPECT_EQ(stream.feed("\xff\xfe"), "\\xff\\xfe");  // bytes no character starts with: shown at once
}

}  // namespace
}  // namespace ps::model
