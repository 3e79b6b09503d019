#pragma once

#include <QObject>

class QDockWidget;
class QMainWindow;
class QSplitter;

namespace ps::ui {

/// The window's first layout, made once, when the window is first shown at its real size
/// (unless a saved layout was restored): the report gets kReportShare of the window's width
/// (the room a graph needs), the editor the rest of the central splitter; the library dock
/// sits on the left where that still leaves the editor kEditorComfort pixels (2560 wide),
/// else at the bottom beside the log, where its columns have room (1280x800: editor about
/// 470 px, canvas about 790 px, library about 510 px; 1920x1080: 700, 1200 and 770 px).
///
/// After that nothing moves by itself: the splitter keeps its proportions when the window is
/// resized (stretch factors equal to the shares), and both of its panes have fixed minimum
/// widths, so that what a report tab shows (a wide table, a chart) can no longer push the
/// splitter when tabs change; a tab's content fits its page or scrolls.
class WorkbenchLayout : public QObject {
    Q_OBJECT
public:
    static constexpr double kReportShare = 0.63;
    static constexpr int kEditorComfort = 460;  ///< px: about 55 characters beside the margins
    static constexpr int kEditorMinimum = 200;
    static constexpr int kReportMinimum = 420;
    static constexpr int kLibraryWidth = 300;     ///< on the left: its name, backend and time
    static constexpr double kBottomShare = 0.27;  ///< of the window's height, for library and log (6 rows at 800)

    WorkbenchLayout(QMainWindow* window, QSplitter* split, QDockWidget* library, QDockWidget* log);

    /// A saved layout was restored: the first show keeps it.
    void setRestored(bool restored) { m_done = restored; }
    /// Lays the window out for its present size now (the first show does it by itself).
    void apply();
    /// Where apply put the library: true on the left, false at the bottom.
    bool libraryOnTheLeft() const { return m_libraryLeft; }

protected:
    bool eventFilter(QObject* watched, QEvent* event) override;

private:
    QMainWindow* m_window;
    QSplitter* m_split;
    QDockWidget* m_library;
    QDockWidget* m_log;
    bool m_done = false;
    bool m_libraryLeft = true;
};

}  // namespace ps::ui
