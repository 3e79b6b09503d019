#include "ui/GraphView.h"

#include "graph/CollapseState.h"
#include "graph/GraphModel.h"
#include "graph/LayeredLayout.h"
#include "graph/LayoutCache.h"
#include "graph/ModuleTree.h"
#include "graph/Neighbourhood.h"
#include "graph/VisibleGraph.h"
#include "ui/EdgesItem.h"
#include "ui/GraphCanvas.h"
#include "ui/GraphExport.h"
#include "ui/GraphMinimap.h"
#include "ui/LensPalette.h"
#include "ui/ModuleItem.h"
#include "ui/NodeItem.h"

#include <QComboBox>
#include <QFileDialog>
#include <QFileInfo>
#include <QFutureWatcher>
#include <QGraphicsScene>
#include <QHBoxLayout>
#include <QHeaderView>
#include <QLabel>
#include <QLineEdit>
#include <QMenu>
#include <QMessageBox>
#include <QScrollBar>
#include <QSpinBox>
#include <QSplitter>
#include <QStackedWidget>
#include <QTextBrowser>
#include <QTimer>
#include <QToolButton>
#include <QTreeWidget>
#include <QVBoxLayout>
#include <QtConcurrent/QtConcurrentRun>

#include <algorithm>
#include <map>
#include <unordered_map>
#include <unordered_set>

