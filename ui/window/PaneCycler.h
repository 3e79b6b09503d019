#pragma once

#include <QList>
#include <QObject>
#include <QPointer>
#include <QString>

#include <functional>

class QAction;
class QDockWidget;
class QWidget;

namespace ps::ui {

class FocusFrame;

/// Moves the keyboard focus between the window's panes (editor, report, library, log, ...), as
/// F6 does in Visual Studio and Qt Creator and Ctrl+Tab in many workbenches: Next Pane (F6,
/// Ctrl+Tab) and Previous Pane (Shift+F6, Ctrl+Shift+Tab) go round the panes in the order they
/// were added, skipping docks that are closed. Focusing a pane focuses its main widget: the
/// largest focusable widget shown in it (the editor, the graph canvas or the current tab's
/// list, the library's table, the log), so typing goes where the eye goes. The pane that holds
/// the focus, however it got there, is marked with a FocusFrame.
class PaneCycler : public QObject {
    Q_OBJECT
public:
    /// The actions are added to `window`, so their shortcuts work wherever the focus is in it.
    explicit PaneCycler(QWidget* window);

    /// A pane: `container` holds its widgets; `dock`, when set, is shown and raised to focus it;
    /// `focusRoot`, when set, says where in the container to look for the main widget first
    /// (the current tab's page), the container being the fallback.
    int addPane(
        const QString& name, QWidget* container, QDockWidget* dock = nullptr, std::function<QWidget*()> focusRoot = {});

    QAction* nextAction() const { return m_next; }
    QAction* previousAction() const { return m_previous; }

    /// The pane holding the focus, or -1.
    int currentPane() const;
    QString paneName(int pane) const;
    int paneCount() const { return static_cast<int>(m_panes.size()); }
    /// Shows (a dock), raises and focuses the pane's main widget; false if it has nothing to focus.
    bool focusPane(int pane);
    /// Focuses the next (step 1) or previous (step -1) pane that is open and can take the focus.
    void cycle(int step);
    /// The widget focusPane gives the focus to.
    QWidget* focusTarget(int pane) const;
    /// The pane the focus mark is drawn around now (-1: none).
    int markedPane() const;

private:
    struct Pane {
        QString name;
        QPointer<QWidget> container;
        QPointer<QDockWidget> dock;
        std::function<QWidget*()> focusRoot;
    };
    bool available(const Pane& pane) const;
    /// Moves the focus mark to the pane that holds the focus now.
    void markFocus();

    QWidget* m_window;
    QList<Pane> m_panes;
    QAction* m_next;
    QAction* m_previous;
    QPointer<FocusFrame> m_frame;
};

}  // namespace ps::ui
