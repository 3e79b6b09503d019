#pragma once

#include "ui/library/RunStore.h"

#include <QHash>
#include <QList>
#include <QWidget>

class QComboBox;
class QGridLayout;
class QLabel;
class QLineEdit;
class QMenu;
class QSortFilterProxyModel;
class QStandardItemModel;
class QTimer;
class QToolBar;
class QTreeView;

namespace ps::ui {

class ElidedLabel;
class LibraryActions;

/// The library dock: every stored run, newest first; a search over names, script paths and
/// text and messages; a status filter; sorting by any column; a details line for the selected
/// run; double-click (or Enter) to open a run; and what LibraryActions does (open the script,
/// export, import, trust, delete) from a small toolbar and the context menu, each ending in a
/// one-line message under the list. Columns: outcome, name, backend and time; status, message,
/// run id and script are shown from the header's context menu. When the library cannot be used
/// it says why and offers another one (openAnotherRequested / newLibraryRequested).
class LibraryView : public QWidget {
    Q_OBJECT
public:
    enum Column {
        OutcomeColumn,
        NameColumn,
        BackendColumn,
        TimeColumn,
        StatusColumn,
        MessageColumn,
        IdColumn,
        ScriptColumn,
        WhereColumn,
        ByColumn,
        ColumnCount
    };

    explicit LibraryView(QWidget* parent = nullptr);
    ~LibraryView() override;

    /// The store to list from (not owned; may be one that failed to open). Reloads.
    void setStore(RunStore* store);
    RunStore* store() const { return m_store; }
    /// Lists afresh; the selected runs that are still there stay selected.
    void reload();
    void setSearch(const QString& text);
    /// Puts the keyboard in the search box, its text selected (Ctrl+F in the library).
    void focusSearch();
    /// What each key does in the list, for Help > Keyboard Shortcuts.
    static QList<QPair<QString, QString>> keyHelp();
    void setStatusFilter(std::optional<model::RunStatus> status);
    std::optional<model::RunStatus> statusFilter() const;
    /// "time" or "status"
    void sortBy(const QString& key, Qt::SortOrder order);
    /// Selects the row of this run (only it), if listed.
    void selectRun(qint64 id);

    int rowCount() const;
    /// The run id of a row as shown (after sorting), or -1.
    qint64 runIdAt(int row) const;
    QString statusAt(int row) const;
    /// The selected runs, in the order shown.
    QList<qint64> selectedRuns() const;
    /// A listed run, or null.
    const StoredRun* run(qint64 id) const;
    QString problem() const;
    /// The details line of the current run ("" when none is selected).
    QString details() const;
    /// The last action's one line, and whether it was an error.
    QString message() const;
    bool messageIsError() const { return m_messageIsError; }
    void showMessage(const QString& text, bool error);
    bool isColumnShown(Column column) const;
    void setColumnShown(Column column, bool shown);

    QTreeView* view() const { return m_view; }
    LibraryActions* actions() const { return m_actions; }
    QToolBar* toolBar() const { return m_tools; }
    /// Pops up the run context menu at a point of the list's viewport (as a right click does).
    QMenu* popupContextMenu(const QPoint& viewportPos);

signals:
    void runActivated(qint64 id);
    void openAnotherRequested();
    void newLibraryRequested();

protected:
    bool eventFilter(QObject* watched, QEvent* event) override;
    void resizeEvent(QResizeEvent* event) override;

private:
    void selectionChanged();
    void fitColumns();
    /// The hint in the empty list's place: what the library is for, or that nothing matches.
    void showEmptyHint();
    /// Lays the search, the actions and the filter out for the dock's width.
    void arrange();

    RunStore* m_store = nullptr;
    QHash<qint64, StoredRun> m_runs;  ///< what the rows show
    LibraryActions* m_actions;
    QLabel* m_problem;
    QWidget* m_problemBox;
    QLabel* m_path;
    QLineEdit* m_search;
    QComboBox* m_status;
    QToolBar* m_tools;
    QStandardItemModel* m_model;
    QSortFilterProxyModel* m_proxy;
    QTreeView* m_view;
    ElidedLabel* m_details;
    ElidedLabel* m_message;
    QLabel* m_emptyHint;  ///< in the list's place while it is empty
    bool m_messageIsError = false;
    bool m_fitting = false;
    bool m_userSized = false;    ///< the user dragged a column's edge: widths are theirs
    bool m_userColumns = false;  ///< the user chose the columns: Where and By stop following the runs
    QTimer* m_debounce;
    QGridLayout* m_bar;
    bool m_wide = false;
};

}  // namespace ps::ui
