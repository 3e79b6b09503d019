#include "ui/graph/GraphView.h"

#include "graph/GraphModel.h"
#include "graph/LayeredLayout.h"
#include "graph/ModuleTree.h"
#include "graph/VisibleGraph.h"
#include "model/Capture.h"
#include "ui/graph/GraphBoxItem.h"
#include "ui/graph/GraphCanvas.h"
#include "ui/graph/GraphContextMenu.h"
#include "ui/graph/GraphExpansion.h"
#include "ui/graph/GraphExport.h"
#include "ui/graph/GraphMinimap.h"
#include "ui/graph/GraphScene.h"
#include "ui/graph/GraphSelection.h"
#include "ui/graph/GraphSession.h"
#include "ui/graph/GraphSidePanel.h"
#include "ui/graph/GraphToolBar.h"
#include "ui/graph/ModuleItem.h"
#include "ui/graph/ModuleTreeModel.h"
#include "ui/graph/TopNodesPanel.h"

#include <QLabel>
#include <QLineEdit>
#include <QSplitter>
#include <QStackedWidget>
#include <QVBoxLayout>

#include <algorithm>
#include <utility>

namespace ps::ui {

namespace {

constexpr qreal kSceneMargin = 40;

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
    connect(m_canvas, &GraphCanvas::itemActivated, this, &GraphView::onItemActivated);
    connect(m_canvas, &GraphCanvas::contextMenuRequested, this,
        [this](QGraphicsItem* item, const QPoint& at) { GraphContextMenu::exec(*this, item, at); });
    connect(m_canvas, &GraphCanvas::expandRequested, this, &GraphView::onExpandRequested);
    // Below the zoom floor (a big graph fitted whole) the boxes are one picture.
    connect(m_canvas, &GraphCanvas::zoomChanged, m_scene, &GraphScene::setZoom);
    m_canvas->setOverviewItems([this]() { return m_scene->overviewItems(); });

    m_toolBar = new GraphToolBar;
    connect(m_toolBar, &GraphToolBar::searchChanged, this, &GraphView::setSearch);
    connect(m_toolBar, &GraphToolBar::findNext, this, &GraphView::findNext);
    connect(m_toolBar, &GraphToolBar::findPrevious, this, &GraphView::findPrevious);
    connect(m_toolBar, &GraphToolBar::lensChanged, this, &GraphView::setLens);
    connect(m_toolBar, &GraphToolBar::sourceScopeChanged, this, &GraphView::setSourceScope);
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
    m_selection = new GraphSelection(
        {m_session, m_scene, m_canvas, m_toolBar, m_side, m_expansion}, [this](int node) { return boxOfNode(node); },
        this);
    connect(m_selection, &GraphSelection::nodesSelected, this, &GraphView::showMeasured);
    connect(m_selection, &GraphSelection::nodesSelected, this, &GraphView::nodesSelected);
    connect(m_side, &GraphSidePanel::moduleActivated, this, [this](int m) {
        if (const auto* tree = moduleTree()) {
            const std::vector<int> nodes = tree->nodesIn(m);
            selectNodes(QList<int>(nodes.begin(), nodes.end()), false);
        }
    });
    connect(
        m_side, &GraphSidePanel::nodesActivated, this, [this](const QList<int>& nodes) { selectNodes(nodes, true); });
    connect(m_side, &GraphSidePanel::locationActivated, this, &GraphView::locationActivated);
    connect(m_side, &GraphSidePanel::frameActivated, this, &GraphView::frameActivated);

