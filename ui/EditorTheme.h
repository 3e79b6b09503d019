#pragma once

class QFont;
class QsciLexerPython;
class QsciScintilla;

namespace ps::ui {

/// Python lexer colours and margins that follow the system palette (light or dark): QScintilla's
/// defaults assume a white page. Shared by the script editor and the source view.
class EditorTheme {
public:
    static QFont monospace();
    /// Makes a Python lexer for `editor`, parented to it, and styles both from its palette.
    static QsciLexerPython* applyPython(QsciScintilla* editor);
    /// The marker number that paints the background of highlighted lines.
    static constexpr int kHighlightMarker = 1;
};

}  // namespace ps::ui
