#include "ui/graph/GraphSidePanel.h"

#include "graph/CollapseState.h"
#include "graph/GraphModel.h"
#include "graph/ModuleTree.h"
#include "ui/graph/GraphDetailsFormatter.h"
#include "ui/graph/ModuleTreeModel.h"

#include <QHeaderView>
#include <QSettings>
#include <QTextBrowser>
#include <QTreeView>
#include <QUrl>

#include <algorithm>

namespace ps::ui {

namespace {
constexpr int kWidth = 300;  // the panel's width until the user drags it
}

GraphSidePanel::GraphSidePanel(ModuleTreeModel* model, QWidget* parent)
    : QSplitter(Qt::Vertical, parent), m_model(model)
{
    setObjectName(QStringLiteral("graphSidePanel"));
    m_modules = new QTreeView;
    m_modules->setObjectName(QStringLiteral("graphModules"));
    m_modules->setModel(m_model);
    m_modules->header()->setStretchLastSection(false);
    m_modules->header()->setSectionResizeMode(ModuleTreeModel::NameColumn, QHeaderView::Stretch);
    m_modules->setIndentation(12);  // module trees run six or more deep
    m_modules->setToolTip(tr("Tick a module to expand it in the graph; double-click to go to it"));
    m_modules->setUniformRowHeights(true);
    m_modules->setEditTriggers(QAbstractItemView::NoEditTriggers);
    connect(m_modules, &QTreeView::doubleClicked, this, [this](const QModelIndex& index) {
        if (const int m = m_model->moduleAt(index); m > 0)
            emit moduleActivated(m);
    });

    m_details = new QTextBrowser;
    m_details->setObjectName(QStringLiteral("graphDetails"));
    m_details->setOpenLinks(false);
    m_details->setPlaceholderText(tr("Select a node to see its shape, dtype, stride, device, module, source line and "
                                     "the stack that made it; click an input, a user, the kernel, the line or a "
                                     "frame to go there.\n\n"
                                     "Arrow keys on the graph: Up to an input (Down, Up again: the next one), "
                                     "Down to a user, Left and Right along the row. Ctrl+arrows pan."));
    connect(m_details, &QTextBrowser::anchorClicked, this, &GraphSidePanel::onLink);

    addWidget(m_modules);
    addWidget(m_details);
    setSizes({220, 300});
}

void GraphSidePanel::placeIn(QSplitter* split)
{
    split->addWidget(this);
    split->setStretchFactor(split->indexOf(this), 0);
    split->setCollapsible(split->indexOf(this), false);
    connect(split, &QSplitter::splitterMoved, this, [this, split]() {
        if (isVisible())
            QSettings().setValue(QStringLiteral("graph/sidePanelWidth"), split->sizes().value(split->indexOf(this)));
    });
    setShown(QSettings().value(QStringLiteral("graph/sidePanel"), false).toBool(), false);
}

void GraphSidePanel::setShown(bool shown, bool remember)
{
    if (remember)
        QSettings().setValue(QStringLiteral("graph/sidePanel"), shown);
    if (shown == !isHidden())
        return;
    setVisible(shown);
    auto* split = qobject_cast<QSplitter*>(parentWidget());
    if (shown && split && split->count() >= 2) {  // the canvas, this panel (and the top nodes)
        const int width = QSettings().value(QStringLiteral("graph/sidePanelWidth"), kWidth).toInt();
        auto sizes = split->sizes();
        const int total = std::max(sizes.value(0) + sizes.value(split->indexOf(this)), 2 * width);
        sizes[0] = total - width;
        sizes[split->indexOf(this)] = width;
        split->setSizes(sizes);
    }
}

void GraphSidePanel::setGraph(const graph::GraphModel* graph)
{
    m_graph = graph;
}

void GraphSidePanel::onLink(const QUrl& url)
{
    const auto link = GraphDetailsFormatter::parse(url);
    if (!m_graph || link.node < 0 || link.node >= static_cast<int>(m_graph->nodes().size()))
        return;
    const auto& nodes = m_graph->nodes();
    const auto& n = nodes[static_cast<std::size_t>(link.node)];
    switch (link.kind) {
    case GraphDetailsFormatter::Link::Node:
        emit nodesActivated({link.node});
        break;
    case GraphDetailsFormatter::Link::Kernel: {
        QList<int> same;
        for (int i = 0; i < static_cast<int>(nodes.size()); ++i)
            if (i == link.node || (!n.kernel.empty() && nodes[static_cast<std::size_t>(i)].kernel == n.kernel))
                same.append(i);
        emit nodesActivated(same);
        break;
    }
    case GraphDetailsFormatter::Link::Source:
        emit locationActivated(QString::fromStdString(n.sourceFile), n.sourceLine);
        break;
    case GraphDetailsFormatter::Link::Frame: {
        const auto stack = m_graph->stackOf(link.node);
        if (link.frame < static_cast<int>(stack.size())) {
            const auto* f = stack[static_cast<std::size_t>(link.frame)];
            emit frameActivated(QString::fromStdString(f->file), f->line, QString::fromStdString(f->code));
        }
        break;
    }
    case GraphDetailsFormatter::Link::None:
        break;
    }
}

void GraphSidePanel::setDetailsHtml(const QString& html)
{
    m_detailsHtml = html;
    m_details->setHtml(m_measureHtml.isEmpty() || html.isEmpty() ? html : m_measureHtml + html);
}

void GraphSidePanel::setMeasureHtml(const QString& html)
{
    m_measureHtml = html;
    setDetailsHtml(m_detailsHtml);
}

void GraphSidePanel::clearDetails()
{
    m_detailsHtml.clear();
    m_details->clear();
}

QString GraphSidePanel::detailsText() const
{
    return m_details->toPlainText();
}

void GraphSidePanel::syncTree(const graph::ModuleTree& tree, const graph::CollapseState& state, bool whole)
{
    std::vector<int> changed = m_model->setState(state);
    if (whole) {
        changed.clear();
        for (int m = 1; m < static_cast<int>(tree.modules().size()); ++m)
            if (state.expanded(m))
                changed.push_back(m);
    }
    // An expanded module unfolds in the tree too (only what changed: trees run to thousands).
    for (int m : changed) {
        const bool unfold = state.expanded(m) && !tree.module(m).children.empty();
        const QModelIndex index = m_model->indexOf(m);
        if (m_modules->isExpanded(index) != unfold)
            m_modules->setExpanded(index, unfold);
    }
}

void GraphSidePanel::fitColumns()
{
    m_modules->resizeColumnToContents(ModuleTreeModel::TypeColumn);
    m_modules->resizeColumnToContents(ModuleTreeModel::NodesColumn);
}

}  // namespace ps::ui
