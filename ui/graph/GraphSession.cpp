#include "ui/graph/GraphSession.h"

#include "graph/CollapseState.h"
#include "graph/GraphModel.h"
#include "graph/LayeredLayout.h"
#include "graph/LayoutCache.h"
#include "graph/LayoutCodec.h"
#include "graph/ModuleTree.h"
#include "graph/VisibleGraph.h"
#include "ui/graph/TitleRoom.h"

#include <QFutureWatcher>
#include <QtConcurrent/QtConcurrentRun>

#include <algorithm>
#include <limits>
#include <optional>

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

constexpr std::size_t kCacheFrom = 1500;  // smaller layouts take milliseconds: not worth a cache entry

graph::LayoutOptions layoutOptions()
{
    return {};
}

// Runs on a pool thread: only immutable inputs and its own outputs.
GraphLayoutJob layOut(std::shared_ptr<const graph::ModuleTree> tree, std::shared_ptr<graph::CollapseState> state,
    std::shared_ptr<const graph::VisibleGraph> visible, const std::shared_ptr<graph::LayoutCache>& cache)
{
    GraphLayoutJob job;
    const auto options = layoutOptions();
    const graph::LayoutInput input = visible->layoutInput(options);
    std::string key;
    if (cache && visible->items().size() >= kCacheFrom) {
        // Everything the layout is computed from, and nothing else: a key can never name a
        // layout of another graph, another state, other widths or other options.
        key = "layout2:" + graph::LayoutCodec::inputKey(input, options);
        if (auto bytes = cache->load(key))
            if (auto hit = graph::LayoutCodec::decode(*bytes, visible->items().size()))
                job.layout = std::make_shared<graph::LayoutResult>(std::move(*hit));
    }
    if (!job.layout) {
        job.layout = std::make_shared<graph::LayoutResult>(graph::LayeredLayout::compute(input, options));
        if (!key.empty())
            cache->store(key, graph::LayoutCodec::encode(*job.layout));
    }
    job.tree = std::move(tree);
    job.state = std::move(state);
    job.visible = std::move(visible);
    return job;
}

/// The least height a layered layout of items with these inputs can have: a layer per item of
/// its longest path (items on a cycle left out), without the bands that only add to it.
double minLayoutHeight(const std::vector<std::vector<int>>& inputs, const graph::LayoutOptions& options)
{
    const std::size_t n = inputs.size();
    std::vector<std::vector<int>> users(n);
    std::vector<int> waiting(n, 0), depth(n, 1);
    for (std::size_t v = 0; v < n; ++v)
        for (int u : inputs[v])
            if (u >= 0 && static_cast<std::size_t>(u) < n && static_cast<std::size_t>(u) != v) {
                users[static_cast<std::size_t>(u)].push_back(static_cast<int>(v));
                ++waiting[v];
            }
    std::vector<int> ready;
    for (std::size_t v = 0; v < n; ++v)
        if (waiting[v] == 0)
            ready.push_back(static_cast<int>(v));
    int layers = n > 0 ? 1 : 0;
    while (!ready.empty()) {
        const int u = ready.back();
        ready.pop_back();
        layers = std::max(layers, depth[static_cast<std::size_t>(u)]);
        for (int v : users[static_cast<std::size_t>(u)]) {
            auto& d = depth[static_cast<std::size_t>(v)];
            d = std::max(d, depth[static_cast<std::size_t>(u)] + 1);
            if (--waiting[static_cast<std::size_t>(v)] == 0)
                ready.push_back(v);
        }
    }
    return layers * options.nodeHeight + std::max(0, layers - 1) * options.layerGap;
}

