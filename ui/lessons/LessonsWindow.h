#pragma once

#include <QWidget>

class QCloseEvent;
class QShowEvent;

namespace ps::ui {

class LessonsView;

/// The Lessons in a window of their own, beside the main window rather than docked in it: the
/// main window's editor keeps its size, and the lessons get the room to show broken.py and
/// fixed.py side by side at full width (LessonsView). Closing the window stops the lessons'
/// worker (LessonsView::releaseWorker), giving back its memory; showing it again starts a
/// fresh one when `prewarm`, else the next run does.
///
/// Not a child of the main window (a child window would stay above it, over the editor that
/// "Open in Editor" fills); the main window owns it and closes it when it closes itself.
class LessonsWindow : public QWidget {
    Q_OBJECT
public:
    explicit LessonsWindow(const QString& pythonEnv, bool prewarm, QWidget* parent = nullptr);

    LessonsView* view() const { return m_view; }
    /// Shows the window (the first time roomy: 1400x900, or most of a smaller screen), raised
    /// and active.
    void showAndRaise();

protected:
    void showEvent(QShowEvent* event) override;
    void closeEvent(QCloseEvent* event) override;

private:
    LessonsView* m_view;
    bool m_prewarm;
    bool m_placed = false;
};

}  // namespace ps::ui
