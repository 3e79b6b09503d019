#include "ui/graph/GraphScene.h"

#include "graph/GraphModel.h"
#include "graph/LayeredLayout.h"
#include "graph/MeasuredLens.h"
#include "graph/ModuleTree.h"
#include "graph/Neighbourhood.h"
#include "graph/VisibleGraph.h"
#include "ui/graph/EdgesItem.h"
#include "ui/graph/GraphCanvas.h"
#include "ui/graph/GraphOverviewItem.h"
#include "ui/graph/LensPalette.h"
#include "ui/graph/ModuleItem.h"
#include "ui/graph/ModuleRegionsItem.h"
#include "ui/graph/NodeItem.h"
#include "ui/graph/TitleRoom.h"

#include <algorithm>
#include <map>
#include <unordered_map>
#include <unordered_set>

namespace ps::ui {

namespace {

/// `fg` drawn over `bg`, as one opaque colour.
QColor opaqueOver(const QColor& fg, const QColor& bg)
{
    const qreal a = fg.alphaF();
    return QColor::fromRgbF(static_cast<float>(fg.redF() * a + bg.redF() * (1 - a)),
        static_cast<float>(fg.greenF() * a + bg.greenF() * (1 - a)),
        static_cast<float>(fg.blueF() * a + bg.blueF() * (1 - a)));
}

}  // namespace

GraphScene::GraphScene(QObject* parent) : QGraphicsScene(parent)
{
    setItemIndexMethod(QGraphicsScene::BspTreeIndex);
}

GraphScene::~GraphScene() = default;

void GraphScene::reset()
{
    clear();
    m_boxes.clear();
    m_edges = nullptr;
    m_regions = nullptr;
    m_overviewBoxes.clear();
    m_overviewItem.reset();
    m_overview = false;
}

void GraphScene::showBoxes(const graph::GraphModel& graph, const graph::ModuleTree& tree,
    const graph::VisibleGraph& visible, const graph::LayoutResult& layout, qreal margin, const QPalette& palette)
{
    reset();
    setSceneRect(QRectF(-margin, -margin, layout.width + 2 * margin, layout.height + 2 * margin));
    const auto& nodes = graph.nodes();
    const auto& items = visible.items();
    const auto& boxes = layout.boxes;
    m_boxes.assign(items.size(), nullptr);
    const GraphBoxItem::Colors neutral = LensPalette::colors({}, palette);
    // Each box told its room before it enters the scene: a geometry change of an item in the
    // scene moves it in the scene's index (on the 50k-node graph's expansion, most of the
    // time the scene took).
    const std::vector<double> room = TitleRoom::rightOf(layout.boxes, layout.width);
    for (std::size_t i = 0; i < items.size(); ++i) {
        const auto& b = boxes[i];
        const QRectF rect(b.x, b.y, b.w, b.h);
        GraphBoxItem* box;
        if (items[i].kind == graph::VisibleItem::Node) {
            box = new NodeItem(
                static_cast<int>(i), items[i].id, &nodes[static_cast<std::size_t>(items[i].id)], rect, neutral);
        } else {
            const auto& m = tree.module(items[i].id);
            box = new ModuleItem(static_cast<int>(i), items[i].id, QString::fromStdString(m.path),
                QString::fromStdString(m.type), m.total, rect, neutral);
        }
        if (i < room.size())
            box->setRoomBeside(room[i], TitleRoom::clearance(b.h));
        addItem(box);
        m_boxes[i] = box;
    }
    // Zoomed out past the boxes' labels, the expanded modules are named regions.
    m_regions = new ModuleRegionsItem(ModuleRegionsItem::build(graph, tree, visible, boxes),
        graph::LayoutOptions{}.nodeHeight, palette.color(QPalette::Dark), palette.color(QPalette::Text),
        palette.color(QPalette::Base));
    m_regions->setBoxes({m_boxes.begin(), m_boxes.end()});
    addItem(m_regions);
}

std::vector<EdgesItem::Edge> GraphScene::edgeRoutes(
    const graph::VisibleGraph& visible, const graph::LayoutResult& layout)
{
    const auto& boxes = layout.boxes;
    const auto& routes = layout.routes;
    std::vector<EdgesItem::Edge> edges;
    edges.reserve(visible.edges().size());
    // Routes come per item in input order, and inputLists() lists an item's inputs in edge order.
    std::vector<std::size_t> nextRoute(visible.items().size() + 1, 0);
    for (const auto& r : routes)
        ++nextRoute[static_cast<std::size_t>(r.to) + 1];
    for (std::size_t i = 1; i < nextRoute.size(); ++i)
        nextRoute[i] += nextRoute[i - 1];
    for (const auto& e : visible.edges()) {
        const auto& fb = boxes[static_cast<std::size_t>(e.from)];
        const auto& tb = boxes[static_cast<std::size_t>(e.to)];
        QPolygonF route{QPointF(fb.x + fb.w / 2, fb.y + fb.h), QPointF(tb.x + tb.w / 2, tb.y)};
        const std::size_t k = nextRoute[static_cast<std::size_t>(e.to)]++;
        if (k < routes.size() && routes[k].from == e.from && routes[k].to == e.to) {
            route.clear();
            for (const auto& p : routes[k].points)
                route.append(QPointF(p.x, p.y));
        }
        edges.push_back({e.from, e.to, e.count, std::move(route)});
    }
    return edges;
}

EdgesItem* GraphScene::showEdges(
    const graph::VisibleGraph& visible, const graph::LayoutResult& layout, const QPalette& palette)
{
    // Opaque: the raster engine blends a translucent one-pixel line pixel by pixel, twenty
    // times slower than it fills an opaque one (12 ms against 0.5 ms a frame at 50k nodes).
    m_edges = new EdgesItem(edgeRoutes(visible, layout),
        opaqueOver(palette.color(QPalette::PlaceholderText), palette.color(QPalette::Base)),
        palette.color(QPalette::Highlight));
    addItem(m_edges);
    return m_edges;
}

GraphBoxItem* GraphScene::box(int item) const
{
    return item >= 0 && item < static_cast<int>(m_boxes.size()) ? m_boxes[static_cast<std::size_t>(item)] : nullptr;
}

std::vector<std::pair<std::string, int>> GraphScene::applyLens(const graph::GraphModel& graph,
    const graph::ModuleTree& tree, const graph::VisibleGraph& visible, graph::Lens lens, const QPalette& palette,
    std::vector<GraphMinimap::Box>* minimap, const std::string& scope)
{
    std::map<std::string, int> counts;
    minimap->clear();
    minimap->reserve(m_boxes.size());
    std::unordered_map<std::string, GraphBoxItem::Colors> colorCache;
    for (std::size_t i = 0; i < m_boxes.size(); ++i) {
        const auto& item = visible.items()[i];
        std::string c = item.kind == graph::VisibleItem::Node
            ? graph::GraphLens::category(graph, tree, item.id, lens, scope)
            : graph::GraphLens::moduleCategory(graph, tree, item.id, lens, scope);
        auto it = colorCache.find(c);
        if (it == colorCache.end())
            it = colorCache.emplace(c, LensPalette::colors(c, palette)).first;
        m_boxes[i]->setColors(it->second);
        minimap->push_back({m_boxes[i]->rect(), it->second.fill});
        if (!c.empty())
            ++counts[c];
    }
    std::vector<std::pair<std::string, int>> sorted(counts.begin(), counts.end());
    std::stable_sort(sorted.begin(), sorted.end(), [](const auto& a, const auto& b) { return a.second > b.second; });
    return sorted;
}

std::pair<double, double> GraphScene::applyMeasure(const graph::ModuleTree& tree, const graph::VisibleGraph& visible,
    const graph::MeasuredLens& values, const QPalette& palette, std::vector<GraphMinimap::Box>* minimap)
{
    const GraphBoxItem::Colors plain = LensPalette::colors(std::string(), palette);
    std::vector<std::optional<double>> shown(m_boxes.size());
    double low = 0, high = 0;
    for (std::size_t i = 0; i < m_boxes.size(); ++i) {
        const auto& item = visible.items()[i];
        shown[i] = item.kind == graph::VisibleItem::Node ? values.node(item.id) : values.module(tree, item.id);
        if (shown[i] && *shown[i] > 0) {
            low = low > 0 ? std::min(low, *shown[i]) : *shown[i];
            high = std::max(high, *shown[i]);
        }
    }
    minimap->clear();
    minimap->reserve(m_boxes.size());
    for (std::size_t i = 0; i < m_boxes.size(); ++i) {
        const GraphBoxItem::Colors colors
            = shown[i] ? LensPalette::rampColors(graph::MeasuredLens::position(*shown[i], low, high), palette) : plain;
        m_boxes[i]->setColors(colors);
        minimap->push_back({m_boxes[i]->rect(), colors.fill});
    }
    return {low, high};
}

void GraphScene::applyFills(const graph::ModuleTree& tree, const graph::VisibleGraph& visible,
    const std::map<int, QColor>& fills, const QPalette& palette, std::vector<GraphMinimap::Box>* minimap)
{
    const GraphBoxItem::Colors plain = LensPalette::colors(std::string(), palette);
    for (std::size_t i = 0; i < m_boxes.size(); ++i) {
        const auto& item = visible.items()[i];
        std::map<QRgb, int> votes;  // a module box: the fill most of its nodes have
        for (int n : item.kind == graph::VisibleItem::Node ? std::vector<int>{item.id} : tree.nodesIn(item.id))
            if (auto it = fills.find(n); it != fills.end())
                ++votes[it->second.rgba()];
        GraphBoxItem::Colors colors = plain;
        if (!votes.empty())
            colors.fill = QColor::fromRgba(std::max_element(votes.begin(), votes.end(), [](auto& a, auto& b) {
                return a.second < b.second;
            })->first);
        m_boxes[i]->setColors(colors);
        (*minimap)[i].fill = colors.fill;
    }
}

void GraphScene::markNodes(const graph::GraphModel& graph, const graph::VisibleGraph& visible, const QList<int>& nodes)
{
    for (auto* box : m_boxes)
        box->setMarked(false);
    const int count = static_cast<int>(graph.nodes().size());
    for (int n : nodes)
        if (n >= 0 && n < count)
            if (auto* b = box(visible.itemOfNode(n)))
                b->setMarked(true);
}

void GraphScene::setOverviewBoxes(std::vector<GraphMinimap::Box> boxes)
{
    m_overviewBoxes = std::move(boxes);
    m_overviewItem.reset();  // its picture is out of date: made again when next drawn
}

void GraphScene::setOverview(bool on)
{
    // Only the canvas's painting changes (GraphCanvas::paintEvent draws overviewItems() in place
    // of the scene): the items stay as they are, so crossing the floor costs nothing (hiding and
    // showing 50k boxes took 40 ms each way), and what the scene exports or finds under the
    // mouse does not depend on the zoom.
    m_overview = on && !m_boxes.empty();
    if (m_regions)
        m_regions->setBoxesDrawn(!m_overview);
}

void GraphScene::setZoom(qreal zoom)
{
    setOverview(zoom < GraphCanvas::kFloorZoom);
    if (m_regions)
        m_regions->setZoom(zoom);
}

std::vector<QGraphicsItem*> GraphScene::overviewItems()
{
    if (!m_overview)
        return {};
    if (!m_overviewItem)
        m_overviewItem = std::make_unique<GraphOverviewItem>(sceneRect(), m_overviewBoxes);
    std::vector<QGraphicsItem*> out{m_overviewItem.get()};
    if (m_regions)
        out.push_back(m_regions);
    return out;
}

QList<int> GraphScene::selectedBoxes() const
{
    QList<int> out;
    for (auto* item : selectedItems())
        if (item->type() == NodeItem::Type || item->type() == ModuleItem::Type)
            out.append(static_cast<GraphBoxItem*>(item)->item());
    std::sort(out.begin(), out.end());
    return out;
}

QList<int> GraphScene::selectedNodes(const graph::ModuleTree* tree) const
{
    QList<int> out;
    for (auto* item : selectedItems()) {
        if (item->type() == NodeItem::Type) {
            out.append(static_cast<NodeItem*>(item)->node());
        } else if (item->type() == ModuleItem::Type && tree) {
            for (int n : tree->nodesIn(static_cast<ModuleItem*>(item)->module()))
                out.append(n);
        }
    }
    std::sort(out.begin(), out.end());
    out.erase(std::unique(out.begin(), out.end()), out.end());
    return out;
}

QList<int> GraphScene::selectedModules() const
{
    QList<int> out;
    for (auto* item : selectedItems())
        if (item->type() == ModuleItem::Type)
            out.append(static_cast<ModuleItem*>(item)->module());
    return out;
}

void GraphScene::markNeighbours(const graph::GraphModel& graph, const graph::VisibleGraph& visible,
    const QList<int>& selected, const QList<int>& selectedItems, int depth)
{
    for (auto* box : m_boxes)
        box->setRelation(GraphBoxItem::Relation::None);
    if (selected.isEmpty() || depth <= 0)
        return;
    const auto around = graph::Neighbourhood::around(graph, std::vector<int>(selected.begin(), selected.end()), depth);
    const std::unordered_set<int> mine(selectedItems.begin(), selectedItems.end());
    auto mark = [&](const std::vector<int>& list, GraphBoxItem::Relation r) {
        for (int n : list) {
            const int item = visible.itemOfNode(n);
            if (item >= 0 && !mine.count(item))
                m_boxes[static_cast<std::size_t>(item)]->setRelation(r);
        }
    };
    mark(around.downstream, GraphBoxItem::Relation::Downstream);
    mark(around.upstream, GraphBoxItem::Relation::Upstream);
}

}  // namespace ps::ui
