#pragma once

#include <QMenu>

namespace ps::ui {

/// File > Examples: one entry per example script shipped with the studio
/// (ScriptLocations::examplesDir()), named after its file, its docstring's first line as the
/// tip. Choosing one asks for a copy of it (the window shows it as an unsaved script, so that
/// the shipped file is never edited). Listed afresh each time the menu opens.
class ExamplesMenu : public QMenu {
    Q_OBJECT
public:
    /// `dir` "" : ScriptLocations::examplesDir().
    explicit ExamplesMenu(const QString& dir = QString(), QWidget* parent = nullptr);

    QString dir() const { return m_dir; }
    /// Fills the menu from the folder (also done each time it is about to show).
    void rebuild();

    /// The first line of a script's module docstring, or "".
    static QString summaryOf(const QString& path);

signals:
    /// An example was chosen: its path and its text (read when chosen).
    void exampleChosen(const QString& path, const QString& text);
    /// It could not be read: a one-line reason.
    void exampleFailed(const QString& message);

private:
    QString m_dir;
};

}  // namespace ps::ui
