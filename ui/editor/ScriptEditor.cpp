#include "ui/editor/ScriptEditor.h"

#include "ui/editor/EditorMarkers.h"
#include "ui/editor/EditorTheme.h"
#include "ui/editor/LineColours.h"
#include "ui/editor/ScriptFile.h"

#include <Qsci/qscicommandset.h>

#include <QDragEnterEvent>
#include <QDropEvent>
#include <QFileInfo>
#include <QKeyEvent>
#include <QMimeData>
#include <QSaveFile>

namespace ps::ui {

namespace {
QString droppedFile(const QMimeData* mime)
{
    if (!mime || !mime->hasUrls())
        return {};
    for (const QUrl& url : mime->urls())
        if (url.isLocalFile())
            return url.toLocalFile();
    return {};
}
}  // namespace

ScriptEditor::ScriptEditor(QWidget* parent) : QsciScintilla(parent)
{
    EditorTheme::applyPython(this);
    // The window's shortcuts win over Scintilla's defaults on their keys: Ctrl+Shift+L (Go to
    // the Library; Scintilla's line delete moves to Ctrl+Shift+K, as in VS Code) and Ctrl+L (Go
    // to Line; Scintilla's line cut).
    if (QsciCommand* lineDelete = standardCommands()->find(QsciCommand::LineDelete))
        lineDelete->setKey(QKeyCombination(Qt::CTRL | Qt::SHIFT, Qt::Key_K).toCombined());
    if (QsciCommand* lineCut = standardCommands()->find(QsciCommand::LineCut))
        lineCut->setKey(0);
    m_markers = new EditorMarkers(this);
    setAcceptDrops(true);
    setWrapMode(WrapNone);
    setEolMode(EolUnix);
    // The horizontal scroll bar follows the longest line seen: none for short code (Scintilla
    // otherwise reserves 2000 px and shows a bar whatever the text).
    SendScintilla(SCI_SETSCROLLWIDTH, 1);
    SendScintilla(SCI_SETSCROLLWIDTHTRACKING, 1);
}

ScriptFile ScriptEditor::open(const QString& path)
{
    ScriptFile file = ScriptFile::read(path);
    if (file.status == ScriptFile::Status::Refused)
        return file;
    setReadOnly(false);
    setText(file.text);
    SendScintilla(SCI_SETSCROLLWIDTH, 1);  // this file's lines, not the last one's
    m_preview = file.status == ScriptFile::Status::ReadOnly;
    setReadOnly(m_preview);
    setModified(false);
    dropRunMarks();
    setCursorPosition(0, 0);
    setPath(file.path);
    emit scriptReplaced();
    return file;
}

void ScriptEditor::newScript()
{
    setReadOnly(false);
    m_preview = false;
    setText(QStringLiteral("import torch\n\n\ndef fn(x):\n    return torch.sin(x) * 2 + 1\n\n\n"
                           "example_inputs = (torch.randn(8, 8),)\n"));
    SendScintilla(SCI_SETSCROLLWIDTH, 1);
    setModified(false);
    dropRunMarks();
    setPath(QString());
    emit scriptReplaced();
}

bool ScriptEditor::save(QString* error)
{
    if (m_path.isEmpty()) {
        *error = tr("the script has no file name yet");
        return false;
    }
    return saveAs(m_path, error);
}

bool ScriptEditor::saveAs(const QString& path, QString* error)
{
    if (m_preview) {
        *error = tr("this file is shown read-only (in part, or not UTF-8); saving would damage it");
        return false;
    }
    QSaveFile file(path);
    if (!file.open(QIODevice::WriteOnly)) {
        *error = tr("%1 cannot be written: %2").arg(path, file.errorString());
        return false;
    }
    file.write(text().toUtf8());
    if (!file.commit()) {
        *error = tr("%1 cannot be written: %2").arg(path, file.errorString());
        return false;
    }
    setModified(false);
    setPath(QFileInfo(path).absoluteFilePath());
    return true;
}

void ScriptEditor::setPath(const QString& path)
{
    if (path == m_path)
        return;
    m_path = path;
    emit filePathChanged(path);
}

void ScriptEditor::dropRunMarks()
{
    highlightLines({});
    m_markers->clear();
    LineColours::paint(this, {});
}

void ScriptEditor::highlightLines(const QList<int>& lines)
{
    markerDeleteAll(EditorTheme::kHighlightMarker);
    m_highlighted.clear();
    for (int line : lines) {
        if (line < 1 || line > this->lines())
            continue;
        markerAdd(line - 1, EditorTheme::kHighlightMarker);
        m_highlighted.append(line);
    }
    std::sort(m_highlighted.begin(), m_highlighted.end());
    m_highlighted.erase(std::unique(m_highlighted.begin(), m_highlighted.end()), m_highlighted.end());
    if (!m_highlighted.isEmpty())
        ensureLineVisible(m_highlighted.front() - 1);
}

void ScriptEditor::goToLine(int line)
{
    if (line < 1)
        return;
    line = std::min(line, lines());
    setCursorPosition(line - 1, 0);
    ensureLineVisible(line - 1);
    setFocus();
}

int ScriptEditor::lineCenterY(int line) const
{
    const long pos = positionFromLineIndex(line - 1, 0);
    auto* self = const_cast<ScriptEditor*>(this);
    const long y = self->SendScintilla(SCI_POINTYFROMPOSITION, 0UL, pos);
    const long h = self->SendScintilla(SCI_TEXTHEIGHT, static_cast<unsigned long>(line - 1));
    return static_cast<int>(y + h / 2);
}

QList<QPair<QString, QString>> ScriptEditor::keyHelp() const
{
    QList<QPair<QString, QString>> keys = {{tr("Indent / unindent the line or selection"), tr("Tab, Shift+Tab")},
        {tr("Leave the editor for the next / previous pane"), tr("Esc then Tab, Esc then Shift+Tab")}};
    if (const QsciCommand* lineDelete = standardCommands()->find(QsciCommand::LineDelete);
        lineDelete && lineDelete->key())
        keys.append({tr("Delete the line"), QKeySequence(lineDelete->key()).toString(QKeySequence::NativeText)});
    return keys;
}

void ScriptEditor::keyPressEvent(QKeyEvent* event)
{
    const bool tab = event->key() == Qt::Key_Tab || event->key() == Qt::Key_Backtab;
    if (m_escaped && tab && !(event->modifiers() & (Qt::ControlModifier | Qt::AltModifier))) {
        m_escaped = false;
        event->accept();
        emit leaveRequested(event->key() == Qt::Key_Tab && !(event->modifiers() & Qt::ShiftModifier));
        return;
    }
    const int key = event->key();
    if (key != Qt::Key_Shift && key != Qt::Key_Control && key != Qt::Key_Alt && key != Qt::Key_Meta)
        m_escaped = key == Qt::Key_Escape;  // a modifier pressed on its way to Shift+Tab keeps it
    QsciScintilla::keyPressEvent(event);
}

void ScriptEditor::mouseReleaseEvent(QMouseEvent* event)
{
    QsciScintilla::mouseReleaseEvent(event);
    if (event->button() == Qt::LeftButton && !hasSelectedText()) {
        int line, index;
        getCursorPosition(&line, &index);
        emit lineClicked(line + 1);
    }
}

void ScriptEditor::dragEnterEvent(QDragEnterEvent* event)
{
    if (!droppedFile(event->mimeData()).isEmpty()) {
        event->acceptProposedAction();
        return;
    }
    QsciScintilla::dragEnterEvent(event);
}

void ScriptEditor::dragMoveEvent(QDragMoveEvent* event)
{
    if (!droppedFile(event->mimeData()).isEmpty()) {
        event->acceptProposedAction();
        return;
    }
    QsciScintilla::dragMoveEvent(event);
}

void ScriptEditor::dropEvent(QDropEvent* event)
{
    const QString file = droppedFile(event->mimeData());
    if (!file.isEmpty()) {
        event->acceptProposedAction();
        emit fileDropped(file);
        return;
    }
    QsciScintilla::dropEvent(event);
}

}  // namespace ps::ui
