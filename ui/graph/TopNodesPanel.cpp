#include "ui/graph/TopNodesPanel.h"
#include "ui/common/QtText.h"

#include "graph/GraphModel.h"
#include "graph/MeasuredLens.h"

#include <QHeaderView>
#include <QLabel>
#include <QRegularExpression>
#include <QResizeEvent>
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

/// The module all of `nodes` are in: their paths' longest common dotted prefix ("" for the root).
QString topKernelModule(const graph::GraphModel& graph, const std::vector<int>& nodes)
{
    QStringList common;
    bool first = true;
    for (int n : nodes) {
        const QStringList parts = QString::fromStdString(graph.nodes()[static_cast<std::size_t>(n)].modulePath)
                                      .split('.', Qt::SkipEmptyParts);
        if (first) {
            common = parts;
            first = false;
            continue;
        }
        int same = 0;
        while (same < common.size() && same < parts.size() && common[same] == parts[same])
            ++same;
        common = common.mid(0, same);
    }
    return common.join('.');
}

/// Which of `names` the kernel is named after: the first holding a word of the kernel's name
/// ("convolution" of "cpp_fused_convolution_relu_3" or of "aten.convolution_backward"), else 0.
int leadNode(const QString& kernel, const QStringList& names)
{
    static const QStringList kNoise
        = {QStringLiteral("cpp"), QStringLiteral("triton"), QStringLiteral("fused"), QStringLiteral("poi"),
            QStringLiteral("red"), QStringLiteral("per"), QStringLiteral("extern"), QStringLiteral("kernels"),
            QStringLiteral("torch"), QStringLiteral("ops"), QStringLiteral("aten"), QStringLiteral("default")};
    for (const QString& word : kernel.split(QRegularExpression(QStringLiteral("[._]")), Qt::SkipEmptyParts)) {
        if (word.size() < 3 || kNoise.contains(word) || word.front().isDigit())
            continue;
        for (int i = 0; i < names.size(); ++i)
            if (names[i].startsWith(word))
                return i;
    }
    return 0;
}

QString topSourceOf(const graph::GraphNode& n)
{
    const QString file = QString::fromStdString(n.sourceFile).section('/', -1);
    return n.sourceLine > 0 ? QStringLiteral("%1:%2").arg(file).arg(n.sourceLine) : QString();
}

}  // namespace

TopNodesPanel::TopNodesPanel(QWidget* parent) : QWidget(parent)
{
    setObjectName(QStringLiteral("graphTopNodes"));
    m_title = new QLabel;
    m_note = new QLabel;
    m_note->setTextFormat(Qt::PlainText);  // run-derived text
    m_note->setWordWrap(true);
    m_table = new QTableWidget(0, 4);
    m_table->setEditTriggers(QAbstractItemView::NoEditTriggers);
    m_table->setSelectionBehavior(QAbstractItemView::SelectRows);
    m_table->setSelectionMode(QAbstractItemView::SingleSelection);
    m_table->setTextElideMode(Qt::ElideMiddle);
    m_table->verticalHeader()->setVisible(false);
    m_table->verticalHeader()->setDefaultSectionSize(m_table->fontMetrics().height() + 6);
    m_table->horizontalHeader()->setStretchLastSection(true);
    m_table->setSortingEnabled(true);
    connect(m_table, &QTableWidget::cellClicked, this, [this](int row, int) {
        if (const QList<int> nodes = nodesAt(row); !nodes.isEmpty())
            emit nodesActivated(nodes);
    });
    auto* layout = new QVBoxLayout(this);
    layout->setContentsMargins(4, 4, 4, 4);
    layout->addWidget(m_title);
    layout->addWidget(m_note);
    layout->addWidget(m_table, 1);
}

void TopNodesPanel::show(const graph::GraphModel& graph, const graph::MeasuredLens& values, const QString& note)
{
    m_note->setText(note);
    m_note->setVisible(!note.isEmpty());
    m_table->setSortingEnabled(false);
    m_table->clearContents();
    m_kernels = values.measure() == graph::MeasuredLens::Measure::Time && !values.kernels().empty();
    if (m_kernels)
        showKernels(graph, values);
    else
        showNodes(graph, values);
    m_table->setSortingEnabled(true);
    m_table->sortByColumn(1, Qt::DescendingOrder);
    m_table->resizeColumnsToContents();
    m_nameWidth = m_table->columnWidth(0);
    fitNames();
}

void TopNodesPanel::fitNames()
{
    // A long kernel or node name is cut in the middle (its tooltip has it whole): the value
    // beside it stays in view.
    const int room = std::max(60, m_table->viewport()->width() - m_table->columnWidth(1) - 4);
    m_table->setColumnWidth(0, std::min({m_nameWidth, kNameWidth, room}));
}

void TopNodesPanel::resizeEvent(QResizeEvent* event)
{
    QWidget::resizeEvent(event);
    if (m_table->rowCount() > 0)
        fitNames();
}