// The opening layout: the module tree, then opening states of fewer and fewer boxes until one
// fitted to the canvas is readable (GraphOpening). A state whose longest path alone is too
// tall to read is passed over without a layout.
GraphLayoutJob openingJob(
    const graph::GraphModel& g, const std::shared_ptr<graph::LayoutCache>& cache, const GraphOpening& opening)
{
    auto tree = std::make_shared<const graph::ModuleTree>(graph::ModuleTree::build(g));
    std::optional<GraphLayoutJob> titled;  // the largest whose titles are readable
    std::optional<GraphLayoutJob> last;    // the smallest tried, laid out
    std::shared_ptr<graph::CollapseState> lastState;
    std::shared_ptr<const graph::VisibleGraph> lastVisible;
    std::size_t lastCount = std::numeric_limits<std::size_t>::max();
    for (int budget = std::max(1, opening.budget);;) {
        auto state = std::make_shared<graph::CollapseState>(graph::CollapseState::initial(*tree, budget));
        auto visible = std::make_shared<const graph::VisibleGraph>(graph::VisibleGraph::build(g, *tree, *state));
        const std::size_t count = visible->items().size();
        if (count >= lastCount)
            break;  // the budget no longer makes the view smaller
        lastCount = count;
        last.reset();
        const double bound = opening.fittedZoom(0, minLayoutHeight(visible->inputLists(), layoutOptions()));
        if (bound >= opening.readableZoom || (!titled && bound >= opening.titleZoom)) {
            GraphLayoutJob job = layOut(tree, state, visible, cache);
            const double zoom = opening.fittedZoom(job.layout->width, job.layout->height);
            if (zoom >= opening.readableZoom) {
                // Readable in full, but a few boxes (x, "model · ResNet", output) teach nothing
                // beside a larger state whose titles read: that one, then.
                if (titled && titled->visible->items().size() > 2 * job.visible->items().size())
                    return std::move(*titled);
                return job;
            }
            if (!titled && zoom >= opening.titleZoom
                && TitleRoom::everyTitleReads(job.layout->boxes, job.layout->width, zoom))
                titled = job;
            last = std::move(job);
        }
        lastState = std::move(state);
        lastVisible = std::move(visible);
        if (budget <= 1)
            break;
        budget = std::max(1, std::min(budget * 2 / 3, static_cast<int>(count) - 1));
    }
    if (titled)
        return std::move(*titled);
    return last ? std::move(*last) : layOut(tree, lastState, lastVisible, cache);
}

GraphLayoutJob computeJobOrThrow(std::shared_ptr<const graph::GraphModel> g,
    std::shared_ptr<const graph::ModuleTree> tree, std::shared_ptr<graph::CollapseState> state,
    std::shared_ptr<graph::LayoutCache> cache, GraphOpening opening)
{
    if (!tree || !state)
        return openingJob(*g, cache, opening);
    auto visible = std::make_shared<const graph::VisibleGraph>(graph::VisibleGraph::build(*g, *tree, *state));
    return layOut(std::move(tree), std::move(state), std::move(visible), cache);
}

