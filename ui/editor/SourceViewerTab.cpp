#include "ui/editor/SourceViewerTab.h"

#include "ui/editor/EditorTheme.h"
#include "ui/editor/ScriptFile.h"

#include <algorithm>

namespace ps::ui {

SourceViewerTab::SourceViewerTab(QWidget* parent) : QsciScintilla(parent)
{
    setObjectName(QStringLiteral("sourceViewer"));
    EditorTheme::applyPython(this);
    setReadOnly(true);
    setWrapMode(WrapNone);
    SendScintilla(SCI_SETSCROLLWIDTH, 1);
    SendScintilla(SCI_SETSCROLLWIDTHTRACKING, 1);
}

bool SourceViewerTab::open(const QString& path, QString* error)
{
    const ScriptFile file = ScriptFile::read(path);
    if (file.status == ScriptFile::Status::Refused) {
        if (error)
            *error = file.message.isEmpty() ? tr("%1 cannot be shown").arg(path) : file.message;
        return false;
    }
    setReadOnly(false);
    setText(file.text);
    setReadOnly(true);
    setModified(false);
    SendScintilla(SCI_SETSCROLLWIDTH, 1);
    m_path = file.path;
    m_line = 0;
    setToolTip(file.status == ScriptFile::Status::ReadOnly && !file.message.isEmpty() ? file.path + "\n" + file.message
                                                                                      : file.path);
    return true;
}

void SourceViewerTab::showLine(int line)
{
    markerDeleteAll(EditorTheme::kHighlightMarker);
    m_line = 0;
    if (line < 1 || lines() < 1)
        return;
    line = std::min(line, lines());
    markerAdd(line - 1, EditorTheme::kHighlightMarker);
    m_line = line;
    setCursorPosition(line - 1, 0);
    // The line in the middle of the view, with the code around it above and below.
    const int shown = std::max(1, static_cast<int>(SendScintilla(SCI_LINESONSCREEN)));
    setFirstVisibleLine(std::max(0, line - 1 - shown / 2));
    ensureLineVisible(line - 1);
}

int SourceViewerTab::firstVisibleLine() const
{
    return static_cast<int>(const_cast<SourceViewerTab*>(this)->SendScintilla(SCI_GETFIRSTVISIBLELINE)) + 1;
}

}  // namespace ps::ui
