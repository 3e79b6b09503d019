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
    // Scintilla marker and indicator numbers, in one place so that no two uses collide. Of two
    // background markers on a line the higher number is drawn, so the highlight (the lines that
    // the selection or a clicked violation points at) wins over a line's colour.
    /// Margin symbols of a line with a violation or error, and of a line with a warning.
    static constexpr int kErrorMarker = 2;
    static constexpr int kWarningMarker = 3;
    /// The first of LineColours::kCount background markers, one per colour of "Colour by Line".
    static constexpr int kLineColourMarker = 8;
    /// The marker number that paints the background of highlighted lines.
    static constexpr int kHighlightMarker = 24;
    /// Squiggles under the text of a line with a violation or error, and with a warning.
    static constexpr int kErrorIndicator = 8;
    static constexpr int kWarningIndicator = 9;
};

}  // namespace ps::ui
