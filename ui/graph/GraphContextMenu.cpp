#include "ui/graph/GraphContextMenu.h"

#include "graph/GraphModel.h"
#include "graph/ModuleTree.h"
#include "ui/graph/GraphView.h"
#include "ui/graph/ModuleItem.h"
#include "ui/graph/NodeItem.h"

#include <QMenu>

namespace ps::ui {

void GraphContextMenu::exec(GraphView& view, QGraphicsItem* item, const QPoint& globalPos)
{
    const auto* tree = view.moduleTree();
    if (!tree)
        return;
    QMenu menu;
    GraphView* v = &view;
    int module = -1;
    if (item && item->type() == ModuleItem::Type) {
        module = static_cast<ModuleItem*>(item)->module();
        const QString path = static_cast<ModuleItem*>(item)->path();
        menu.addAction(QObject::tr("Expand %1").arg(path), v, [v, path]() { v->expandModule(path); });
        module = tree->module(module).parent;
    } else if (item && item->type() == NodeItem::Type) {
        const int node = static_cast<NodeItem*>(item)->node();
        module = tree->moduleOf(node);
        const auto& g = view.graph();
        if (g && node >= 0 && node < static_cast<int>(g->nodes().size()) && g->nodes()[node].op == "call_function") {
            const QString name = QString::fromStdString(g->nodes()[node].name);
            menu.addAction(QObject::tr("Make Repro From %1…").arg(name), v,
                [v, name]() { emit v->reproRequested(v->captureName(), name); });
            menu.addSeparator();
        }
    }
    // Collapse the module the item sits in, or any module above it.
    for (int m = module; m > 0; m = tree->module(m).parent) {
        const QString path = QString::fromStdString(tree->module(m).path);
        menu.addAction(QObject::tr("Collapse %1").arg(path), v, [v, path]() { v->collapseModule(path); });
    }
    if (!menu.isEmpty())
        menu.addSeparator();
    menu.addAction(QObject::tr("Expand all"), v, &GraphView::expandAll);
    menu.addAction(QObject::tr("Collapse all"), v, &GraphView::collapseAll);
    menu.addAction(QObject::tr("Export…"), v, &GraphView::exportInteractive);
    menu.exec(globalPos);
}

}  // namespace ps::ui
