#pragma once

#include <Qsci/qsciscintilla.h>

namespace ps::ui {

/// A file the user cannot change shown beside the script: a library's source (torchvision's
/// resnet.py) opened from a frame of a node's stack. Read-only, with the editor's Python
/// colours and line numbers; one line highlighted (the frame's). Files are read through
/// ScriptFile (a binary or missing file is refused, a huge one shown in part). Lines are 1-based.
class SourceViewerTab : public QsciScintilla {
    Q_OBJECT
public:
    explicit SourceViewerTab(QWidget* parent = nullptr);

    /// Reads `path`; false (and why in `error`) when it cannot be shown, the tab unchanged.
    bool open(const QString& path, QString* error);
    /// Highlights `line`, puts the cursor there and scrolls it to the middle of the view.
    void showLine(int line);

    QString filePath() const { return m_path; }
    /// The highlighted line (0: none).
    int highlightedLine() const { return m_line; }
    /// The first line in view (1-based).
    int firstVisibleLine() const;

private:
    QString m_path;
    int m_line = 0;
};

}  // namespace ps::ui
