#include "ui/graph/GraphExpansion.h"

#include "graph/CollapseState.h"
#include "graph/GraphModel.h"
#include "graph/ModuleTree.h"
#include "ui/graph/GraphBoxItem.h"
#include "ui/graph/GraphCanvas.h"
#include "ui/graph/GraphSession.h"
#include "ui/graph/GraphSidePanel.h"
#include "ui/graph/ModuleItem.h"
#include "ui/graph/NodeItem.h"

namespace ps::ui {

GraphExpansion::GraphExpansion(
    GraphSession* session, GraphSidePanel* side, GraphCanvas* canvas, BoxOfNode boxOfNode, QObject* parent)
    : QObject(parent), m_session(session), m_side(side), m_canvas(canvas), m_boxOfNode(std::move(boxOfNode))
{ }

bool GraphExpansion::isExpanded(const QString& modulePath) const
{
    const auto* tree = m_session->tree().get();
    const auto* state = m_session->shownState();
    if (!tree || !state)
        return false;
    const int m = tree->find(modulePath.toStdString());
    return m >= 0 && state->expanded(m);
}

void GraphExpansion::request(const QString& modulePath, bool expand)
{
    const auto* tree = m_session->tree().get();
    const int m = tree && m_session->shownState() ? tree->find(modulePath.toStdString()) : -1;
    if (m < (expand ? 0 : 1))
        return;
    anchorOn(tree->module(m).total > 0 ? tree->nodesIn(m).front() : -1);
    expand ? m_session->expand(m) : m_session->collapse(m);
    syncTree(false);
    emit expansionRequested(modulePath, expand);
}

void GraphExpansion::requestModule(int module, bool expand)
{
    const auto* tree = m_session->tree().get();
    if (!tree || module <= 0)
        return;
    request(QString::fromStdString(tree->module(module).path), expand);
}

void GraphExpansion::requestAll(bool expand)
{
    anchorOn(-1);
    expand ? m_session->expandAll() : m_session->collapseAll();
    syncTree(false);
    emit expansionRequested(QString(), expand);
}

void GraphExpansion::anchorOn(int node)
{
    m_anchorNode = node;
    m_anchorView = QPointF();
    if (node >= 0)
        if (auto* box = m_boxOfNode(node))
            m_anchorView = m_canvas->mapFromScene(box->rect().center());
}

void GraphExpansion::restoreAnchor()
{
    if (m_anchorNode < 0 || m_anchorView.isNull())
        return;
    if (auto* box = m_boxOfNode(m_anchorNode))
        m_canvas->scrollBy(m_canvas->mapFromScene(box->rect().center()) - m_anchorView);
}

void GraphExpansion::syncTree(bool whole)
{
    if (const auto* tree = m_session->tree().get(); tree && m_session->shownState())
        m_side->syncTree(*tree, m_session->latestState(), whole);
}

int GraphExpansion::requestForBox(QGraphicsItem* item, bool expand)
{
    const graph::GraphModel* g = m_session->graph().get();
    if (!g || !item)
        return -1;
    QString path;
    int node = -1;
    if (item->type() == ModuleItem::Type) {
        path = static_cast<ModuleItem*>(item)->path();
        if (!expand)
            path = path.section('.', 0, -2);  // - on a collapsed module closes its parent
    } else if (item->type() == NodeItem::Type) {
        if (expand)
            return -1;  // a node has nothing to open
        node = static_cast<NodeItem*>(item)->node();
        path = QString::fromStdString(g->nodes()[std::size_t(node)].modulePath);
    }
    if (path.isEmpty() || expand == isExpanded(path))
        return -1;
    if (node < 0) {
        // The module's first node: selected once it is open, or its box's stand-in once closed.
        const std::string prefix = path.toStdString();
        for (std::size_t i = 0; i < g->nodes().size() && node < 0; ++i) {
            const std::string& m = g->nodes()[i].modulePath;
            if (m == prefix || (m.size() > prefix.size() && m.starts_with(prefix) && m[prefix.size()] == '.'))
                node = int(i);
        }
    }
    request(path, expand);
    return node;
}

}  // namespace ps::ui