/// computeJobOrThrow, with what went wrong (out of memory, ...) as the job's error: an
/// exception must not leave the pool thread, where it would end the program.
GraphLayoutJob computeJob(std::shared_ptr<const graph::GraphModel> g, std::shared_ptr<const graph::ModuleTree> tree,
    std::shared_ptr<graph::CollapseState> state, std::shared_ptr<graph::LayoutCache> cache, GraphOpening opening)
{
    try {
        return computeJobOrThrow(std::move(g), std::move(tree), std::move(state), std::move(cache), opening);
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

double GraphOpening::fittedZoom(double w, double h) const
{
    if (width <= 0 || height <= 0)
        return 1;
    const double sw = w + 2 * margin, sh = h + 2 * margin;
    if (sw <= 0 || sh <= 0)
        return 1;
    return std::min(1.0, std::min(width / sw, height / sh) * 0.95);
}

GraphSession::GraphSession(QObject* parent) : QObject(parent)
{ }

GraphSession::~GraphSession() = default;

void GraphSession::setLayoutCache(std::shared_ptr<graph::LayoutCache> cache)
{
    m_cache = std::move(cache);
}

void GraphSession::clear()
{
    ++m_generation;
    m_pending = false;
    m_graph.reset();
    m_tree.reset();
    m_state.reset();
    m_requested.reset();
    m_visible.reset();
    m_layout.reset();
    m_pendingSelection.clear();
}

void GraphSession::open(std::shared_ptr<const graph::GraphModel> graph, const GraphOpening& opening)
{
    clear();
    m_graph = std::move(graph);
    if (m_graph)
        launch(nullptr, opening);
}

const graph::CollapseState& GraphSession::latestState() const
{
    return m_requested ? *m_requested : *m_state;
}

void GraphSession::request(std::unique_ptr<graph::CollapseState> state)
{
    if (!m_graph || !m_tree || !state)
        return;
    // Later requests build on this one, not on what is shown.
    m_requested = std::make_unique<graph::CollapseState>(*state);
    launch(std::shared_ptr<graph::CollapseState>(std::move(state)), {});
}

void GraphSession::launch(std::shared_ptr<graph::CollapseState> state, const GraphOpening& opening)
{
    const quint64 generation = ++m_generation;
    m_pending = true;
    auto* watcher = new QFutureWatcher<GraphLayoutJob>(this);
    connect(watcher, &QFutureWatcher<GraphLayoutJob>::finished, this, [this, watcher, generation]() {
        watcher->deleteLater();
        if (generation != m_generation)
            return;  // a newer request replaced this one meanwhile
        GraphLayoutJob job = watcher->result();
        finish(job);
    });
    watcher->setFuture(QtConcurrent::run(computeJob, m_graph, m_tree, std::move(state), m_cache, opening));
}

void GraphSession::finish(GraphLayoutJob& job)
{
    m_pending = false;
    m_requested.reset();
    if (!job.error.isEmpty()) {
        m_pendingSelection.clear();
        emit layoutFailed(job.error);
        return;
    }
    const bool opened = !m_state;
    m_tree = job.tree;
    m_state = std::make_unique<graph::CollapseState>(*job.state);
    m_visible = job.visible;
    m_layout = std::make_unique<graph::LayoutResult>(std::move(*job.layout));
    emit layoutShown(opened);
}

void GraphSession::expand(int module)
{
    if (!m_tree || !m_state || module < 0 || module >= static_cast<int>(m_tree->modules().size()))
        return;
    m_pendingSelection.clear();
    auto state = std::make_unique<graph::CollapseState>(latestState());
    state->expand(*m_tree, module);
    request(std::move(state));
}

void GraphSession::collapse(int module)
{
    if (!m_tree || !m_state || module <= 0 || module >= static_cast<int>(m_tree->modules().size()))
        return;
    m_pendingSelection.clear();
    auto state = std::make_unique<graph::CollapseState>(latestState());
    state->collapse(module);
    request(std::move(state));
}

void GraphSession::expandAll()
{
    if (!m_tree || !m_state)
        return;
    m_pendingSelection.clear();
    request(std::make_unique<graph::CollapseState>(graph::CollapseState::allExpanded(*m_tree)));
}

void GraphSession::collapseAll()
{
    if (!m_tree || !m_state)
        return;
    m_pendingSelection.clear();
    request(std::make_unique<graph::CollapseState>(*m_tree));
}

bool GraphSession::reveal(const QList<int>& nodes, bool scrollTo)
{
    if (!m_graph || !m_tree || !m_state)
        return false;
    auto state = std::make_unique<graph::CollapseState>(latestState());
    bool changed = false;
    for (int n : nodes)
        if (n >= 0 && n < static_cast<int>(m_graph->nodes().size()))
            changed |= state->reveal(*m_tree, n);
    if (!changed)
        return false;
    request(std::move(state));
    selectWhenShown(nodes, scrollTo);
    return true;
}

void GraphSession::selectWhenShown(const QList<int>& nodes, bool scrollTo)
{
    m_pendingSelection = nodes;
    m_pendingScroll = scrollTo;
}

QList<int> GraphSession::takePendingSelection(bool* scrollTo)
{
    if (scrollTo)
        *scrollTo = m_pendingScroll;
    return std::exchange(m_pendingSelection, {});
}

}  // namespace ps::ui
