#include "ui/graph/ModuleTreeModel.h"

#include "ui/common/QtText.h"

#include "graph/CollapseState.h"
#include "graph/ModuleTree.h"

namespace ps::ui {

ModuleTreeModel::ModuleTreeModel(QObject* parent) : QAbstractItemModel(parent)
{ }

ModuleTreeModel::~ModuleTreeModel() = default;

void ModuleTreeModel::setTree(std::shared_ptr<const graph::ModuleTree> tree, const graph::CollapseState* state)
{
    beginResetModel();
    m_tree = std::move(tree);
    const std::size_t count = m_tree ? m_tree->modules().size() : 0;
    m_row.assign(count, 0);
    m_checked.assign(count, 0);
    for (std::size_t id = 0; id < count; ++id) {
        const auto& children = m_tree->modules()[id].children;
        for (std::size_t r = 0; r < children.size(); ++r)
            m_row[static_cast<std::size_t>(children[r])] = static_cast<int>(r);
        m_checked[id] = state && state->expanded(static_cast<int>(id));
    }
    endResetModel();
}

std::vector<int> ModuleTreeModel::setState(const graph::CollapseState& state)
{
    std::vector<int> changed;
    for (std::size_t id = 1; id < m_checked.size(); ++id) {
        const char open = state.expanded(static_cast<int>(id));
        if (m_checked[id] == open)
            continue;
        // Only what changed: trees run to thousands of modules.
        m_checked[id] = open;
        changed.push_back(static_cast<int>(id));
        const QModelIndex at = indexOf(static_cast<int>(id));
        emit dataChanged(at, at, {Qt::CheckStateRole});
    }
    return changed;
}

bool ModuleTreeModel::isChecked(int module) const
{
    return module >= 0 && module < static_cast<int>(m_checked.size()) && m_checked[static_cast<std::size_t>(module)];
}

int ModuleTreeModel::moduleAt(const QModelIndex& index) const
{
    return index.isValid() ? static_cast<int>(index.internalId()) : graph::ModuleTree::root();
}

QModelIndex ModuleTreeModel::indexOf(int module, int column) const
{
    if (!m_tree || module <= 0 || module >= static_cast<int>(m_row.size()))
        return {};
    return createIndex(m_row[static_cast<std::size_t>(module)], column, static_cast<quintptr>(module));
}

QModelIndex ModuleTreeModel::index(int row, int column, const QModelIndex& parent) const
{
    if (!m_tree || row < 0 || column < 0 || column >= ColumnCount || parent.column() > 0)
        return {};
    const auto& children = m_tree->module(moduleAt(parent)).children;
    if (row >= static_cast<int>(children.size()))
        return {};
    return createIndex(row, column, static_cast<quintptr>(children[static_cast<std::size_t>(row)]));
}

QModelIndex ModuleTreeModel::parent(const QModelIndex& child) const
{
    if (!m_tree || !child.isValid())
        return {};
    return indexOf(m_tree->module(moduleAt(child)).parent);
}

int ModuleTreeModel::rowCount(const QModelIndex& parent) const
{
    if (!m_tree || parent.column() > 0)
        return 0;
    return static_cast<int>(m_tree->module(moduleAt(parent)).children.size());
}

int ModuleTreeModel::columnCount(const QModelIndex&) const
{
    return ColumnCount;
}

QVariant ModuleTreeModel::data(const QModelIndex& index, int role) const
{
    if (!m_tree || !index.isValid())
        return {};
    const int id = moduleAt(index);
    const auto& m = m_tree->module(id);
    switch (role) {
    case Qt::DisplayRole:
        if (index.column() == NameColumn)
            return QString::fromStdString(m.name);
        if (index.column() == TypeColumn)
            return QString::fromStdString(m.type);
        return m.total;
    case Qt::ToolTipRole:
        return index.column() == NameColumn ? QVariant(plainTip(QString::fromStdString(m.path))) : QVariant();
    case Qt::TextAlignmentRole:
        return index.column() == NodesColumn ? QVariant(Qt::AlignRight | Qt::AlignVCenter) : QVariant();
    case Qt::CheckStateRole:
        return index.column() == NameColumn ? QVariant(isChecked(id) ? Qt::Checked : Qt::Unchecked) : QVariant();
    case ModuleRole:
        return id;
    case PathRole:
        return QString::fromStdString(m.path);
    default:
        return {};
    }
}

bool ModuleTreeModel::setData(const QModelIndex& index, const QVariant& value, int role)
{
    if (!m_tree || !index.isValid() || index.column() != NameColumn || role != Qt::CheckStateRole)
        return false;
    // The mark follows the state: it changes when setState says so, not here.
    emit expansionRequested(moduleAt(index), value.value<Qt::CheckState>() == Qt::Checked);
    return true;
}

Qt::ItemFlags ModuleTreeModel::flags(const QModelIndex& index) const
{
    if (!index.isValid())
        return Qt::NoItemFlags;
    Qt::ItemFlags f = Qt::ItemIsEnabled | Qt::ItemIsSelectable;
    if (index.column() == NameColumn)
        f |= Qt::ItemIsUserCheckable;
    return f;
}

QVariant ModuleTreeModel::headerData(int section, Qt::Orientation orientation, int role) const
{
    if (orientation != Qt::Horizontal || role != Qt::DisplayRole)
        return {};
    switch (section) {
    case NameColumn:
        return tr("Module");
    case TypeColumn:
        return tr("Type");
    case NodesColumn:
        return tr("Nodes");
    default:
        return {};
    }
}

}  // namespace ps::ui
