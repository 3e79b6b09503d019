#pragma once

#include <QAbstractItemModel>

#include <memory>
#include <vector>

namespace ps::graph {
class CollapseState;
class ModuleTree;
}  // namespace ps::graph

namespace ps::ui {

/// The module tree of a graph as an item model: a row per module below the root, its name
/// (checkable: ticked = expanded in the graph), its type and how many nodes it holds. The marks
/// mirror the collapse state it is given (setState); ticking or clearing one asks for a change
/// (expansionRequested) that comes back through setState once it is made. Any number of
/// modules: rows are made on demand from the ModuleTree, which the model shares.
class ModuleTreeModel : public QAbstractItemModel {
    Q_OBJECT
public:
    enum Column { NameColumn, TypeColumn, NodesColumn, ColumnCount };
    enum Role { ModuleRole = Qt::UserRole, PathRole };

    explicit ModuleTreeModel(QObject* parent = nullptr);
    ~ModuleTreeModel() override;

    /// A new tree (null: none), its marks from `state` (null: all clear).
    void setTree(std::shared_ptr<const graph::ModuleTree> tree, const graph::CollapseState* state);
    /// The marks of `state`; returns the modules whose mark changed.
    std::vector<int> setState(const graph::CollapseState& state);
    const graph::ModuleTree* tree() const { return m_tree.get(); }
    bool isChecked(int module) const;
    /// The module a row shows (0, the root, for an invalid index).
    int moduleAt(const QModelIndex& index) const;
    QModelIndex indexOf(int module, int column = NameColumn) const;

    QModelIndex index(int row, int column, const QModelIndex& parent = {}) const override;
    QModelIndex parent(const QModelIndex& child) const override;
    int rowCount(const QModelIndex& parent = {}) const override;
    int columnCount(const QModelIndex& parent = {}) const override;
    QVariant data(const QModelIndex& index, int role = Qt::DisplayRole) const override;
    bool setData(const QModelIndex& index, const QVariant& value, int role = Qt::EditRole) override;
    Qt::ItemFlags flags(const QModelIndex& index) const override;
    QVariant headerData(int section, Qt::Orientation orientation, int role = Qt::DisplayRole) const override;

signals:
    /// The user ticked (true) or cleared (false) a module's mark.
    void expansionRequested(int module, bool expand);

private:
    std::shared_ptr<const graph::ModuleTree> m_tree;
    std::vector<int> m_row;       ///< per module, its row under its parent
    std::vector<char> m_checked;  ///< per module
};

}  // namespace ps::ui
