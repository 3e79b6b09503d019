#include "ui/graph/GraphSelection.h"

#include "graph/GraphModel.h"
#include "graph/ModuleTree.h"
#include "ui/graph/EdgesItem.h"
#include "ui/graph/GraphBoxItem.h"
#include "ui/graph/GraphCanvas.h"
#include "ui/graph/GraphDetailsFormatter.h"
#include "ui/graph/GraphExpansion.h"
#include "ui/graph/GraphScene.h"
#include "ui/graph/GraphSession.h"
#include "ui/graph/GraphSidePanel.h"
#include "ui/graph/GraphToolBar.h"

#include <algorithm>
#include <utility>

namespace ps::ui {

GraphSelection::GraphSelection(const Parts& parts, std::function<GraphBoxItem*(int)> boxOfNode, QObject* parent)
    : QObject(parent), m_parts(parts), m_boxOfNode(std::move(boxOfNode))
{
    connect(m_parts.scene, &QGraphicsScene::selectionChanged, this, &GraphSelection::onSelectionChanged);
    connect(m_parts.canvas, &GraphCanvas::stepRequested, this, &GraphSelection::onStep);
}

void GraphSelection::setShown(const graph::VisibleGraph* visible, const graph::LayoutResult* layout)
{
    m_visible = visible;
    m_navigator.reset(visible ? m_parts.session->graph().get() : nullptr, visible, layout);
    m_current = -1;
}

QList<int> GraphSelection::selectedNodes() const
{
    return m_parts.scene->selectedNodes(m_parts.session->tree().get());
}

void GraphSelection::selectNodes(const QList<int>& nodes, bool reveal)
{
    if (!m_parts.session->graph())
        return;
    if (m_parts.session->pending()) {
        // A layout is on its way: select once it is shown.
        m_parts.session->selectWhenShown(nodes, reveal);
        return;
    }
    if (reveal) {
        m_parts.expansion->anchorOn(nodes.isEmpty() ? -1 : nodes.front());
        if (m_parts.session->reveal(nodes, reveal)) {
            m_parts.expansion->syncTree(false);
            return;
        }
    }
    GraphBoxItem* first = nullptr;
    {
        const Quiet quiet(this);
        m_parts.scene->clearSelection();
        for (int n : nodes) {
            if (auto* box = m_boxOfNode(n)) {
                box->setSelected(true);
                if (!first)
                    first = box;
            }
        }
    }
    if (reveal && first)
        m_parts.canvas->ensureVisible(first, 60, 60);
    onSelectionChanged();
}

void GraphSelection::applyPendingSelection()
{
    bool reveal = false;
    const QList<int> nodes = m_parts.session->takePendingSelection(&reveal);
    if (!nodes.isEmpty())
        selectNodes(nodes, reveal);
}

void GraphSelection::goToSelectionIfAsked()
{
    if (std::exchange(m_goToSelection, false))
        goToSelection();
}

void GraphSelection::goToSelection()
{
    const QList<QGraphicsItem*> selected = m_parts.scene->selectedItems();
    if (!selected.isEmpty())
        m_parts.canvas->showReadable(selected.front());
}

void GraphSelection::setNeighbourDepth(int depth)
{
    m_depth = depth;
    onSelectionChanged();
}

void GraphSelection::onSelectionChanged()
{
    const auto& graph = m_parts.session->graph();
    if (m_selecting || !graph || !m_visible)
        return;
    if (!m_stepping)
        m_navigator.forget();  // moved another way than by the arrow keys
    const QList<int> selected = selectedNodes();
    const QList<int> selectedItems = m_parts.scene->selectedBoxes();
    m_parts.scene->markNeighbours(*graph, *m_visible, selected, selectedItems, m_depth);
    if (auto* edges = m_parts.scene->edges())
        edges->setHighlighted(selectedItems);
    m_parts.side->setDetailsHtml(
        GraphDetailsFormatter::html(*graph, m_parts.session->tree().get(), selected, m_parts.scene->selectedModules()));
    emit nodesSelected(selected);
}

void GraphSelection::selectItem(int item)
{
    GraphBoxItem* box = m_parts.scene->box(item);
    if (!box)
        return;
    {
        const Quiet quiet(this);
        m_parts.scene->clearSelection();
        box->setSelected(true);
    }
    m_current = item;
    m_parts.canvas->ensureVisible(box, 60, 60);
    onSelectionChanged();
}

int GraphSelection::currentItem() const
{
    const QList<int> selected = m_parts.scene->selectedBoxes();
    return selected.contains(m_current) ? m_current : selected.value(0, -1);
}

void GraphSelection::onStep(GraphNavigator::Step step)
{
    const int from = currentItem();
    if (from < 0)
        return;
    const int to = m_navigator.step(from, step);
    if (to < 0)
        return;
    m_stepping = true;
    selectItem(to);
    m_stepping = false;
}

void GraphSelection::setSearch(const QString& text, graph::SearchField field)
{
    m_parts.toolBar->setSearch(text, field);
    const bool searched = !text.trimmed().isEmpty();
    const auto& graph = m_parts.session->graph();
    m_parts.toolBar->setMatches(
        graph && searched ? graph::GraphSearch::find(*graph, text.toStdString(), field) : std::vector<int>{}, searched);
}

void GraphSelection::findNext()
{
    if (const int node = m_parts.toolBar->stepMatch(1); node >= 0)
        goToNodes({node});
}

void GraphSelection::findPrevious()
{
    if (const int node = m_parts.toolBar->stepMatch(-1); node >= 0)
        goToNodes({node});
}

void GraphSelection::goToNodes(const QList<int>& nodes)
{
    selectNodes(nodes, /*reveal=*/true);
    if (m_parts.session->pending())
        m_goToSelection = true;  // once the module hiding it is open
    else
        goToSelection();
}

}  // namespace ps::ui
