#pragma once

#include <QTabWidget>

namespace ps::ui {

class SourceViewerTab;

/// The editor's side of the window as tabs: the script (its pane, always the first tab, never
/// closed) and a read-only SourceViewerTab per other file opened from a node's stack (a
/// library's source), each closable. The tab bar shows only while a viewer is open, so a
/// window without one looks as it always did. One tab per file: opening a file again goes to
/// its tab and line.
class EditorTabs : public QTabWidget {
    Q_OBJECT
public:
    explicit EditorTabs(QWidget* scriptPane, QWidget* parent = nullptr);

    /// Opens `path` read-only at `line` in its tab (made if need be) and shows it; null (and
    /// why in `error`) when the file cannot be shown (gone, a folder, binary).
    SourceViewerTab* openSource(const QString& path, int line, QString* error = nullptr);
    /// The viewer tab of `path`, or null.
    SourceViewerTab* viewerOf(const QString& path) const;
    int viewerCount() const { return count() - 1; }
    /// Shows the script's tab.
    void showScript();
    /// The script tab's title ("model.py", "untitled.py").
    void setScriptTitle(const QString& title);

private:
    QWidget* m_scriptPane;
};

}  // namespace ps::ui
