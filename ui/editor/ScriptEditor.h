#pragma once

#include <Qsci/qsciscintilla.h>

#include <QList>
#include <QPair>

namespace ps::ui {

class EditorMarkers;
struct ScriptFile;

/// The script editor: QScintilla with the Python lexer, line numbers, folding, a find bar
/// (owned by the window), Ctrl+S through the window's Save action, and file drops.
/// Lines in this API are 1-based, as in tracebacks and in the worker's reports. The run's
/// violations and warnings are marked on their lines (markers()); a new document drops the
/// marks and the line colours of the run before.
class ScriptEditor : public QsciScintilla {
    Q_OBJECT
public:
    explicit ScriptEditor(QWidget* parent = nullptr);

    /// Shows the file unless ScriptFile refuses it (then the current document stays).
    ScriptFile open(const QString& path);
    /// An untitled script with the contract's two names.
    void newScript();
    /// Writes the text to filePath() (atomically); false with the reason in `error`.
    bool save(QString* error);
    bool saveAs(const QString& path, QString* error);

    QString filePath() const { return m_path; }
    /// Shown read-only (a huge file's preview, or not UTF-8): never saved over the file.
    bool isPreview() const { return m_preview; }

    /// Paints the background of these lines; the first is scrolled into view.
    void highlightLines(const QList<int>& lines);
    QList<int> highlightedLines() const { return m_highlighted; }
    /// Puts the cursor on a line, scrolled into view, and focuses the editor.
    void goToLine(int line);
    /// The vertical pixel centre of a line in the viewport (tests click there).
    int lineCenterY(int line) const;
    /// The margin icons, squiggles and hover text of the shown run's violations and warnings.
    EditorMarkers* markers() const { return m_markers; }
    /// The keys the editor handles itself, (what, keys), for Help > Keyboard Shortcuts.
    QList<QPair<QString, QString>> keyHelp() const;

signals:
    /// The user clicked (without dragging a selection) on this line.
    void lineClicked(int line);
    /// A file was dropped on the editor.
    void fileDropped(const QString& path);
    void filePathChanged(const QString& path);
    /// The editor's text was replaced by a script opened or a new one (not by an edit).
    void scriptReplaced();
    /// Esc then Tab (forward) or Shift+Tab: the user leaves the editor for the next pane. Tab
    /// alone indents, as in every code editor.
    void leaveRequested(bool forward);

protected:
    void keyPressEvent(QKeyEvent* event) override;
    void mouseReleaseEvent(QMouseEvent* event) override;
    void dragEnterEvent(QDragEnterEvent* event) override;
    void dragMoveEvent(QDragMoveEvent* event) override;
    void dropEvent(QDropEvent* event) override;

private:
    void setPath(const QString& path);
    /// The marks and colours of a run belong to the text it ran: a new document drops them.
    void dropRunMarks();

    EditorMarkers* m_markers;
    QString m_path;
    bool m_preview = false;
    bool m_escaped = false;  ///< the last key was Esc: a Tab now leaves the editor
    QList<int> m_highlighted;
};

}  // namespace ps::ui
