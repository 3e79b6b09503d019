#include "ui/graph/TopNodesPanel.h"
#include "ui/common/QtText.h"

#include "graph/GraphModel.h"
#include "graph/MeasuredLens.h"

#include <QHeaderView>
#include <QLabel>
#include <QTableWidget>
#include <QVBoxLayout>

#include <algorithm>

namespace ps::ui {

namespace {

constexpr int kNodeRole = Qt::UserRole + 1;

/// A cell that sorts by a number (its EditRole) and shows it in words.
class ValueCell : public QTableWidgetItem {
public:
    ValueCell(const QString& shown, double value) : QTableWidgetItem(shown) { setData(Qt::UserRole, value); }
    bool operator<(const QTableWidgetItem& other) const override
    {
        return data(Qt::UserRole).toDouble() < other.data(Qt::UserRole).toDouble();
    }
};

}  // namespace

TopNodesPanel::TopNodesPanel(QWidget* parent) : QWidget(parent)
{
    setObjectName(QStringLiteral("graphTopNodes"));
    m_note = new QLabel;
    m_note->setTextFormat(Qt::PlainText);  // run-derived text
    m_note->setWordWrap(true);
    m_table = new QTableWidget(0, 4);
    m_table->setHorizontalHeaderLabels({tr("Node"), tr("Value"), tr("Module"), tr("Source")});
    m_table->setEditTriggers(QAbstractItemView::NoEditTriggers);
    m_table->setSelectionBehavior(QAbstractItemView::SelectRows);
    m_table->setSelectionMode(QAbstractItemView::SingleSelection);
    m_table->verticalHeader()->setVisible(false);
    m_table->verticalHeader()->setDefaultSectionSize(m_table->fontMetrics().height() + 6);
    m_table->horizontalHeader()->setStretchLastSection(true);
    m_table->setSortingEnabled(true);
    m_table->setToolTip(tr("The nodes with the largest values under the lens; click a header to sort, a row to "
                           "select the node"));
    connect(m_table, &QTableWidget::cellClicked, this, [this](int row, int) {
        if (const int node = nodeAt(row); node >= 0)
            emit nodeActivated(node);
    });
    auto* title = new QLabel(tr("<b>Top nodes</b>"));
    auto* layout = new QVBoxLayout(this);
    layout->setContentsMargins(4, 4, 4, 4);
    layout->addWidget(title);
    layout->addWidget(m_note);
    layout->addWidget(m_table, 1);
}

void TopNodesPanel::show(const graph::GraphModel& graph, const graph::MeasuredLens& values, const QString& note)
{
    std::vector<std::pair<double, int>> rows;
    for (int i = 0; i < static_cast<int>(graph.nodes().size()); ++i)
        if (const auto v = values.node(i))
            rows.emplace_back(*v, i);
    std::stable_sort(rows.begin(), rows.end(), [](const auto& a, const auto& b) { return a.first > b.first; });
    if (rows.size() > static_cast<std::size_t>(kMaxRows))
        rows.resize(kMaxRows);
    m_note->setText(note);
    m_note->setVisible(!note.isEmpty());
    m_table->setSortingEnabled(false);
    m_table->clearContents();
    m_table->setRowCount(static_cast<int>(rows.size()));
    for (int r = 0; r < static_cast<int>(rows.size()); ++r) {
        const auto& [value, node] = rows[static_cast<std::size_t>(r)];
        const auto& n = graph.nodes()[static_cast<std::size_t>(node)];
        auto* name = new QTableWidgetItem(QString::fromStdString(n.name));
        name->setData(kNodeRole, node);
        QString shown = QString::fromStdString(graph::MeasuredLens::format(values.measure(), value));
        if (values.leavesBand(node))
            shown += tr(" (leaves band)");
        auto* cell = new ValueCell(shown, value);
        cell->setTextAlignment(Qt::AlignRight | Qt::AlignVCenter);
        if (!values.kernelOf(node).empty())
            cell->setToolTip(plainTip(QString::fromStdString(values.kernelOf(node))));
        const QString file = QString::fromStdString(n.sourceFile).section('/', -1);
        m_table->setItem(r, 0, name);
        m_table->setItem(r, 1, cell);
        m_table->setItem(r, 2, new QTableWidgetItem(QString::fromStdString(n.modulePath)));
        m_table->setItem(r, 3,
            new QTableWidgetItem(n.sourceLine > 0 ? QStringLiteral("%1:%2").arg(file).arg(n.sourceLine) : QString()));
    }
    m_table->setSortingEnabled(true);
    m_table->sortByColumn(1, Qt::DescendingOrder);
    m_table->resizeColumnsToContents();
}

void TopNodesPanel::clear()
{
    m_table->setRowCount(0);
    m_note->clear();
}

int TopNodesPanel::nodeAt(int row) const
{
    const auto* item = m_table->item(row, 0);
    return item ? item->data(kNodeRole).toInt() : -1;
}

}  // namespace ps::ui
