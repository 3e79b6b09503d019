#pragma once

#include <QColor>

#include <map>
#include <string>

class QPalette;
class QsciScintilla;

namespace ps::graph {
class GraphModel;
}

namespace ps::ui {

/// "Colour by Script Line", Compiler Explorer style: each script line that produced graph nodes
/// gets one colour, shared by that line in the editor, its nodes in the graph and the lines of
/// python_code (kernels, graph lines) that compute them. Colours are light backgrounds (dark on a
/// dark palette) from a fixed palette of kCount, given in line order so that neighbouring lines
/// differ most; they repeat past kCount lines. Lines here are 1-based.
class LineColours {
public:
    static constexpr int kCount = 12;

    /// The palette index of every line of `script` that some node of `graph` comes from.
    static std::map<int, int> ofScript(const graph::GraphModel& graph, const std::string& script);
    /// The colour of palette index `index` (taken modulo kCount) on `palette`'s page.
    static QColor colour(int index, const QPalette& palette);
    /// Defines the kCount background markers on `editor`, from its palette (EditorTheme does).
    static void defineMarkers(QsciScintilla* editor);
    /// Paints each line of `lines` (line -> palette index) in its colour; every other line loses
    /// its colour. An empty map clears.
    static void paint(QsciScintilla* editor, const std::map<int, int>& lines);
    /// The palette index painted on `line`, or -1.
    static int indexAt(const QsciScintilla* editor, int line);
};

}  // namespace ps::ui
