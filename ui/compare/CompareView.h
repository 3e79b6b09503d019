#pragma once

#include "compare/RunDiff.h"

#include <QKeySequence>
#include <QString>
#include <QStringList>
#include <QWidget>

class QComboBox;
class QLabel;
class QTabWidget;
class QToolButton;

namespace ps::ui {

class CompareCodePane;
class CompareGraphPane;
class CompareTablePane;
struct RunDocument;

/// Two runs compared, in a window of its own (like the Lessons): engine/compare's RunDiff of
/// run A and run B. On top the verdict first ("Equivalent" or "Differ") and why, numbered, in
/// the diff's order (script, inputs, options, torch or the machine); a capture selector when
/// the runs have more than one; then tabs: Graph (CompareGraphPane: the graphs side by side,
/// coloured, selection synchronised), Code (CompareCodePane: python_code by section) and
/// Cache · Verify · Timings (CompareTablePane).
///
/// Run A is the base (left; what B added is green on B, what it removed red on A): Swap Sides
/// (the button beside the verdict, Ctrl+Shift+X) makes B the base, everything compared again.
///
/// Not a child of the main window (it would stay above it); it deletes itself when closed.
class CompareView : public QWidget {
    Q_OBJECT
public:
    enum Tab { GraphTab, CodeTab, TableTab };

    CompareView(compare::RunSide a, compare::RunSide b, QWidget* parent = nullptr);

    /// A run the window shows (just run, or opened from disk) as the diff sees it.
    static compare::RunSide sideOf(const RunDocument& run, const QString& label);

    const compare::RunDiff& diff() const { return m_diff; }
    /// "Equivalent" or "Differ", and the line after it.
    QString verdictText() const;
    /// The numbered why lines ("1. options changed: backend eager -> inductor").
    QStringList whyLines() const;
    QComboBox* captureSelector() const { return m_captures; }
    QTabWidget* tabs() const { return m_tabs; }
    CompareGraphPane* graphPane() const { return m_graph; }
    CompareCodePane* codePane() const { return m_code; }
    CompareTablePane* tablePane() const { return m_table; }
    /// Shows capture `index` of the diff's captures in every tab.
    void setCapture(int index);
    /// Exchanges the base and the other run and compares them again: the verdict and why, the
    /// captures, the graphs, the code and the tables, the tab and capture shown kept.
    void swapSides();
    QToolButton* swapButton() const { return m_swap; }
    /// The shortcut of swapSides().
    static QKeySequence swapKey();
    /// What each key does in a Compare window, for Help > Keyboard Shortcuts.
    static QList<QPair<QString, QString>> keyHelp();

    /// Shows the window (1400x900, or most of a smaller screen), raised and active.
    void showAndRaise();

protected:
    void showEvent(QShowEvent* event) override;

private:
    /// Shows a capture's graphs once the panes have their size (a graph opens as big as its pane
    /// shows readable: sized 0, it would open on everything at once).
    void showGraphs();
    /// Compares m_sides and shows it all (the constructor, swapSides).
    void showDiff();

    compare::RunSide m_sides[2];
    int m_graphShown = -2;  ///< the capture the graph pane shows; -2 until the window is shown
    compare::RunDiff m_diff;
    QLabel* m_verdict;
    QLabel* m_why;
    QComboBox* m_captures;
    QWidget* m_captureBar;
    QToolButton* m_swap;
    QTabWidget* m_tabs;
    CompareGraphPane* m_graph;
    CompareCodePane* m_code;
    CompareTablePane* m_table;
};

}  // namespace ps::ui