    // The canvas takes the width; the module tree and the details are a panel beside it, shown
    // on request (the toolbar's toggle, remembered), so that the graph has the room by default.
    m_split = new QSplitter(Qt::Horizontal);
    m_split->setObjectName(QStringLiteral("graphSplitter"));
    // The canvas's column: the top nodes go under the canvas when the view is too narrow for
    // both side by side (placeTopNodes).
    m_column = new QSplitter(Qt::Vertical);
    m_column->setObjectName(QStringLiteral("graphColumn"));
    m_column->setChildrenCollapsible(false);
    m_column->addWidget(m_canvas);
    m_split->addWidget(m_column);
    m_split->setStretchFactor(0, 1);
    m_split->setCollapsible(0, false);
    m_side->placeIn(m_split);
    m_topNodes = new TopNodesPanel;
    m_topNodes->setVisible(false);
    m_column->addWidget(m_topNodes);  // placed for real when first shown (placeTopNodes)
    connect(m_topNodes, &TopNodesPanel::nodesActivated, this,
        [this](const QList<int>& nodes) { selectNodes(nodes, true); });
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
    m_message->setTextFormat(Qt::PlainText);  // run-derived text
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
    m_scene->disconnect(m_selection);
}

void GraphView::clear(const QString& message)
{
    m_marked.clear();
    m_nodeFills.clear();
    // A graph replaced takes its search along; what is typed while none is shown stays.
    graph() ? m_toolBar->clearSearch() : m_toolBar->setMatches({}, false);
    m_session->clear();
    {
        const GraphSelection::Quiet quiet(m_selection);
        m_scene->reset();
    }
    m_visible = nullptr;
    m_layout = nullptr;
    m_selection->setShown(nullptr, nullptr);
    m_moduleModel->setTree(nullptr, nullptr);
    m_minimap->setBoxes({}, {});
    m_side->clearDetails();
    m_side->setGraph(nullptr);
    m_toolBar->clearLegend();
    m_message->setText(message);
    m_stack->setCurrentIndex(0);
}

void GraphView::setGraph(std::shared_ptr<const graph::GraphModel> g, const model::Capture* capture)
{
    if (!g || g->empty()) {
        QString why = g && !g->error().empty() ? QString::fromStdString(g->error()) : tr("This capture has no graph.");
        clear(why);
        return;
    }
    clear(tr("Laying out %n node(s)…", nullptr, static_cast<int>(g->nodes().size())));
    m_captureName = capture ? QString::fromStdString(capture->name) : QString();
    m_measures = GraphMeasures(*g, capture);
    for (auto lens : {graph::Lens::Time, graph::Lens::Error, graph::Lens::Memory})
        m_toolBar->setLensAvailable(lens, m_measures.unavailable(lens));
    // A measuring lens this run has no data for is not kept from the last one: every box grey
    // and the lens greyed in its own list say nothing.
    if (graph::GraphLens::numeric(m_lens) && !m_measures.unavailable(m_lens).isEmpty()) {
        m_lens = graph::Lens::Kind;
        m_toolBar->setLens(m_lens);
    }
    m_expansion->anchorOn(-1);
    m_toolBar->setSourceScopes(graph::GraphLens::sourceScopes(*g));
    m_sourceScope = m_toolBar->sourceScope().toStdString();  // kept where the new graph has it
    m_session->open(std::move(g), opening());
    m_side->setGraph(graph().get());
}

GraphOpening GraphView::opening() const
{
    GraphOpening o;
    o.budget = kOpeningBudget;
    o.margin = kSceneMargin;
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
    m_selection->applyPendingSelection();
    if (std::exchange(m_fitNext, false))
        zoomToFit();
    m_selection->goToSelectionIfAsked();
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
    m_selection->setShown(m_visible, m_layout);
    const QPalette pal = palette();
    {
        const GraphSelection::Quiet quiet(m_selection);
        m_scene->showBoxes(*graph(), *moduleTree(), *m_visible, *m_layout, kSceneMargin, pal);
        m_scene->showEdges(*m_visible, *m_layout, pal);
    }
    applyLens();
    m_scene->setZoom(m_canvas->zoom());
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
    const auto sorted
        = m_scene->applyLens(*graph(), *moduleTree(), *m_visible, m_lens, palette(), &mini, m_sourceScope);
    m_toolBar->setLegend(sorted, m_lens);
    QList<int> marked = m_marked;
    const graph::MeasuredLens* values = m_measures.lens(m_lens);
    if (values) {  // a numeric lens: the ramp, its legend, the top nodes and what it marks
        const auto [low, high] = m_scene->applyMeasure(*moduleTree(), *m_visible, *values, palette(), &mini);
        m_toolBar->setMeasureLegend(
            {m_measures.legendHtml(m_lens, low, high), m_measures.legendHtml(m_lens, low, high, true)},
            m_measures.legendTip(m_lens, low, high));
        for (int n : m_measures.marked(m_lens))
            marked.append(n);
        m_topNodes->show(*graph(), *values, m_lens == graph::Lens::Memory ? m_measures.peakText() : QString());
    } else if (graph::GraphLens::numeric(m_lens)) {
        m_toolBar->setMeasureLegend({QStringLiteral("<i>%1</i>").arg(m_measures.unavailable(m_lens).toHtmlEscaped())},
            m_measures.unavailable(m_lens));
    }
    if (values && m_topNodes->isHidden())
        placeTopNodes();
    m_topNodes->setVisible(values != nullptr);
    showMeasured();
    if (!m_nodeFills.empty()) {
        m_toolBar->clearLegend();  // the fills stand for something else than the lens
        m_scene->applyFills(*moduleTree(), *m_visible, m_nodeFills, palette(), &mini);
    }
    m_minimap->setBoxes(m_scene->sceneRect(), mini);
    m_scene->setOverviewBoxes(std::move(mini));
    m_scene->markNodes(*graph(), *m_visible, marked);
}

void GraphView::showMeasured()
{
    m_side->setMeasureHtml(graph() && moduleTree()
            ? m_measures.detailsHtml(m_lens, *moduleTree(), selectedNodes(), m_scene->selectedModules())
            : QString());
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

void GraphView::placeTopNodes()
{
    m_topNodes->setVisible(true);
    const int canvasWidth = m_split->sizes().value(0);
    if (canvasWidth - kTopNodesWidth < kBesideMinCanvas) {
        // Too narrow for both side by side (a 1280-pixel window): under the canvas, the whole
        // width for its names and values, two fifths of the height at most (five rows or more).
        m_column->addWidget(m_topNodes);
        const int total = m_column->height();
        const int rows = std::clamp(total * 2 / 5, 150, 260);
        m_column->setSizes({std::max(total - rows, rows), rows});
        return;
    }
    // Beside the canvas, taking its room from the canvas.
    m_split->addWidget(m_topNodes);
    auto sizes = m_split->sizes();
    const int width = std::min(kTopNodesWidth, std::max(sizes.value(0) / 3, 200));
    sizes[0] = std::max(sizes.value(0) - width, width);
    sizes[m_split->indexOf(m_topNodes)] = width;
    m_split->setSizes(sizes);
}

void GraphView::setLens(graph::Lens lens)
{
    m_lens = lens;
    m_toolBar->setLens(lens);
    applyLens();
}

bool GraphView::setSourceScope(const QString& scope)
{
    if (!m_toolBar->setSourceScope(scope))
        return false;
    m_sourceScope = scope.toStdString();
    applyLens();
    return true;
}

QStringList GraphView::legend() const
{
    return m_toolBar->legendEntries();
}

void GraphView::setNeighbourDepth(int depth)
{
    depth = std::max(0, depth);
    m_toolBar->setDepth(depth);
    m_selection->setNeighbourDepth(depth);
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
    return m_selection->selectedNodes();
}

void GraphView::selectNodes(const QList<int>& nodes, bool reveal)
{
    m_selection->selectNodes(nodes, reveal);
}

void GraphView::goToNodes(const QList<int>& nodes)
{
    m_selection->goToNodes(nodes);
}

QPointF GraphView::nodeCenter(int node) const
{
    auto* box = boxOfNode(node);
    return box ? box->rect().center() : QPointF();
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
    m_selection->setSearch(text, field);
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
    m_selection->findNext();
}

void GraphView::findPrevious()
{
    m_selection->findPrevious();
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

}  // namespace ps::ui
