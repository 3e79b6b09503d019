#include "ui/editor/LineColours.h"

#include "graph/GraphModel.h"
#include "ui/editor/EditorTheme.h"

#include <Qsci/qsciscintilla.h>

#include <QPalette>

#include <array>
#include <set>

namespace ps::ui {

namespace {

// Hues in the order they are handed out: each far from the one before it. Blue comes last: the
// highlight of the lines the selection points at is blue-grey.
constexpr std::array<int, LineColours::kCount> kHues = {35, 130, 300, 55, 180, 0, 260, 90, 330, 155, 20, 210};

}  // namespace

std::map<int, int> LineColours::ofScript(const graph::GraphModel& graph, const std::string& script)
{
    std::set<int> lines;
    for (const auto& n : graph.nodes())
        if (n.sourceLine > 0 && n.sourceFile == script)
            lines.insert(n.sourceLine);
    std::map<int, int> out;
    int next = 0;
    for (int line : lines)
        out.emplace(line, next++ % kCount);
    return out;
}

QColor LineColours::colour(int index, const QPalette& palette)
{
    const int hue = kHues[static_cast<std::size_t>(((index % kCount) + kCount) % kCount)];
    const bool dark = palette.color(QPalette::Base).lightness() < 128;
    // As 8-bit RGB, as a box's fill and a marker's colour keep it, so that they compare equal.
    return QColor((dark ? QColor::fromHsl(hue, 90, 62) : QColor::fromHsl(hue, 200, 222)).rgb());
}

void LineColours::defineMarkers(QsciScintilla* editor)
{
    for (int i = 0; i < kCount; ++i) {
        editor->markerDefine(QsciScintilla::Background, EditorTheme::kLineColourMarker + i);
        editor->setMarkerBackgroundColor(colour(i, editor->palette()), EditorTheme::kLineColourMarker + i);
    }
}

void LineColours::paint(QsciScintilla* editor, const std::map<int, int>& lines)
{
    for (int i = 0; i < kCount; ++i)
        editor->markerDeleteAll(EditorTheme::kLineColourMarker + i);
    for (const auto& [line, index] : lines)
        if (line >= 1 && line <= editor->lines())
            editor->markerAdd(line - 1, EditorTheme::kLineColourMarker + ((index % kCount) + kCount) % kCount);
}

int LineColours::indexAt(const QsciScintilla* editor, int line)
{
    if (line < 1 || line > editor->lines())
        return -1;
    const unsigned marks = editor->markersAtLine(line - 1);
    for (int i = 0; i < kCount; ++i)
        if (marks & (1u << (EditorTheme::kLineColourMarker + i)))
            return i;
    return -1;
}

}  // namespace ps::ui