void TopNodesPanel::showNodes(const graph::GraphModel& graph, const graph::MeasuredLens& values)
{
    m_title->setText(tr("<b>Top nodes</b>"));
    m_table->setColumnCount(4);
    m_table->setHorizontalHeaderLabels({tr("Node"), tr("Value"), tr("Module"), tr("Source")});
    m_table->setToolTip(tr("The nodes with the largest values under the lens; click a header to sort, a row to "
                           "select the node"));
    std::vector<std::pair<double, int>> rows;
    for (int i = 0; i < static_cast<int>(graph.nodes().size()); ++i)
        if (const auto v = values.node(i))
            rows.emplace_back(*v, i);
    std::stable_sort(rows.begin(), rows.end(), [](const auto& a, const auto& b) { return a.first > b.first; });
    if (rows.size() > static_cast<std::size_t>(kMaxRows))
        rows.resize(kMaxRows);
    m_table->setRowCount(static_cast<int>(rows.size()));
    for (int r = 0; r < static_cast<int>(rows.size()); ++r) {
        const auto& [value, node] = rows[static_cast<std::size_t>(r)];
        const auto& n = graph.nodes()[static_cast<std::size_t>(node)];
        auto* name = new QTableWidgetItem(QString::fromStdString(n.name));
        name->setData(kNodeRole, QVariant::fromValue(QList<int>{node}));
        QString shown = QString::fromStdString(graph::MeasuredLens::format(values.measure(), value));
        if (values.leavesBand(node))
            shown += tr(" (leaves band)");
        auto* cell = new ValueCell(shown, value);
        cell->setTextAlignment(Qt::AlignRight | Qt::AlignVCenter);
        m_table->setItem(r, 0, name);
        m_table->setItem(r, 1, cell);
        m_table->setItem(r, 2, new QTableWidgetItem(QString::fromStdString(n.modulePath)));
        m_table->setItem(r, 3, new QTableWidgetItem(topSourceOf(n)));
    }
}

void TopNodesPanel::showKernels(const graph::GraphModel& graph, const graph::MeasuredLens& values)
{
    m_title->setText(tr("<b>Top kernels</b>"));
    m_table->setColumnCount(5);
    m_table->setHorizontalHeaderLabels({tr("Kernel"), tr("Time"), tr("Nodes"), tr("Module"), tr("Source")});
    m_table->setToolTip(tr("The kernels, the slowest first: a fused kernel's time is its group's, once; click a "
                           "header to sort, a row to select the kernel's nodes"));
    const auto& kernels = values.kernels();
    const int count = std::min(static_cast<int>(kernels.size()), kMaxRows);
    m_table->setRowCount(count);
    for (int r = 0; r < count; ++r) {
        const auto& k = kernels[static_cast<std::size_t>(r)];
        QList<int> nodes(k.nodes.begin(), k.nodes.end());
        QStringList names;
        for (int n : k.nodes)
            names << QString::fromStdString(graph.nodes()[static_cast<std::size_t>(n)].name);
        // The node the kernel is named after leads ("cpp_fused_convolution_relu_3": a convolution),
        // else its first.
        const int lead = leadNode(QString::fromStdString(k.kernel), names);
        names.move(lead, 0);
        auto* name = new QTableWidgetItem(QString::fromStdString(k.kernel));
        name->setToolTip(plainTip(name->text()));
        name->setData(kNodeRole, QVariant::fromValue(nodes));
        auto* cell = new ValueCell(QString::fromStdString(graph::MeasuredLens::format(values.measure(), k.us)), k.us);
        cell->setTextAlignment(Qt::AlignRight | Qt::AlignVCenter);
        // The nodes in words, sorting by their count: "convolution_3 +2".
        auto* members
            = new ValueCell(names.size() > 1 ? tr("%1 +%2").arg(names.front()).arg(names.size() - 1) : names.value(0),
                static_cast<double>(names.size()));
        members->setToolTip(plainTip(names.join(QStringLiteral(", "))));
        QString source;
        for (int n : k.nodes)
            if (source.isEmpty())
                source = topSourceOf(graph.nodes()[static_cast<std::size_t>(n)]);
        m_table->setItem(r, 0, name);
        m_table->setItem(r, 1, cell);
        m_table->setItem(r, 2, members);
        m_table->setItem(r, 3, new QTableWidgetItem(topKernelModule(graph, k.nodes)));
        m_table->setItem(r, 4, new QTableWidgetItem(source));
    }
}

void TopNodesPanel::clear()
{
    m_table->setRowCount(0);
    m_note->clear();
}

int TopNodesPanel::nodeAt(int row) const
{
    const QList<int> nodes = nodesAt(row);
    return nodes.isEmpty() ? -1 : nodes.front();
}

QList<int> TopNodesPanel::nodesAt(int row) const
{
    const auto* item = m_table->item(row, 0);
    return item ? item->data(kNodeRole).value<QList<int>>() : QList<int>{};
}

}  // namespace ps::ui
