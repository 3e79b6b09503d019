#include "ui/editor/EditorTheme.h"

#include "ui/common/QtText.h"
#include "ui/editor/LineColours.h"

#include <Qsci/qscilexerpython.h>
#include <Qsci/qsciscintilla.h>

#include <QFontDatabase>

namespace ps::ui {

namespace { }  // namespace

QFont EditorTheme::monospace()
{
    QFont f = QFontDatabase::systemFont(QFontDatabase::FixedFont);
    f.setStyleHint(QFont::Monospace);
    return f;
}

QsciLexerPython* EditorTheme::applyPython(QsciScintilla* editor)
{
    const QPalette pal = editor->palette();
    const QColor paper = pal.color(QPalette::Base);
    const QColor ink = pal.color(QPalette::Text);
    const bool dark = paper.lightness() < 128;
    const QFont font = monospace();

    auto* lexer = new QsciLexerPython(editor);
    lexer->setDefaultFont(font);
    lexer->setFont(font, -1);
    lexer->setDefaultPaper(paper);
    lexer->setPaper(paper, -1);
    lexer->setDefaultColor(ink);
    lexer->setColor(ink, -1);
    auto hue = [&](int h, int s) { return dark ? QColor::fromHsl(h, s, 170) : QColor::fromHsl(h, s, 80); };
    lexer->setColor(mixed(ink, paper, 0.45), QsciLexerPython::Comment);
    lexer->setColor(mixed(ink, paper, 0.45), QsciLexerPython::CommentBlock);
    lexer->setColor(hue(30, 160), QsciLexerPython::Number);
    for (int s : {QsciLexerPython::DoubleQuotedString, QsciLexerPython::SingleQuotedString,
             QsciLexerPython::TripleSingleQuotedString, QsciLexerPython::TripleDoubleQuotedString,
             QsciLexerPython::DoubleQuotedFString, QsciLexerPython::SingleQuotedFString,
             QsciLexerPython::TripleSingleQuotedFString, QsciLexerPython::TripleDoubleQuotedFString,
             QsciLexerPython::UnclosedString})
        lexer->setColor(hue(110, 120), s);
    lexer->setColor(hue(215, 170), QsciLexerPython::Keyword);
    lexer->setColor(hue(265, 120), QsciLexerPython::ClassName);
    lexer->setColor(hue(190, 150), QsciLexerPython::FunctionMethodName);
    lexer->setColor(hue(320, 110), QsciLexerPython::Decorator);
    lexer->setFoldComments(true);
    lexer->setFoldQuotes(true);
    editor->setLexer(lexer);

    editor->setUtf8(true);
    editor->setMarginType(0, QsciScintilla::NumberMargin);
    editor->setMarginLineNumbers(0, true);
    editor->setMarginsFont(font);
    editor->setMarginWidth(0, QStringLiteral("00000"));
    editor->setMarginsBackgroundColor(mixed(paper, ink, 0.05));
    editor->setMarginsForegroundColor(mixed(ink, paper, 0.4));
    editor->setFolding(QsciScintilla::BoxedTreeFoldStyle, 2);
    editor->setFoldMarginColors(mixed(paper, ink, 0.05), mixed(paper, ink, 0.05));
    editor->setCaretForegroundColor(ink);
    editor->setCaretLineVisible(true);
    // Translucent, so that a highlighted or coloured line keeps its colour under the caret.
    QColor caretLine = ink;
    caretLine.setAlpha(dark ? 28 : 16);
    editor->setCaretLineBackgroundColor(caretLine);
    editor->setSelectionBackgroundColor(pal.color(QPalette::Highlight));
    editor->setSelectionForegroundColor(pal.color(QPalette::HighlightedText));
    editor->setMatchedBraceBackgroundColor(mixed(paper, pal.color(QPalette::Highlight), 0.3));
    editor->setBraceMatching(QsciScintilla::SloppyBraceMatch);
    editor->setIndentationsUseTabs(false);
    editor->setIndentationWidth(4);
    editor->setTabWidth(4);
    editor->setAutoIndent(true);
    editor->setIndentationGuides(true);
    editor->setIndentationGuidesBackgroundColor(mixed(paper, ink, 0.15));
    editor->setIndentationGuidesForegroundColor(mixed(paper, ink, 0.15));

    editor->markerDefine(QsciScintilla::Background, kHighlightMarker);
    editor->setMarkerBackgroundColor(
        mixed(paper, pal.color(QPalette::Highlight), dark ? 0.45 : 0.28), kHighlightMarker);
    LineColours::defineMarkers(editor);
    return lexer;
}

}  // namespace ps::ui
