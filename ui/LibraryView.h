#pragma once

#include <QWidget>

class QComboBox;
class QLabel;
class QLineEdit;
class QPushButton;
class QSortFilterProxyModel;
class QStandardItemModel;
class QTimer;
class QTreeView;

namespace ps::ui {

class RunStore;

/// The library dock: every stored run, newest first; a search over names, script paths and
/// text and messages; a status filter; sorting by time or status (click a column); and
/// double-click (or Enter) to open a run. When the library cannot be used it says why and
/// offers another one (openAnotherRequested / newLibraryRequested).
class LibraryView : public QWidget {
    Q_OBJECT
public:
    explicit LibraryView(QWidget* parent = nullptr);

    /// The store to list from (not owned; may be one that failed to open). Reloads.
    void setStore(RunStore* store);
    void reload();
    void setSearch(const QString& text);
    void setStatusFilter(const QString& status);
    /// "time" or "status"
    void sortBy(const QString& key, Qt::SortOrder order);
    /// Selects the row of this run, if listed.
    void selectRun(qint64 id);

    int rowCount() const;
    /// The run id of a row as shown (after sorting), or -1.
    qint64 runIdAt(int row) const;
    QString statusAt(int row) const;
    QString problem() const;
    QTreeView* view() const { return m_view; }

signals:
    void runActivated(qint64 id);
    void openAnotherRequested();
    void newLibraryRequested();

private:
    RunStore* m_store = nullptr;
    QLabel* m_problem;
    QWidget* m_problemBox;
    QLabel* m_path;
    QLineEdit* m_search;
    QComboBox* m_status;
    QStandardItemModel* m_model;
    QSortFilterProxyModel* m_proxy;
    QTreeView* m_view;
    QTimer* m_debounce;
};

}  // namespace ps::ui
