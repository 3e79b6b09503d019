#include "ui/graph/GraphView.h"

#include "graph/GraphModel.h"
#include "graph/LayeredLayout.h"
#include "graph/ModuleTree.h"
#include "graph/VisibleGraph.h"
#include "ui/graph/EdgesItem.h"
#include "ui/graph/GraphBoxItem.h"
#include "ui/graph/GraphCanvas.h"
#include "ui/graph/GraphContextMenu.h"
#include "ui/graph/GraphDetailsFormatter.h"
#include "ui/graph/GraphExpansion.h"
#include "ui/graph/GraphExport.h"
#include "ui/graph/GraphMinimap.h"
#include "ui/graph/GraphScene.h"
#include "ui/graph/GraphSession.h"
#include "ui/graph/GraphSidePanel.h"
#include "ui/graph/GraphToolBar.h"
#include "ui/graph/ModuleItem.h"
#include "ui/graph/ModuleTreeModel.h"

#include <QLabel>
#include <QLineEdit>
#include <QSplitter>
#include <QStackedWidget>
#include <QVBoxLayout>

#include <algorithm>
#include <utility>

namespace ps::ui {

namespace {

constexpr qreal kMargin = 40;

}  // namespace

GraphView::GraphView(QWidget* parent) : QWidget(parent)
{
    m_session = new GraphSession(this);
    connect(m_session, &GraphSession::layoutShown, this, &GraphView::onLayoutShown);
    connect(m_session, &GraphSession::layoutFailed, this, &GraphView::onLayoutFailed);
    m_scene = new GraphScene(this);
    m_canvas = new GraphCanvas;
    m_canvas->setScene(m_scene);
    m_minimap = new GraphMinimap(m_canvas);
    connect(m_scene, &QGraphicsScene::selectionChanged, this, &GraphView::onSelectionChanged);
    connect(m_canvas, &GraphCanvas::itemActivated, this, &GraphView::onItemActivated);
    connect(m_canvas, &GraphCanvas::contextMenuRequested, this,
        [this](QGraphicsItem* item, const QPoint& at) { GraphContextMenu::exec(*this, item, at); });
    connect(m_canvas, &GraphCanvas::stepRequested, this, &GraphView::onStep);
    connect(m_canvas, &GraphCanvas::expandRequested, this, &GraphView::onExpandRequested);
    // Below the zoom floor (a big graph fitted whole) the boxes are one picture.
    connect(m_canvas, &GraphCanvas::zoomChanged, this,
        [this](qreal zoom) { m_scene->setOverview(zoom < GraphCanvas::kFloorZoom); });
    m_canvas->setOverviewItems([this]() { return m_scene->overviewItems(); });

    m_toolBar = new GraphToolBar;
    connect(m_toolBar, &GraphToolBar::searchChanged, this, &GraphView::setSearch);
    connect(m_toolBar, &GraphToolBar::findNext, this, &GraphView::findNext);
    connect(m_toolBar, &GraphToolBar::findPrevious, this, &GraphView::findPrevious);
    connect(m_toolBar, &GraphToolBar::lensChanged, this, &GraphView::setLens);
    connect(m_toolBar, &GraphToolBar::depthChanged, this, &GraphView::setNeighbourDepth);
    connect(m_toolBar, &GraphToolBar::expandAll, this, &GraphView::expandAll);
    connect(m_toolBar, &GraphToolBar::collapseAll, this, &GraphView::collapseAll);
    connect(m_toolBar, &GraphToolBar::exportRequested, this, &GraphView::exportInteractive);
    connect(m_toolBar, &GraphToolBar::zoomToFit, this, &GraphView::zoomToFit);
    connect(m_toolBar, &GraphToolBar::zoomReset, this, &GraphView::zoomReset);
    connect(m_toolBar, &GraphToolBar::zoomIn, this, &GraphView::zoomIn);
    connect(m_toolBar, &GraphToolBar::zoomOut, this, &GraphView::zoomOut);
    connect(m_toolBar, &GraphToolBar::sidePanelToggled, this, [this](bool shown) { m_side->setShown(shown, true); });

    m_moduleModel = new ModuleTreeModel(this);
    m_side = new GraphSidePanel(m_moduleModel);
    m_expansion = new GraphExpansion(
        m_session, m_side, m_canvas, [this](int node) { return boxOfNode(node); }, this);
    connect(m_moduleModel, &ModuleTreeModel::expansionRequested, m_expansion, &GraphExpansion::requestModule);
    connect(m_expansion, &GraphExpansion::expansionRequested, this, &GraphView::expansionRequested);
    connect(m_side, &GraphSidePanel::moduleActivated, this, [this](int m) {
        if (const auto* tree = moduleTree()) {
            const std::vector<int> nodes = tree->nodesIn(m);
            selectNodes(QList<int>(nodes.begin(), nodes.end()), false);
        }
    });
    connect(
        m_side, &GraphSidePanel::nodesActivated, this, [this](const QList<int>& nodes) { selectNodes(nodes, true); });
    connect(m_side, &GraphSidePanel::locationActivated, this, &GraphView::locationActivated);

    // The canvas takes the width; the module tree and the details are a panel beside it, shown
    // on request (the toolbar's toggle, remembered), so that the graph has the room by default.
    m_split = new QSplitter(Qt::Horizontal);
    m_split->setObjectName(QStringLiteral("graphSplitter"));
    m_split->addWidget(m_canvas);
    m_split->setStretchFactor(0, 1);
    m_split->setCollapsible(0, false);
    m_side->placeIn(m_split);
    m_toolBar->setSidePanelShown(sidePanelShown());

    auto* graphPage = new QWidget;
    auto* gl = new QVBoxLayout(graphPage);
    gl->setContentsMargins(0, 0, 0, 0);
    gl->setSpacing(0);
    gl->addWidget(m_toolBar);
    gl->addWidget(m_split, 1);
    // From the node search, Tab goes to the canvas (where the arrows walk the match), not
    // through every button of the toolbar first.
    QWidget::setTabOrder(m_toolBar->searchBox(), m_canvas);

    m_message = new QLabel;
    m_message->setAlignment(Qt::AlignCenter);
    m_message->setWordWrap(true);
    m_message->setTextInteractionFlags(Qt::TextSelectableByMouse);
    m_message->setForegroundRole(QPalette::PlaceholderText);

    m_stack = new QStackedWidget;
    m_stack->addWidget(m_message);
    m_stack->addWidget(graphPage);
    auto* layout = new QVBoxLayout(this);
    layout->setContentsMargins(0, 0, 0, 0);
    layout->addWidget(m_stack);
    clear(tr("Run a script (Ctrl+R) or open a run from the library to see its graph."));
}

GraphView::~GraphView()
{
    // The scene deletes its items when it goes, emitting selectionChanged as it does.
    m_scene->disconnect(this);
}

void GraphView::clear(const QString& message)
{
    m_marked.clear();
    m_nodeFills.clear();
    // A graph replaced takes its search along; what is typed while none is shown stays.
    graph() ? m_toolBar->clearSearch() : m_toolBar->setMatches({}, false);
    m_session->clear();
    m_selecting = true;
    m_scene->reset();
    m_selecting = false;
    m_edges = nullptr;
    m_visible = nullptr;
    m_layout = nullptr;
    m_navigator.reset(nullptr, nullptr, nullptr);
    m_current = -1;
    m_moduleModel->setTree(nullptr, nullptr);
    m_minimap->setBoxes({}, {});
    m_side->clearDetails();
    m_side->setGraph(nullptr);
    m_toolBar->clearLegend();
    m_message->setText(message);
    m_stack->setCurrentIndex(0);
}

void GraphView::setGraph(std::shared_ptr<const graph::GraphModel> g)
{
    if (!g || g->empty()) {
        QString why = g && !g->error().empty() ? QString::fromStdString(g->error()) : tr("This capture has no graph.");
        clear(why);
        return;
    }
    clear(tr("Laying out %n node(s)…", nullptr, static_cast<int>(g->nodes().size())));
    m_expansion->anchorOn(-1);
    m_session->open(std::move(g), opening());
    m_side->setGraph(graph().get());
}

GraphOpening GraphView::opening() const
{
    GraphOpening o;
    o.budget = kOpeningBudget;
    o.margin = kMargin;
    o.readableZoom = GraphBoxItem::kMinTextPx / GraphBoxItem::fontPixels(m_canvas->font(), m_canvas->viewport());
    // Titles read from the zoom at which a row's pitch holds one beside its box.
    const graph::LayoutOptions options;
    o.titleZoom = std::min(GraphBoxItem::kTitleBoxPx / options.nodeHeight,
        (GraphBoxItem::kTitlePx + 4) / (options.nodeHeight + 0.8 * options.layerGap));
    // The canvas as the graph page will lay it out (that page may not be shown yet): this
    // view less the toolbar and the side panel.
    if (testAttribute(Qt::WA_Resized)) {
        const int side = m_side->isHidden() ? 0 : m_split->handleWidth() + m_split->sizes().value(1);
        o.width = width() - side;
        o.height = height() - m_toolBar->sizeHint().height();
        if (o.width < 100 || o.height < 100)
            o.width = o.height = 0;  // not laid out for real yet
    }
    return o;
}

ModuleRegionsItem* GraphView::regions() const
{
    return m_scene->regions();
}

void GraphView::setSidePanelShown(bool shown)
{
    m_toolBar->setSidePanelShown(shown);
    m_side->setShown(shown, false);
}

void GraphView::setSidePanelAvailable(bool available)
{
    if (!available)
        setSidePanelShown(false);
    m_toolBar->setSidePanelToggleVisible(available);
}

bool GraphView::sidePanelShown() const
{
    return !m_side->isHidden();
}

void GraphView::onLayoutShown(bool opened)
{
    buildScene();
    if (opened) {
        // The graph page was just put in front: lay it out now, so the fit sees its real size.
        m_stack->layout()->setGeometry(m_stack->contentsRect());
        if (auto* page = m_stack->currentWidget(); page && page->layout())
            page->layout()->activate();
        // A graph opens whole, and stays fitted as the canvas is resized until the user zooms
        // or pans.
        zoomToFit();
        m_moduleModel->setTree(m_session->tree(), m_session->shownState());
        m_expansion->syncTree(true);
        m_side->fitColumns();
        // What was typed in the search box while it opened searches the new graph.
        if (!m_toolBar->searchText().isEmpty())
            setSearch(m_toolBar->searchText(), m_toolBar->searchField());
    } else {
        m_canvas->setKeepFitted(false);
        m_expansion->restoreAnchor();  // the expanded (or collapsed) module where the user was looking
        m_expansion->syncTree(false);
    }
    applyPendingSelection();
    if (std::exchange(m_fitNext, false))
        zoomToFit();
    if (std::exchange(m_goToSelection, false))
        goToSelection();
    emit graphShown();
}

void GraphView::onLayoutFailed(const QString& error)
{
    emit layoutFailed();
    const QString why = tr("The graph cannot be laid out: %1").arg(error);
    if (!m_session->shownState()) {
        clear(why);  // nothing shown yet
        return;
    }
    m_toolBar->setSummary(why);  // what is shown stays, and its state
    m_expansion->syncTree(false);
}

void GraphView::buildScene()
{
    m_visible = m_session->visible().get();
    m_layout = m_session->layout();
    m_navigator.reset(graph().get(), m_visible, m_layout);
    m_current = -1;
    const QPalette pal = palette();
    m_selecting = true;
    m_edges = nullptr;
    m_scene->showBoxes(*graph(), *moduleTree(), *m_visible, *m_layout, kMargin, pal);
    m_edges = m_scene->showEdges(*m_visible, *m_layout, pal);
    m_selecting = false;
    applyLens();
    m_scene->setOverview(m_canvas->zoom() < GraphCanvas::kFloorZoom);
    updateSummary();
    m_stack->setCurrentIndex(1);
    m_side->clearDetails();
}

void GraphView::updateSummary()
{
    if (graph() && m_visible)
        m_toolBar->setSummary(*graph(), m_layout->layerCount, visibleModuleCount());
}

void GraphView::applyLens()
{
    if (!graph() || !m_visible)
        return;
    std::vector<GraphMinimap::Box> mini;
    const auto sorted = m_scene->applyLens(*graph(), *moduleTree(), *m_visible, m_lens, palette(), &mini);
    m_toolBar->setLegend(sorted, m_lens);
    if (!m_nodeFills.empty()) {
        m_toolBar->clearLegend();  // the fills stand for something else than the lens
        m_scene->applyFills(*moduleTree(), *m_visible, m_nodeFills, palette(), &mini);
    }
    m_minimap->setBoxes(m_scene->sceneRect(), mini);
    m_scene->setOverviewBoxes(std::move(mini));
    m_scene->markNodes(*graph(), *m_visible, m_marked);
}

void GraphView::setMarkedNodes(const QList<int>& nodes)
{
    if (nodes == m_marked)
        return;
    m_marked = nodes;
    applyLens();
}

void GraphView::setNodeFills(const std::map<int, QColor>& fills)
{
    if (fills == m_nodeFills)
        return;
    m_nodeFills = fills;
    applyLens();
}

QColor GraphView::boxFill(int node) const
{
    const auto* box = boxOfNode(node);
    return box ? box->fill() : QColor();
}

void GraphView::setLens(graph::Lens lens)
{
    m_lens = lens;
    m_toolBar->setLens(lens);
    applyLens();
}

QStringList GraphView::legend() const
{
    return m_toolBar->legendEntries();
}

void GraphView::setNeighbourDepth(int depth)
{
    m_depth = std::max(0, depth);
    m_toolBar->setDepth(m_depth);
    onSelectionChanged();
}

bool GraphView::isExpanded(const QString& modulePath) const
{
    return m_expansion->isExpanded(modulePath);
}

void GraphView::expandModule(const QString& modulePath)
{
    m_expansion->request(modulePath, true);
}

void GraphView::collapseModule(const QString& modulePath)
{
    m_expansion->request(modulePath, false);
}

void GraphView::expandAll()
{
    m_expansion->requestAll(true);
}

void GraphView::collapseAll()
{
    m_fitNext = true;  // the few boxes left, whole: not a speck where the big graph was
    m_expansion->requestAll(false);
}

int GraphView::visibleItemCount() const
{
    return static_cast<int>(m_scene->boxes().size());
}

int GraphView::visibleModuleCount() const
{
    if (!m_visible)
        return 0;
    return static_cast<int>(std::count_if(m_visible->items().begin(), m_visible->items().end(),
        [](const auto& i) { return i.kind == graph::VisibleItem::Module; }));
}

GraphBoxItem* GraphView::boxOfNode(int node) const
{
    if (!m_visible || !graph() || node < 0 || node >= static_cast<int>(graph()->nodes().size()))
        return nullptr;
    return m_scene->box(m_visible->itemOfNode(node));
}

QList<int> GraphView::selectedNodes() const
{
    return m_scene->selectedNodes(moduleTree());
}

void GraphView::selectNodes(const QList<int>& nodes, bool reveal)
{
    if (!graph())
        return;
    if (m_session->pending()) {
        // A layout is on its way: select once it is shown.
        m_session->selectWhenShown(nodes, reveal);
        return;
    }
    if (reveal) {
        m_expansion->anchorOn(nodes.isEmpty() ? -1 : nodes.front());
        if (m_session->reveal(nodes, reveal)) {
            m_expansion->syncTree(false);
            return;
        }
    }
    m_selecting = true;
    m_scene->clearSelection();
    GraphBoxItem* first = nullptr;
    for (int n : nodes) {
        if (auto* box = boxOfNode(n)) {
            box->setSelected(true);
            if (!first)
                first = box;
        }
    }
    m_selecting = false;
    if (reveal && first)
        m_canvas->ensureVisible(first, 60, 60);
    onSelectionChanged();
}

void GraphView::applyPendingSelection()
{
    bool reveal = false;
    const QList<int> nodes = m_session->takePendingSelection(&reveal);
    if (!nodes.isEmpty())
        selectNodes(nodes, reveal);
}

QPointF GraphView::nodeCenter(int node) const
{
    auto* box = boxOfNode(node);
    return box ? box->rect().center() : QPointF();
}

void GraphView::onSelectionChanged()
{
    if (m_selecting || !graph() || !m_visible)
        return;
    if (!m_stepping)
        m_navigator.forget();  // moved another way than by the arrow keys
    const QList<int> selected = selectedNodes();
    const QList<int> selectedItems = m_scene->selectedBoxes();
    m_scene->markNeighbours(*graph(), *m_visible, selected, selectedItems, m_depth);
    if (m_edges)
        m_edges->setHighlighted(selectedItems);
    m_side->setDetailsHtml(GraphDetailsFormatter::html(*graph(), moduleTree(), selected, m_scene->selectedModules()));
    emit nodesSelected(selected);
}

void GraphView::selectItem(int item)
{
    GraphBoxItem* box = m_scene->box(item);
    if (!box)
        return;
    m_selecting = true;
    m_scene->clearSelection();
    box->setSelected(true);
    m_selecting = false;
    m_current = item;
    m_canvas->ensureVisible(box, 60, 60);
    onSelectionChanged();
}

int GraphView::currentItem() const
{
    const QList<int> selected = m_scene->selectedBoxes();
    return selected.contains(m_current) ? m_current : selected.value(0, -1);
}

void GraphView::onStep(GraphNavigator::Step step)
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

void GraphView::onItemActivated(QGraphicsItem* item)
{
    if (item->type() == ModuleItem::Type)
        expandModule(static_cast<ModuleItem*>(item)->path());
}

void GraphView::onExpandRequested(QGraphicsItem* item, bool expand)
{
    if (const int node = m_expansion->requestForBox(item, expand); node >= 0)
        selectNodes({node}, false);  // once the new layout is shown
}

void GraphView::setSearch(const QString& text, graph::SearchField field)
{
    m_toolBar->setSearch(text, field);
    const bool searched = !text.trimmed().isEmpty();
    m_toolBar->setMatches(
        graph() && searched ? graph::GraphSearch::find(*graph(), text.toStdString(), field) : std::vector<int>{},
        searched);
}

int GraphView::matchCount() const
{
    return m_toolBar->matchCount();
}

int GraphView::currentMatch() const
{
    return m_toolBar->currentMatch();
}

int GraphView::currentMatchNode() const
{
    return m_toolBar->currentMatchNode();
}

void GraphView::findNext()
{
    if (const int node = m_toolBar->stepMatch(1); node >= 0)
        goToMatch(node);
}

void GraphView::findPrevious()
{
    if (const int node = m_toolBar->stepMatch(-1); node >= 0)
        goToMatch(node);
}

void GraphView::goToMatch(int node)
{
    selectNodes({node}, /*reveal=*/true);
    if (m_session->pending())
        m_goToSelection = true;  // once the module hiding it is open
    else
        goToSelection();
}

void GraphView::focusSearch()
{
    m_toolBar->focusSearch();
}

QString GraphView::detailsText() const
{
    return m_side->detailsText();
}

QString GraphView::message() const
{
    return m_stack->currentIndex() == 0 ? m_message->text() : QString();
}

bool GraphView::exportable(QString* error) const
{
    const bool shown = graph() && !m_scene->boxes().empty();
    if (!shown && error)
        *error = tr("there is no graph to export");
    return shown;
}

bool GraphView::exportSvg(const QString& path, QString* error) const
{
    GraphScene::FullDetail full(m_scene);
    return exportable(error) && GraphExport::toSvg(m_scene, path, exportTitle(), error);
}

bool GraphView::exportPng(const QString& path, QString* error) const
{
    GraphScene::FullDetail full(m_scene);
    return exportable(error) && GraphExport::toPng(m_scene, path, GraphExport::kPngSide, error);
}

QString GraphView::exportTitle() const
{
    return tr("Captured graph (%n node(s))", nullptr, int(graph()->nodes().size()));
}

void GraphView::exportInteractive()
{
    if (exportable(nullptr)) {
        GraphScene::FullDetail full(m_scene);
        GraphExport::saveAs(this, m_scene, exportTitle());
    }
}

void GraphView::zoomIn()
{
    m_canvas->zoomBy(1.25);
}

void GraphView::zoomOut()
{
    m_canvas->zoomBy(0.8);
}

void GraphView::zoomToFit()
{
    m_canvas->setKeepFitted(true);  // first: whoever hears the zoom change sees a fitted view
    m_canvas->fitScene(0.0);
}

void GraphView::zoomReset()
{
    const QList<QGraphicsItem*> selected = m_scene->selectedItems();
    m_canvas->showActualSize(selected.isEmpty() ? nullptr : selected.front());
}

void GraphView::goToSelection()
{
    const QList<QGraphicsItem*> selected = m_scene->selectedItems();
    if (!selected.isEmpty())
        m_canvas->showReadable(selected.front());
}

}  // namespace ps::ui
