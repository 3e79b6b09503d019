#pragma once

#include "graph/GraphLens.h"
#include "ui/graph/EdgesItem.h"
#include "ui/graph/GraphMinimap.h"

#include <QColor>
#include <QGraphicsScene>
#include <QList>

#include <map>
#include <memory>
#include <string>
#include <utility>
#include <vector>

namespace ps::graph {
class GraphModel;
class MeasuredLens;
class ModuleTree;
class VisibleGraph;
struct LayoutResult;
}  // namespace ps::graph

namespace ps::ui {

class GraphBoxItem;
class GraphOverviewItem;
class ModuleRegionsItem;

/// The Graph tab's scene: a box per visible item (NodeItem, ModuleItem, indexed like the
/// VisibleGraph's items), the edges along the layout's routes (EdgesItem), the named regions of the
/// expanded modules (ModuleRegionsItem); how a lens colours the boxes and which boxes the
/// selection reads from and feeds. Holds pointers into the GraphModel and ModuleTree it is
/// shown from, which GraphView keeps alive while the scene shows them.
class GraphScene : public QGraphicsScene {
    Q_OBJECT
public:
    explicit GraphScene(QObject* parent = nullptr);
    ~GraphScene() override;

    /// Nothing shown.
    void reset();
    /// A box per item of `visible` where `layout` puts it, the regions around them, and a
    /// scene rectangle of the layout and `margin` around it.
    void showBoxes(const graph::GraphModel& graph, const graph::ModuleTree& tree, const graph::VisibleGraph& visible,
        const graph::LayoutResult& layout, qreal margin, const QPalette& palette);
    /// The edges of `visible` along `layout`'s routes (end to end where it has none), drawn
    /// in the palette's placeholder colour, highlighted in its highlight; owned by the scene.
    EdgesItem* showEdges(
        const graph::VisibleGraph& visible, const graph::LayoutResult& layout, const QPalette& palette);
    /// The polyline of every edge of `visible`, in its order: its route in `layout`, or from the
    /// producer's bottom centre to the consumer's top centre when the layout has none for it.
    static std::vector<EdgesItem::Edge> edgeRoutes(
        const graph::VisibleGraph& visible, const graph::LayoutResult& layout);

    const std::vector<GraphBoxItem*>& boxes() const { return m_boxes; }
    /// The box of VisibleGraph item `item`, or null.
    GraphBoxItem* box(int item) const;
    EdgesItem* edges() const { return m_edges; }
    ModuleRegionsItem* regions() const { return m_regions; }

    /// Colours every box by `lens` (the source lens within `scope`: GraphLens::category);
    /// returns the categories and how many boxes each colours, most common first, and the
    /// boxes as the minimap draws them in `minimap`.
    std::vector<std::pair<std::string, int>> applyLens(const graph::GraphModel& graph, const graph::ModuleTree& tree,
        const graph::VisibleGraph& visible, graph::Lens lens, const QPalette& palette,
        std::vector<GraphMinimap::Box>* minimap, const std::string& scope = {});

    /// Colours every box on the numeric lens's ramp (LensPalette::ramp): a node by its value, a
    /// collapsed module by its total or worst (MeasuredLens::module), the ramp spanning the
    /// smallest positive to the largest value shown (returned, for the legend); no value: plain.
    std::pair<double, double> applyMeasure(const graph::ModuleTree& tree, const graph::VisibleGraph& visible,
        const graph::MeasuredLens& values, const QPalette& palette, std::vector<GraphMinimap::Box>* minimap);

    /// Fills the boxes with `fills` (a node's colour) instead of the lens's, in the boxes and in
    /// `minimap` (as applyLens left it): a module box gets the colour most of its nodes have, a
    /// box none of whose nodes has one the plain colour.
    void applyFills(const graph::ModuleTree& tree, const graph::VisibleGraph& visible,
        const std::map<int, QColor>& fills, const QPalette& palette, std::vector<GraphMinimap::Box>* minimap);
    /// Marks the boxes showing `nodes` (a hidden node's module box) and unmarks every other.
    void markNodes(const graph::GraphModel& graph, const graph::VisibleGraph& visible, const QList<int>& nodes);

    /// The boxes as they look now (rectangles, fills), for the overview's picture.
    void setOverviewBoxes(std::vector<GraphMinimap::Box> boxes);
    /// Below GraphCanvas::kFloorZoom: the canvas draws one picture of every box
    /// (GraphOverviewItem, not in the scene) in place of the box items and the edges, so that a
    /// fitted view of tens of thousands paints fast; the regions stay. The items are untouched.
    void setOverview(bool on);
    bool overview() const { return m_overview; }
    /// The canvas's zoom now: the overview below GraphCanvas::kFloorZoom, and the regions'
    /// headers' room at that zoom (ModuleRegionsItem::setZoom).
    void setZoom(qreal zoom);
    /// In the overview, what is drawn (the boxes' picture, then the regions); else empty.
    std::vector<QGraphicsItem*> overviewItems();
    /// The scene drawn as itself while it lives (the module headers keep clear of the boxes, as
    /// they do above the overview's floor), the overview as it was after: an export draws the
    /// same whatever the zoom.
    class FullDetail {
    public:
        explicit FullDetail(GraphScene* scene) : m_scene(scene), m_was(scene->overview()) { scene->setOverview(false); }
        ~FullDetail() { m_scene->setOverview(m_was); }
        FullDetail(const FullDetail&) = delete;
        FullDetail& operator=(const FullDetail&) = delete;

    private:
        GraphScene* m_scene;
        bool m_was;
    };

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
    std::vector<GraphMinimap::Box> m_overviewBoxes;
    std::unique_ptr<GraphOverviewItem> m_overviewItem;  ///< made when first drawn, outside the scene
    bool m_overview = false;
};

}  // namespace ps::ui
