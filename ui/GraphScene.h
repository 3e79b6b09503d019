#pragma once

#include "graph/GraphLens.h"
#include "ui/GraphMinimap.h"

#include <QGraphicsScene>
#include <QList>

#include <string>
#include <utility>
#include <vector>

namespace ps::graph {
class GraphModel;
class ModuleTree;
class VisibleGraph;
struct LayoutResult;
}  // namespace ps::graph

namespace ps::ui {

class EdgesItem;
class GraphBoxItem;
class ModuleRegionsItem;

/// The Graph tab's scene: a box per visible item (NodeItem, ModuleItem, indexed like the
/// VisibleGraph's items), the edges (EdgesItem, made by GraphView), the named regions of the
/// expanded modules (ModuleRegionsItem); how a lens colours the boxes and which boxes the
/// selection reads from and feeds. Holds pointers into the GraphModel and ModuleTree it is
/// shown from, which GraphView keeps alive while the scene shows them.
class GraphScene : public QGraphicsScene {
    Q_OBJECT
public:
    explicit GraphScene(QObject* parent = nullptr);

    /// Nothing shown.
    void reset();
    /// A box per item of `visible` where `layout` puts it, the regions around them, and a
    /// scene rectangle of the layout and `margin` around it.
    void showBoxes(const graph::GraphModel& graph, const graph::ModuleTree& tree, const graph::VisibleGraph& visible,
        const graph::LayoutResult& layout, qreal margin, const QPalette& palette);
    /// Adds the edges (owned by the scene from now).
    void setEdges(EdgesItem* edges);

    const std::vector<GraphBoxItem*>& boxes() const { return m_boxes; }
    /// The box of VisibleGraph item `item`, or null.
    GraphBoxItem* box(int item) const;
    EdgesItem* edges() const { return m_edges; }
    ModuleRegionsItem* regions() const { return m_regions; }

    /// Colours every box by `lens`; returns the categories and how many boxes each colours,
    /// most common first, and the boxes as the minimap draws them in `minimap`.
    std::vector<std::pair<std::string, int>> applyLens(const graph::GraphModel& graph, const graph::ModuleTree& tree,
        const graph::VisibleGraph& visible, graph::Lens lens, const QPalette& palette,
        std::vector<GraphMinimap::Box>* minimap);

    /// The selected boxes' items, in item order.
    QList<int> selectedBoxes() const;
    /// The selected nodes: a selected module box stands for every node in it. Sorted.
    QList<int> selectedNodes(const graph::ModuleTree* tree) const;
    /// The modules of the selected module boxes.
    QList<int> selectedModules() const;
    /// Marks the boxes that the nodes `selected` read from and feed, `depth` levels deep (the
    /// selected boxes `selectedItems` excepted); clears every other mark.
    void markNeighbours(const graph::GraphModel& graph, const graph::VisibleGraph& visible, const QList<int>& selected,
        const QList<int>& selectedItems, int depth);

private:
    std::vector<GraphBoxItem*> m_boxes;
    EdgesItem* m_edges = nullptr;
    ModuleRegionsItem* m_regions = nullptr;
};

}  // namespace ps::ui