namespace ps::ui {

/// What a layout thread hands back: everything the scene is built from.
struct GraphLayoutJob {
    std::shared_ptr<const graph::ModuleTree> tree;
    std::shared_ptr<graph::CollapseState> state;
    std::shared_ptr<const graph::VisibleGraph> visible;
    std::shared_ptr<graph::LayoutResult> layout;
    QString error;  ///< why there is no layout ("" when there is one)
};

namespace {

/// `fg` drawn over `bg`, as one opaque colour.
QColor opaqueOver(const QColor& fg, const QColor& bg)
{
    const qreal a = fg.alphaF();
    return QColor::fromRgbF(static_cast<float>(fg.redF() * a + bg.redF() * (1 - a)),
        static_cast<float>(fg.greenF() * a + bg.greenF() * (1 - a)),
        static_cast<float>(fg.blueF() * a + bg.blueF() * (1 - a)));
}

constexpr qreal kMargin = 40;
constexpr qreal kReadableZoom = 0.75;  // node labels stay legible at this zoom
constexpr int kOpeningBudget = 80;     // boxes shown when a graph opens
constexpr double kModuleWidth = 214;
constexpr std::size_t kCacheFrom = 1500;  // smaller layouts take milliseconds: not worth a cache entry

QString esc(const std::string& s)
{
    return QString::fromStdString(s).toHtmlEscaped();
}

graph::LayoutOptions layoutOptions()
{
    return {};
}

// Runs on a pool thread: only immutable inputs and its own outputs.
GraphLayoutJob computeJobOrThrow(std::shared_ptr<const graph::GraphModel> g,
    std::shared_ptr<const graph::ModuleTree> tree, std::shared_ptr<graph::CollapseState> state,
    std::shared_ptr<graph::LayoutCache> cache)
{
    GraphLayoutJob job;
    if (!tree)
        tree = std::make_shared<const graph::ModuleTree>(graph::ModuleTree::build(*g));
    if (!state)
        state = std::make_shared<graph::CollapseState>(graph::CollapseState::initial(*tree, kOpeningBudget));
    auto visible = std::make_shared<const graph::VisibleGraph>(graph::VisibleGraph::build(*g, *tree, *state));
    const auto options = layoutOptions();
    graph::LayoutInput input{visible->inputLists(), {}};
    input.widths.reserve(visible->items().size());
    for (const auto& item : visible->items())
        input.widths.push_back(item.kind == graph::VisibleItem::Module ? kModuleWidth : options.nodeWidth);
    std::string key;
    if (cache && visible->items().size() >= kCacheFrom) {
        // Everything the layout is computed from, and nothing else: a key can never name a
        // layout of another graph, another state, other widths or other options.
        key = "layout2:" + graph::LayeredLayout::inputKey(input, options);
        if (auto bytes = cache->load(key))
            if (auto hit = graph::LayeredLayout::decode(*bytes, visible->items().size()))
                job.layout = std::make_shared<graph::LayoutResult>(std::move(*hit));
    }
    if (!job.layout) {
        job.layout = std::make_shared<graph::LayoutResult>(graph::LayeredLayout::compute(input, options));
        if (!key.empty())
            cache->store(key, graph::LayeredLayout::encode(*job.layout));
    }
    job.tree = std::move(tree);
    job.state = std::move(state);
    job.visible = std::move(visible);
    return job;
}

/// computeJobOrThrow, with what went wrong (out of memory, ...) as the job's error: an
/// exception must not leave the pool thread, where it would end the program.
GraphLayoutJob computeJob(std::shared_ptr<const graph::GraphModel> g, std::shared_ptr<const graph::ModuleTree> tree,
    std::shared_ptr<graph::CollapseState> state, std::shared_ptr<graph::LayoutCache> cache)
{
    try {
        return computeJobOrThrow(std::move(g), std::move(tree), std::move(state), std::move(cache));
    } catch (const std::bad_alloc&) {
        GraphLayoutJob job;
        job.error = QObject::tr("out of memory; collapse some modules and try again");
        return job;
    } catch (const std::exception& e) {
        GraphLayoutJob job;
        job.error = QString::fromUtf8(e.what());
        return job;
    }
}

}  // namespace

GraphView::GraphView(QWidget* parent) : QWidget(parent)
{
    m_scene = new QGraphicsScene(this);
    m_scene->setItemIndexMethod(QGraphicsScene::BspTreeIndex);
    m_canvas = new GraphCanvas;
    m_canvas->setScene(m_scene);
    m_minimap = new GraphMinimap(m_canvas);
    connect(m_scene, &QGraphicsScene::selectionChanged, this, &GraphView::onSelectionChanged);
    connect(m_canvas, &GraphCanvas::itemActivated, this, &GraphView::onItemActivated);
    connect(m_canvas, &GraphCanvas::contextMenuRequested, this, &GraphView::onContextMenu);

    auto button = [this](const QString& text, const QString& tip, auto slot) {
        auto* b = new QToolButton;
        b->setText(text);
        b->setToolTip(tip);
        b->setAutoRaise(true);
        connect(b, &QToolButton::clicked, this, slot);
        return b;
    };

    // Row 1: summary, search.
    m_summary = new QLabel;
    m_summary->setTextInteractionFlags(Qt::TextSelectableByMouse);
    m_search = new QLineEdit;
    m_search->setObjectName(QStringLiteral("graphSearch"));
    m_search->setPlaceholderText(tr("Find node: name, op, module or shape"));
    m_search->setClearButtonEnabled(true);
    m_search->setMinimumWidth(200);
    m_searchField = new QComboBox;
    m_searchField->addItem(tr("any"), int(graph::SearchField::Any));
    m_searchField->addItem(tr("name"), int(graph::SearchField::Name));
    m_searchField->addItem(tr("op"), int(graph::SearchField::Op));
    m_searchField->addItem(tr("module"), int(graph::SearchField::Module));
    m_searchField->addItem(tr("shape"), int(graph::SearchField::Shape));
    m_matchLabel = new QLabel;
    m_matchLabel->setMinimumWidth(60);
    auto* debounce = new QTimer(this);
    debounce->setSingleShot(true);
    debounce->setInterval(150);
    connect(m_search, &QLineEdit::textChanged, debounce, qOverload<>(&QTimer::start));
    connect(debounce, &QTimer::timeout, this, [this]() {
        setSearch(m_search->text(), static_cast<graph::SearchField>(m_searchField->currentData().toInt()));
    });
    connect(m_searchField, &QComboBox::currentIndexChanged, debounce, qOverload<>(&QTimer::start));
    connect(m_search, &QLineEdit::returnPressed, this, [this, debounce]() {
        if (debounce->isActive()) {  // Enter typed before the pause: search what is typed now
            debounce->stop();
            setSearch(m_search->text(), static_cast<graph::SearchField>(m_searchField->currentData().toInt()));
        }
        findNext();
    });
    auto* row1 = new QHBoxLayout;
    row1->setContentsMargins(6, 2, 6, 0);
    row1->addWidget(m_summary, 1);
    row1->addWidget(m_search);
    row1->addWidget(m_searchField);
    row1->addWidget(button(tr("▲"), tr("Previous match (Shift+Enter)"), &GraphView::findPrevious));
    row1->addWidget(button(tr("▼"), tr("Next match (Enter)"), &GraphView::findNext));
    row1->addWidget(m_matchLabel);

    // Row 2: lens, depth, collapse, export, zoom.
    m_lensBox = new QComboBox;
    for (auto l : graph::GraphLens::all())
        m_lensBox->addItem(QString::fromStdString(graph::GraphLens::name(l)), int(l));
    m_lensBox->setToolTip(tr("Colour the graph by node kind, op kind, module, fused kernel (inductor), or where "
                             "the dtype or the memory layout changes"));
    connect(m_lensBox, &QComboBox::currentIndexChanged, this,
        [this]() { setLens(static_cast<graph::Lens>(m_lensBox->currentData().toInt())); });
    m_depthBox = new QSpinBox;
    m_depthBox->setRange(0, 20);
    m_depthBox->setValue(m_depth);
    m_depthBox->setToolTip(tr("How many levels of inputs (blue) and users (orange) of the selection to highlight"));
    connect(m_depthBox, &QSpinBox::valueChanged, this, &GraphView::setNeighbourDepth);
    auto* row2 = new QHBoxLayout;
    row2->setContentsMargins(6, 0, 6, 2);
    row2->addWidget(new QLabel(tr("Lens")));
    row2->addWidget(m_lensBox);
    row2->addWidget(new QLabel(tr("Depth")));
    row2->addWidget(m_depthBox);
    m_legend = new QLabel;
    m_legend->setTextFormat(Qt::RichText);
    // A long legend (a kernel per colour) is cut at the edge, never widening the window; its
    // tooltip lists it whole.
    m_legend->setSizePolicy(QSizePolicy::Ignored, QSizePolicy::Preferred);
    m_legend->setMinimumWidth(40);
    row2->addWidget(m_legend, 1);
    row2->addWidget(button(tr("Expand all"), tr("Show every node (slow on very large graphs)"), &GraphView::expandAll));
    row2->addWidget(button(tr("Collapse all"), tr("One box per top-level module"), &GraphView::collapseAll));
    row2->addWidget(button(tr("Export…"), tr("Save the visible graph as SVG or PNG"), &GraphView::exportInteractive));
    row2->addWidget(button(tr("Fit"), tr("Show the whole graph"), &GraphView::zoomToFit));
    row2->addWidget(button(tr("1:1"), tr("Actual size"), &GraphView::zoomReset));
    row2->addWidget(button(tr("−"), tr("Zoom out (wheel down)"), &GraphView::zoomOut));
    row2->addWidget(button(tr("+"), tr("Zoom in (wheel up)"), &GraphView::zoomIn));

    m_modules = new QTreeWidget;
    m_modules->setColumnCount(3);
    m_modules->setHeaderLabels({tr("Module"), tr("Type"), tr("Nodes")});
    m_modules->header()->setStretchLastSection(false);
    m_modules->header()->setSectionResizeMode(0, QHeaderView::Stretch);
    m_modules->setIndentation(12);  // module trees run six or more deep
    m_modules->setToolTip(tr("Tick a module to expand it in the graph; double-click to go to it"));
    m_modules->setUniformRowHeights(true);
    connect(m_modules, &QTreeWidget::itemChanged, this, &GraphView::onModuleTreeChanged);
    connect(m_modules, &QTreeWidget::itemDoubleClicked, this, [this](QTreeWidgetItem* item) {
        const int m = item->data(0, Qt::UserRole).toInt();
        if (m_tree && m > 0) {
            const std::vector<int> nodes = m_tree->nodesIn(m);
            selectNodes(QList<int>(nodes.begin(), nodes.end()), false);
        }
    });

    m_details = new QTextBrowser;
    m_details->setOpenLinks(false);
    m_details->setPlaceholderText(tr("Select a node to see its shape, dtype, stride, device, module and source line."));

    auto* side = new QSplitter(Qt::Vertical);
    side->addWidget(m_modules);
    side->addWidget(m_details);
    side->setSizes({220, 300});
    auto* split = new QSplitter(Qt::Horizontal);
    split->addWidget(m_canvas);
    split->addWidget(side);
    split->setStretchFactor(0, 4);
    split->setStretchFactor(1, 1);
    split->setSizes({700, 280});

    auto* graphPage = new QWidget;
    auto* gl = new QVBoxLayout(graphPage);
    gl->setContentsMargins(0, 0, 0, 0);
    gl->setSpacing(0);
    gl->addLayout(row1);
    gl->addLayout(row2);
    gl->addWidget(split, 1);

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
    m_items.clear();
}

void GraphView::setLayoutCache(std::shared_ptr<graph::LayoutCache> cache)
{
    m_cache = std::move(cache);
}

void GraphView::clear(const QString& message)
{
    ++m_generation;
    m_pending = false;
    m_selecting = true;
    m_scene->clear();
    m_selecting = false;
    m_items.clear();
    m_edges = nullptr;
    m_graph.reset();
    m_tree.reset();
    m_state.reset();
    m_requested.reset();
    m_visible.reset();
    m_layout.reset();
    m_matches.clear();
    m_matchIndex = -1;
    m_matchLabel->clear();
    m_pendingSelection.clear();
    m_syncingTree = true;
    m_modules->clear();
    m_moduleItems.clear();
    m_syncingTree = false;
    m_minimap->setBoxes({}, {});
    m_details->clear();
    m_legend->clear();
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
    const QString search = m_search->text();
    clear(tr("Laying out %n node(s)…", nullptr, static_cast<int>(g->nodes().size())));
    m_graph = std::move(g);
    m_pending = true;
    const quint64 generation = m_generation;
    auto* watcher = new QFutureWatcher<GraphLayoutJob>(this);
    connect(watcher, &QFutureWatcher<GraphLayoutJob>::finished, this, [this, watcher, generation, search]() {
        watcher->deleteLater();
        if (generation != m_generation)
            return;  // a newer request replaced this one meanwhile
        GraphLayoutJob job = watcher->result();
        m_pending = false;
        if (!job.error.isEmpty()) {
            clear(tr("The graph cannot be laid out: %1").arg(job.error));
            return;
        }
        adopt(job, -1, {});
        fillModuleTree();
        if (!search.isEmpty())
            setSearch(search, static_cast<graph::SearchField>(m_searchField->currentData().toInt()));
        applyPendingSelection();
        emit graphShown();
    });
    watcher->setFuture(QtConcurrent::run(computeJob, m_graph, nullptr, nullptr, m_cache));
}

void GraphView::startLayout(std::unique_ptr<graph::CollapseState> state, int anchorNode, QPointF anchorView)
{
    if (!m_graph || !m_tree)
        return;
    ++m_generation;
    m_pending = true;
    // Later requests build on this one, not on what is shown: two quick clicks both count.
    m_requested = state ? std::make_unique<graph::CollapseState>(*state) : nullptr;
    const quint64 generation = m_generation;
    auto* watcher = new QFutureWatcher<GraphLayoutJob>(this);
    connect(watcher, &QFutureWatcher<GraphLayoutJob>::finished, this,
        [this, watcher, generation, anchorNode, anchorView]() {
            watcher->deleteLater();
            if (generation != m_generation)
                return;
            GraphLayoutJob job = watcher->result();
            m_pending = false;
            m_requested.reset();
            if (!job.error.isEmpty()) {
                const QString why = tr("The graph cannot be laid out: %1").arg(job.error);
                if (!m_state)
                    clear(why);  // nothing shown yet
                else
                    m_summary->setText(why);  // what is shown stays, and its state
                m_pendingSelection.clear();
                return;
            }
            adopt(job, anchorNode, anchorView);
            syncModuleTree();
            applyPendingSelection();
            emit graphShown();
        });
    std::shared_ptr<graph::CollapseState> shared(std::move(state));
    watcher->setFuture(QtConcurrent::run(computeJob, m_graph, m_tree, shared, m_cache));
}

void GraphView::relayoutTo(std::unique_ptr<graph::CollapseState> state, int anchorNode)
{
    QPointF view;
    if (anchorNode >= 0)
        if (auto* box = boxOfNode(anchorNode))
            view = m_canvas->mapFromScene(box->rect().center());
    startLayout(std::move(state), anchorNode, view);
}

void GraphView::adopt(GraphLayoutJob& job, int anchorNode, QPointF anchorView)
{
    m_tree = job.tree;
    m_state = std::make_unique<graph::CollapseState>(*job.state);
    m_visible = job.visible;
    m_layout = std::make_unique<graph::LayoutResult>(std::move(*job.layout));
    const bool first = m_stack->currentIndex() == 0;
    buildScene();
    if (first) {
        m_canvas->fitScene(kReadableZoom);
    } else if (anchorNode >= 0 && !anchorView.isNull()) {
        // Keep the expanded (or collapsed) module where the user was looking.
        if (auto* box = boxOfNode(anchorNode)) {
            const QPointF now = m_canvas->mapFromScene(box->rect().center());
            m_canvas->horizontalScrollBar()->setValue(
                m_canvas->horizontalScrollBar()->value() + int(now.x() - anchorView.x()));
            m_canvas->verticalScrollBar()->setValue(
                m_canvas->verticalScrollBar()->value() + int(now.y() - anchorView.y()));
        }
    }
}

void GraphView::buildScene()
{
    const auto& nodes = m_graph->nodes();
    const auto& items = m_visible->items();
    const auto& boxes = m_layout->boxes;
    m_selecting = true;
    m_scene->clear();
    m_edges = nullptr;
    m_scene->setSceneRect(QRectF(-kMargin, -kMargin, m_layout->width + 2 * kMargin, m_layout->height + 2 * kMargin));
    m_items.assign(items.size(), nullptr);
    const QPalette pal = palette();
    const GraphBoxItem::Colors neutral = LensPalette::colors({}, pal);
    for (std::size_t i = 0; i < items.size(); ++i) {
        const auto& b = boxes[i];
        const QRectF rect(b.x, b.y, b.w, b.h);
        GraphBoxItem* box;
        if (items[i].kind == graph::VisibleItem::Node) {
            box = new NodeItem(
                static_cast<int>(i), items[i].id, &nodes[static_cast<std::size_t>(items[i].id)], rect, neutral);
        } else {
            const auto& m = m_tree->module(items[i].id);
            box = new ModuleItem(static_cast<int>(i), items[i].id, QString::fromStdString(m.path),
                QString::fromStdString(m.type), m.total, rect, neutral);
        }
        m_scene->addItem(box);
        m_items[i] = box;
    }
    std::vector<EdgesItem::Edge> edges;
    edges.reserve(m_visible->edges().size());
    for (const auto& e : m_visible->edges()) {
        const auto& fb = boxes[static_cast<std::size_t>(e.from)];
        const auto& tb = boxes[static_cast<std::size_t>(e.to)];
        edges.push_back({e.from, e.to, e.count, QPointF(fb.x + fb.w / 2, fb.y + fb.h), QPointF(tb.x + tb.w / 2, tb.y)});
    }
    // Opaque: the raster engine blends a translucent one-pixel line pixel by pixel, twenty
    // times slower than it fills an opaque one (12 ms against 0.5 ms a frame at 50k nodes).
    m_edges = new EdgesItem(std::move(edges),
        opaqueOver(pal.color(QPalette::PlaceholderText), pal.color(QPalette::Base)), pal.color(QPalette::Highlight));
    m_scene->addItem(m_edges);
    m_selecting = false;
    applyLens();
    updateSummary();
    m_stack->setCurrentIndex(1);
    showDetails({}, {});
}

void GraphView::updateSummary()
{
    if (!m_graph || !m_visible)
        return;
    std::size_t placeholders = 0;
    for (const auto& n : m_graph->nodes())
        placeholders += n.op == "placeholder";
    const int modules = visibleModuleCount();
    QString summary = tr("%1 nodes · %2 edges · %3 inputs · %4 layers")
                          .arg(m_graph->nodes().size())
                          .arg(m_graph->edgeCount())
                          .arg(placeholders)
                          .arg(m_layout->layerCount);
    if (modules > 0)
        summary += tr(" · %n collapsed module(s)", nullptr, modules);
    if (!m_graph->complete())
        summary += tr(" · partial: precompile stopped before the capture finished");
    m_summary->setText(summary);
}

void GraphView::applyLens()
{
    if (!m_graph || !m_visible)
        return;
    const QPalette pal = palette();
    std::map<std::string, int> counts;
    std::vector<GraphMinimap::Box> mini;
    mini.reserve(m_items.size());
    std::unordered_map<std::string, GraphBoxItem::Colors> colorCache;
    for (std::size_t i = 0; i < m_items.size(); ++i) {
        const auto& item = m_visible->items()[i];
        std::string c = item.kind == graph::VisibleItem::Node
            ? graph::GraphLens::category(*m_graph, *m_tree, item.id, m_lens)
            : graph::GraphLens::moduleCategory(*m_graph, *m_tree, item.id, m_lens);
        auto it = colorCache.find(c);
        if (it == colorCache.end())
            it = colorCache.emplace(c, LensPalette::colors(c, pal)).first;
        m_items[i]->setColors(it->second);
        mini.push_back({m_items[i]->rect(), it->second.fill});
        if (!c.empty())
            ++counts[c];
    }
    std::vector<std::pair<std::string, int>> sorted(counts.begin(), counts.end());
    std::stable_sort(sorted.begin(), sorted.end(), [](const auto& a, const auto& b) { return a.second > b.second; });
    m_legendEntries.clear();
    QString html;
    const std::size_t shown = std::min<std::size_t>(sorted.size(), 8);
    for (std::size_t k = 0; k < sorted.size(); ++k) {
        const auto& [name, n] = sorted[k];
        m_legendEntries << QStringLiteral("%1 (%2)").arg(QString::fromStdString(name)).arg(n);
        if (k < shown)
            html += QStringLiteral("<span style='background:%1'>&nbsp;&nbsp;&nbsp;</span>&nbsp;%2&nbsp;&nbsp;")
                        .arg(LensPalette::fill(name, pal).name(),
                            esc(name.size() > 28 ? "…" + name.substr(name.size() - 27) : name));
    }
    if (sorted.size() > shown)
        html += tr("+%1 more").arg(sorted.size() - shown);
    if (sorted.empty() && m_lens == graph::Lens::Kernel)
        html = tr("<i>no kernels: the eager backend generates none, or the lowering named none</i>");
    m_legend->setText(html);
    m_legend->setToolTip(m_legendEntries.join('\n'));
    m_minimap->setBoxes(m_scene->sceneRect(), mini);
}

void GraphView::setLens(graph::Lens lens)
{
    m_lens = lens;
    if (m_lensBox->currentData().toInt() != int(lens))
        m_lensBox->setCurrentIndex(m_lensBox->findData(int(lens)));
    applyLens();
}

QStringList GraphView::legend() const
{
    return m_legendEntries;
}

void GraphView::setNeighbourDepth(int depth)
{
    m_depth = std::max(0, depth);
    if (m_depthBox->value() != m_depth)
        m_depthBox->setValue(m_depth);
    onSelectionChanged();
}

bool GraphView::isExpanded(const QString& modulePath) const
{
    if (!m_tree || !m_state)
        return false;
    const int m = m_tree->find(modulePath.toStdString());
    return m >= 0 && m_state->expanded(m);
}

void GraphView::expandModule(const QString& modulePath)
{
    if (!m_tree || !m_state)
        return;
    const int m = m_tree->find(modulePath.toStdString());
    if (m < 0)
        return;
    m_pendingSelection.clear();
    auto state = std::make_unique<graph::CollapseState>(latestState());
    state->expand(*m_tree, m);
    const auto& mod = m_tree->module(m);
    relayoutTo(std::move(state), mod.total > 0 ? m_tree->nodesIn(m).front() : -1);
}

void GraphView::collapseModule(const QString& modulePath)
{
    if (!m_tree || !m_state)
        return;
    const int m = m_tree->find(modulePath.toStdString());
    if (m <= 0)
        return;
    m_pendingSelection.clear();
    auto state = std::make_unique<graph::CollapseState>(latestState());
    state->collapse(m);
    relayoutTo(std::move(state), m_tree->module(m).total > 0 ? m_tree->nodesIn(m).front() : -1);
}

void GraphView::expandAll()
{
    if (!m_tree)
        return;
    m_pendingSelection.clear();
    relayoutTo(std::make_unique<graph::CollapseState>(graph::CollapseState::allExpanded(*m_tree)), -1);
}

void GraphView::collapseAll()
{
    if (!m_tree)
        return;
    m_pendingSelection.clear();
    relayoutTo(std::make_unique<graph::CollapseState>(*m_tree), -1);
}

int GraphView::visibleItemCount() const
{
    return static_cast<int>(m_items.size());
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
    if (!m_visible || !m_graph || node < 0 || node >= static_cast<int>(m_graph->nodes().size()))
        return nullptr;
    const int item = m_visible->itemOfNode(node);
    return item >= 0 && item < static_cast<int>(m_items.size()) ? m_items[static_cast<std::size_t>(item)] : nullptr;
}

QList<int> GraphView::selectedNodes() const
{
    QList<int> out;
    for (auto* item : m_scene->selectedItems()) {
        if (item->type() == NodeItem::Type) {
            out.append(static_cast<NodeItem*>(item)->node());
        } else if (item->type() == ModuleItem::Type && m_tree) {
            for (int n : m_tree->nodesIn(static_cast<ModuleItem*>(item)->module()))
                out.append(n);
        }
    }
    std::sort(out.begin(), out.end());
    out.erase(std::unique(out.begin(), out.end()), out.end());
    return out;
}

QList<int> GraphView::selectedModules() const
{
    QList<int> out;
    for (auto* item : m_scene->selectedItems())
        if (item->type() == ModuleItem::Type)
            out.append(static_cast<ModuleItem*>(item)->module());
    return out;
}

void GraphView::selectNodes(const QList<int>& nodes, bool reveal)
{
    if (!m_graph)
        return;
    if (m_pending) {
        // A layout is on its way: select once it is shown.
        m_pendingSelection = nodes;
        m_pendingReveal = reveal;
        return;
    }
    if (reveal && m_tree && m_state) {
        auto state = std::make_unique<graph::CollapseState>(latestState());
        bool changed = false;
        for (int n : nodes)
            if (n >= 0 && n < static_cast<int>(m_graph->nodes().size()))
                changed |= state->reveal(*m_tree, n);
        if (changed) {
            m_pendingSelection = nodes;
            m_pendingReveal = reveal;
            relayoutTo(std::move(state), nodes.isEmpty() ? -1 : nodes.front());
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
    if (m_pendingSelection.isEmpty())
        return;
    const QList<int> nodes = m_pendingSelection;
    m_pendingSelection.clear();
    selectNodes(nodes, m_pendingReveal);
}

QPointF GraphView::nodeCenter(int node) const
{
    auto* box = boxOfNode(node);
    return box ? box->rect().center() : QPointF();
}

void GraphView::onSelectionChanged()
{
    if (m_selecting || !m_graph || !m_visible)
        return;
    const QList<int> selected = selectedNodes();
    QList<int> selectedItems;
    for (auto* item : m_scene->selectedItems())
        if (item->type() == NodeItem::Type || item->type() == ModuleItem::Type)
            selectedItems.append(static_cast<GraphBoxItem*>(item)->item());
    for (auto* item : m_items)
        item->setRelation(GraphBoxItem::Relation::None);
    if (!selected.isEmpty() && m_depth > 0) {
        const auto around
            = graph::Neighbourhood::around(*m_graph, std::vector<int>(selected.begin(), selected.end()), m_depth);
        const std::unordered_set<int> mine(selectedItems.begin(), selectedItems.end());
        auto mark = [&](const std::vector<int>& list, GraphBoxItem::Relation r) {
            for (int n : list) {
                const int item = m_visible->itemOfNode(n);
                if (item >= 0 && !mine.count(item))
                    m_items[static_cast<std::size_t>(item)]->setRelation(r);
            }
        };
        mark(around.downstream, GraphBoxItem::Relation::Downstream);
        mark(around.upstream, GraphBoxItem::Relation::Upstream);
    }
    if (m_edges)
        m_edges->setHighlighted(selectedItems);
    showDetails(selected, selectedModules());
    emit nodesSelected(selected);
}

void GraphView::onItemActivated(QGraphicsItem* item)
{
    if (item->type() == ModuleItem::Type)
        expandModule(static_cast<ModuleItem*>(item)->path());
}

void GraphView::onContextMenu(QGraphicsItem* item, const QPoint& globalPos)
{
    if (!m_tree)
        return;
    QMenu menu;
    int module = -1;
    if (item && item->type() == ModuleItem::Type) {
        module = static_cast<ModuleItem*>(item)->module();
        const QString path = static_cast<ModuleItem*>(item)->path();
        menu.addAction(tr("Expand %1").arg(path), this, [this, path]() { expandModule(path); });
        module = m_tree->module(module).parent;
    } else if (item && item->type() == NodeItem::Type) {
        module = m_tree->moduleOf(static_cast<NodeItem*>(item)->node());
    }
    // Collapse the module the item sits in, or any module above it.
    for (int m = module; m > 0; m = m_tree->module(m).parent) {
        const QString path = QString::fromStdString(m_tree->module(m).path);
        menu.addAction(tr("Collapse %1").arg(path), this, [this, path]() { collapseModule(path); });
    }
    if (!menu.isEmpty())
        menu.addSeparator();
    menu.addAction(tr("Expand all"), this, &GraphView::expandAll);
    menu.addAction(tr("Collapse all"), this, &GraphView::collapseAll);
    menu.addAction(tr("Export…"), this, &GraphView::exportInteractive);
    menu.exec(globalPos);
}

void GraphView::fillModuleTree()
{
    m_syncingTree = true;
    m_modules->clear();
    m_moduleItems.assign(m_tree ? m_tree->modules().size() : 0, nullptr);
    if (m_tree) {
        for (std::size_t id = 1; id < m_tree->modules().size(); ++id) {
            const auto& m = m_tree->modules()[id];
            auto* parent = m.parent > 0 ? m_moduleItems[static_cast<std::size_t>(m.parent)] : nullptr;
            auto* it = parent ? new QTreeWidgetItem(parent) : new QTreeWidgetItem(m_modules);
            it->setText(0, QString::fromStdString(m.name));
            it->setToolTip(0, QString::fromStdString(m.path));
            it->setText(1, QString::fromStdString(m.type));
            it->setText(2, QString::number(m.total));
            it->setTextAlignment(2, Qt::AlignRight | Qt::AlignVCenter);
            it->setData(0, Qt::UserRole, static_cast<int>(id));
            it->setFlags(it->flags() | Qt::ItemIsUserCheckable);
            m_moduleItems[id] = it;
        }
    }
    m_syncingTree = false;
    syncModuleTree();
    // Type and count columns fit their text once per graph (not per change: see syncModuleTree).
    m_modules->resizeColumnToContents(1);
    m_modules->resizeColumnToContents(2);
}

void GraphView::syncModuleTree()
{
    if (!m_tree || !m_state)
        return;
    m_syncingTree = true;
    for (std::size_t id = 1; id < m_moduleItems.size(); ++id) {
        auto* it = m_moduleItems[id];
        if (!it)
            continue;
        // Only what changed: every setter repaints and re-measures, and trees run to thousands.
        const bool open = m_state->expanded(static_cast<int>(id));
        const Qt::CheckState check = open ? Qt::Checked : Qt::Unchecked;
        if (it->checkState(0) != check)
            it->setCheckState(0, check);
        const bool unfold = open && it->childCount() > 0;
        if (it->isExpanded() != unfold)
            it->setExpanded(unfold);
    }
    m_syncingTree = false;
}

void GraphView::onModuleTreeChanged(QTreeWidgetItem* item, int column)
{
    if (m_syncingTree || column != 0 || !m_tree)
        return;
    const QString path = QString::fromStdString(m_tree->module(item->data(0, Qt::UserRole).toInt()).path);
    if (item->checkState(0) == Qt::Checked)
        expandModule(path);
    else
        collapseModule(path);
}

void GraphView::setSearch(const QString& text, graph::SearchField field)
{
    if (m_search->text() != text) {
        const QSignalBlocker block(m_search);
        m_search->setText(text);
    }
    const int fi = m_searchField->findData(int(field));
    if (fi >= 0 && fi != m_searchField->currentIndex()) {
        const QSignalBlocker block(m_searchField);
        m_searchField->setCurrentIndex(fi);
    }
    m_matches.clear();
    m_matchIndex = -1;
    if (m_graph && !text.trimmed().isEmpty())
        m_matches = graph::GraphSearch::find(*m_graph, text.toStdString(), field);
    if (text.trimmed().isEmpty())
        m_matchLabel->clear();
    else
        m_matchLabel->setText(m_matches.empty() ? tr("no match") : tr("%n match(es)", nullptr, matchCount()));
}

int GraphView::currentMatchNode() const
{
    return m_matchIndex >= 0 && m_matchIndex < matchCount() ? m_matches[static_cast<std::size_t>(m_matchIndex)] : -1;
}

void GraphView::findNext()
{
    if (m_matches.empty())
        return;
    m_matchIndex = (m_matchIndex + 1) % matchCount();
    showMatch();
}

void GraphView::focusSearch()
{
    m_search->setFocus(Qt::ShortcutFocusReason);
    m_search->selectAll();
}

void GraphView::findPrevious()
{
    if (m_matches.empty())
        return;
    m_matchIndex = (m_matchIndex <= 0 ? matchCount() : m_matchIndex) - 1;
    showMatch();
}

void GraphView::showMatch()
{
    m_matchLabel->setText(tr("%1 / %2").arg(m_matchIndex + 1).arg(matchCount()));
    selectNodes({currentMatchNode()}, /*reveal=*/true);
}

void GraphView::showDetails(const QList<int>& selected, const QList<int>& modules)
{
    if (!m_graph || selected.isEmpty()) {
        m_details->clear();
        return;
    }
    const auto& nodes = m_graph->nodes();
    auto row = [](const QString& key, const QString& value) {
        return "<tr><td style='padding-right:8px'><i>" + key + "</i></td><td>" + value + "</td></tr>";
    };
    if (modules.size() == 1 && m_tree) {
        const auto& m = m_tree->module(modules.front());
        std::map<std::string, int> ops;
        int params = 0, backward = 0;
        for (int i : selected) {
            const auto& n = nodes[static_cast<std::size_t>(i)];
            params += n.kind == "parameter" || n.kind == "buffer";
            backward += n.phase == "backward";
            if (n.kind == "compute")
                ++ops[n.shortTarget()];
        }
        std::vector<std::pair<std::string, int>> top(ops.begin(), ops.end());
        std::stable_sort(top.begin(), top.end(), [](const auto& a, const auto& b) { return a.second > b.second; });
        QStringList opText;
        for (std::size_t k = 0; k < top.size() && k < 8; ++k)
            opText << esc(top[k].first) + " × " + QString::number(top[k].second);
        QString html = "<h3>" + esc(m.path) + "</h3><table>";
        html += row(tr("type"), m.type.empty() ? QStringLiteral("—") : esc(m.type));
        html += row(tr("nodes"), QString::number(m.total));
        html += row(tr("parameters and buffers"), QString::number(params));
        html += row(tr("backward nodes"), QString::number(backward));
        html += row(tr("submodules"), QString::number(m.children.size()));
        html += row(tr("ops"), opText.isEmpty() ? QStringLiteral("—") : opText.join("<br>"));
        m_details->setHtml(html + "</table><p><i>" + tr("Double-click the box to expand it.") + "</i></p>");
        return;
    }
    if (selected.size() > 1) {
        QString html = tr("<b>%1 nodes selected</b><ul>").arg(selected.size());
        for (int k = 0; k < selected.size() && k < 50; ++k)
            html += "<li>" + esc(nodes[static_cast<std::size_t>(selected[k])].name) + " — "
                + esc(nodes[static_cast<std::size_t>(selected[k])].shortTarget()) + "</li>";
        m_details->setHtml(html + "</ul>");
        return;
    }
    const auto& n = nodes[static_cast<std::size_t>(selected.front())];
    auto names = [&](const std::vector<int>& list) {
        QStringList out;
        for (int i : list)
            out << esc(nodes[static_cast<std::size_t>(i)].name);
        return out.isEmpty() ? QStringLiteral("—") : out.join(", ");
    };
    QString html = "<h3>" + esc(n.name) + "</h3><table>";
    html += row(tr("target"), esc(n.target));
    html += row(tr("op"), esc(n.op));
    html += row(tr("kind"), esc(n.kind) + (n.phase.empty() ? QString() : " · " + esc(n.phase)));
    if (!n.qualname.empty())
        html += row(tr("name"), esc(n.qualname));
    html += row(tr("shape"), n.shape.empty() ? QStringLiteral("—") : esc(n.shape));
    html += row(tr("dtype"), n.dtype.empty() ? QStringLiteral("—") : esc(n.dtype));
    html += row(tr("stride"), n.stride.empty() ? QStringLiteral("—") : esc(n.stride));
    html += row(tr("device"), n.device.empty() ? QStringLiteral("—") : esc(n.device));
    html += row(
        tr("module"), n.modulePath.empty() ? QStringLiteral("—") : esc(n.modulePath) + " (" + esc(n.moduleType) + ")");
    html += row(tr("source"), n.sourceLine > 0 ? tr("line %1").arg(n.sourceLine) : QStringLiteral("—"));
    if (!n.kernel.empty())
        html += row(tr("kernel"), esc(n.kernel));
    if (!n.outputRole.empty())
        html += row(tr("output"), esc(n.outputRole));
    html += row(tr("inputs"), names(n.inputs));
    html += row(tr("users"), names(n.users));
    m_details->setHtml(html + "</table>");
}

QString GraphView::detailsText() const
{
    return m_details->toPlainText();
}

QString GraphView::message() const
{
    return m_stack->currentIndex() == 0 ? m_message->text() : QString();
}

bool GraphView::exportSvg(const QString& path, QString* error) const
{
    if (!m_graph || m_items.empty()) {
        if (error)
            *error = tr("there is no graph to export");
        return false;
    }
    return GraphExport::toSvg(
        m_scene, path, tr("Captured graph (%n node(s))", nullptr, int(m_graph->nodes().size())), error);
}

bool GraphView::exportPng(const QString& path, QString* error) const
{
    if (!m_graph || m_items.empty()) {
        if (error)
            *error = tr("there is no graph to export");
        return false;
    }
    return GraphExport::toPng(m_scene, path, 16384, error);
}

void GraphView::exportInteractive()
{
    if (!m_graph)
        return;
    const QString svgFilter = tr("SVG (*.svg)"), pngFilter = tr("PNG (*.png)");
    QString filter = svgFilter;
    QString path = QFileDialog::getSaveFileName(this, tr("Export the visible graph"), QStringLiteral("graph.svg"),
        svgFilter + QStringLiteral(";;") + pngFilter, &filter);
    if (path.isEmpty())
        return;
    // The name's suffix decides; a name without one takes the chosen type's.
    const QString suffix = QFileInfo(path).suffix().toLower();
    bool png = suffix == QLatin1String("png");
    if (suffix != QLatin1String("png") && suffix != QLatin1String("svg")) {
        png = filter == pngFilter;
        path += png ? QStringLiteral(".png") : QStringLiteral(".svg");
    }
    QString error;
    const bool ok = png ? exportPng(path, &error) : exportSvg(path, &error);
    if (!ok)
        QMessageBox::warning(this, tr("Export failed"), error);
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
    m_canvas->fitScene(0.0);
}

void GraphView::zoomReset()
{
    m_canvas->setZoom(1.0);
}

}  // namespace ps::ui
