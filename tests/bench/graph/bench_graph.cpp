// bench_graph: the Graph tab at scale.
//
//   graph.first_paint.N     GraphModel::fromJson of the worker's graph object + setGraph (module
//                           tree, collapse state for the opening budget, layout on a pool thread,
//                           scene) to the canvas's first paint; no layout cache; median of runs.
//   graph.cached_expand_all.N  Expand All with the library's layout cache holding that layout
//                           (reopening a big graph); median of runs, with the cache hits.
//   graph.expand.N          expanding the largest module collapsed at first paint, to the paint
//                           that shows it; median of runs.
//   graph.expand_all.N      Expand All: every node laid out and drawn at once, no cache; once.
//   graph.layout_all.N      LayeredLayout::compute of every node, alone (no UI thread, no scene).
//   graph.pan_frame.N       one synchronous repaint of the canvas after a 24 px scroll, at 100 %
//                           zoom, over 120 frames after the expansion: 95th percentile.
//   graph.pan_overview.N    the same with the whole (expanded) graph in view.
//   graph.pan_all.N         pan_frame with every node expanded (Expand All).
//   graph.pan_all_overview.N  pan_overview with every node expanded.
//   graph.zoom_all.N        one wheel step (x1.15) and its repaint, from the overview to past
//                           full size and back, every node expanded: 95th percentile.
//   graph.busy.*.50k        first paint, expand, pan_all, pan_all_overview and zoom_all of the
//                           50k graph again, with a thread spinning on a second core the while
//                           ([layout-2]: the targets hold with one core busy; --no-busy skips it).
//
//   graph.quality.G.V.crossings / through_boxes / edge_length  LayoutQuality on view V of graph G
//                           as the Graph tab lays it out: pairs of edges that cross, edges through
//                           a box they do not connect, total edge length; dot_* the same figures
//                           for Graphviz dot on the same visible graph (DotLayout). V: "opening"
//                           (CollapseState::initial with GraphView::kOpeningBudget) and "expanded"
//                           (every module expanded). Targets: crossings <= dot's on every view
//                           ([layout-2]: expanded ones too), no edge through a box.
//   graph.quality.G.V.layout_s / dot_layout_s  the layout's time and dot's on the same view;
//                           target on an expanded view: at most dot's. dot runs on views of at most
//                           --dot-max-items items (200 for synthetic graphs), --dot-timeout s each
//                           (240), with nslimit=1 past 300 items (its x positioning does not end
//                           in 15 min on resnet18's 600 otherwise). Synthetic views past 12000
//                           items are not measured.
//
// G: synthetic transformer-shaped training graphs of 1k, 10k and 50k nodes (tests/graph's
// SyntheticGraph), and three real graphs captured by the worker (GraphCapture; each skipped,
// with a line saying why, when the worker cannot run it): "gpt" (transformer_step.py, a 6-layer
// decoder-only stack's training step), "encoder" (encoder_step.py, a 4-layer
// nn.TransformerEncoder's training step) and "resnet18" (resnet18_step.py, its training step).
//
// Layout quality, 2026-12-03 (crossings / edges through boxes; dot: same visible graph, same
// measure; its own mincross count agrees, 9 on the encoder's opening view at commit 4c70492):
//   commit 4c70492 (straight edges), opening view of 157 / 104 / 116 items:
//     gpt 773 / 79 vs dot 64 / 0; encoder 725 / 60 vs 9 / 0; resnet18 237 / 55 vs 9 / 0;
//     expanded (1262 / 858 / 600 items): 16023 / 342, 4914 / 214, 13647 / 260.
//   with routed long edges and phase bands (work in progress), opening view of 77 / 78 / 79:
//     gpt 75 / 0 vs dot 21 / 0; encoder 37 / 0 vs 49 / 0; resnet18 55 / 0 vs 43 / 0;
//     expanded: gpt 12132 / 0 vs 2865 / 0, encoder 2085 / 0 vs 513 / 0, resnet18 2045 / 0 vs
//     4122 / 0 (dot with nslimit=1 there).
//   with many swept starts, weight transposes pulled to their users, the better of two
//   layerings (opening views): gpt 11 / 0 vs dot 21; encoder 13 / 0 vs 49; resnet18 41 / 0
//   vs 43; expanded: gpt 5954 / 0, encoder 1381 / 0, resnet18 2045 / 0.
//   2026-12-07 ([layout-2], under way): docs/design/layout-2.md.
//
// Qt's platform is what QT_QPA_PLATFORM says (offscreen when unset and there is no display).
// Prints a table, the growth with size, the quality table, then one
// `BENCH <name> <value> <unit> <target>` line per figure.
// Options: --runs N, --sizes 1000,10000,50000 (empty: none), --no-real, --no-busy, --quality-only (no speed
// figures), --dot-timeout S, --dot-max-items N, --capture-cache DIR (keep captures between runs).
#include "DotLayout.h"
#include "GraphCapture.h"
#include "QualityBench.h"
#include "SyntheticGraph.h"

#include "graph/GraphModel.h"
#include "graph/LayeredLayout.h"
#include "graph/LayoutCache.h"
#include "graph/ModuleTree.h"
#include "ui/graph/GraphCanvas.h"
#include "ui/graph/GraphView.h"
#include "ui/library/RunStore.h"

#include <QApplication>
#include <QDir>
#include <QElapsedTimer>
#include <QScrollBar>
#include <QTemporaryDir>
#include <QThread>

#include <nlohmann/json.hpp>

#include <algorithm>
#include <atomic>
#include <chrono>
#include <cmath>
#include <cstdio>
#include <cstring>
#include <limits>
#include <optional>
#include <string>
#include <sys/resource.h>
#include <thread>
#include <vector>

namespace {

using Clock = std::chrono::steady_clock;

double seconds(Clock::time_point since)
{
    return std::chrono::duration<double>(Clock::now() - since).count();
}

double median(std::vector<double> v)
{
    std::sort(v.begin(), v.end());
    return v.empty() ? 0 : v[v.size() / 2];
}

double percentile(std::vector<double> v, double p)
{
    std::sort(v.begin(), v.end());
    if (v.empty())
        return 0;
    const auto i = static_cast<std::size_t>(std::ceil(p * static_cast<double>(v.size()))) - 1;
    return v[std::min(i, v.size() - 1)];
}

bool spin(const std::function<bool()>& done, int ms)
{
    QElapsedTimer t;
    t.start();
    while (!done() && t.elapsed() < ms) {
        QCoreApplication::processEvents(QEventLoop::AllEvents, 5);
        QThread::usleep(100);
    }
    return done();
}

using ps::bench::BenchGraph;

/// Passes every call on to the library's cache, counting what came back.
struct CountingCache : ps::graph::LayoutCache {
    explicit CountingCache(std::shared_ptr<ps::graph::LayoutCache> cache) : inner(std::move(cache)) { }
    std::optional<std::string> load(const std::string& key) override
    {
        auto bytes = inner ? inner->load(key) : std::nullopt;
        hits += bytes ? 1 : 0;
        return bytes;
    }
    void store(const std::string& key, const std::string& bytes) override
    {
        if (inner)
            inner->store(key, bytes);
        ++stores;
    }
    std::shared_ptr<ps::graph::LayoutCache> inner;
    std::atomic<int> hits{0}, stores{0};
};

struct Figures {
    std::string label;
    int nodes = 0, modules = 0, shownItems = 0, expandedItems = 0;
    std::string expanded;  ///< the module expanded
    int cacheHits = 0;
    double layoutAll = 0;  ///< LayeredLayout::compute of every node, no UI (median)
    double firstPaint = 0, cachedPaint = 0, expand = 0, expandAll = 0, pan = 0, panOverview = 0;
    double panAll = 0, panAllOverview = 0;  ///< the same, everything expanded
    double zoomAll = 0;                     ///< a wheel step's frame, everything expanded (p95)
    int allItems = 0;
    bool ok = false;
};

/// The view, shown, with the time from a request to the paint that shows its result.
class Harness {
public:
    explicit Harness(ps::ui::GraphView& view) : m_view(view)
    {
        QObject::connect(&view, &ps::ui::GraphView::graphShown, [this]() { m_shown = true; });
        QObject::connect(view.canvas(), &ps::ui::GraphCanvas::painted, [this]() {
            if (m_shown && !m_painted) {
                m_painted = true;
                m_paintedAt = Clock::now();
            }
        });
    }
    void arm() { m_shown = m_painted = false; }
    /// Seconds from `t0` to the first paint after graphShown; -1 on timeout.
    double waitPaint(Clock::time_point t0, int timeoutMs = 120000)
    {
        if (!spin([this]() { return m_painted; }, timeoutMs))
            return -1;
        return std::chrono::duration<double>(m_paintedAt - t0).count();
    }

private:
    ps::ui::GraphView& m_view;
    bool m_shown = false, m_painted = false;
    Clock::time_point m_paintedAt;
};

std::vector<double> panFrames(ps::ui::GraphView& view, int frames)
{
    auto* canvas = view.canvas();
    QScrollBar* h = canvas->horizontalScrollBar();
    QScrollBar* v = canvas->verticalScrollBar();
    std::vector<double> out;
    int dir = 1;
    for (int i = 0; i < frames; ++i) {
        // Down the graph (layers run top to bottom), sideways now and then, back at the ends.
        QScrollBar* bar = (i % 4 == 3) ? h : v;
        if (bar->value() + 24 * dir > bar->maximum() || bar->value() + 24 * dir < bar->minimum())
            dir = -dir;
        const auto t0 = Clock::now();
        bar->setValue(bar->value() + 24 * dir);
        canvas->viewport()->repaint();
        out.push_back(seconds(t0) * 1000.0);
        QCoreApplication::processEvents();
    }
    return out;
}

Figures measure(const BenchGraph& c, int runs, const QString& tempDir)
{
    Figures f;
    f.label = c.label;
    ps::ui::GraphView view;
    view.resize(1400, 900);
    view.show();
    spin([]() { return false; }, 200);
    Harness harness(view);

    auto open = [&]() {
        harness.arm();
        const auto t0 = Clock::now();
        auto model = std::make_shared<ps::graph::GraphModel>(ps::graph::GraphModel::fromJson(c.graph, c.lowering));
        view.setGraph(std::move(model));
        return harness.waitPaint(t0);
    };
    auto reset = [&]() {
        view.clear(QStringLiteral("-"));
        spin([]() { return false; }, 50);
    };

    std::vector<double> first, cached, expand, layoutOnly;
    {
        const auto model = ps::graph::GraphModel::fromJson(c.graph, c.lowering);
        for (int r = 0; r < runs; ++r) {
            const auto t0 = Clock::now();
            const auto layout = ps::graph::LayeredLayout::compute(model);
            layoutOnly.push_back(seconds(t0));
            if (layout.boxes.size() != model.nodes().size())
                return f;
        }
    }
    for (int r = 0; r < runs; ++r) {
        reset();
        const double s = open();
        if (s < 0) {
            std::fprintf(stderr, "bench_graph: %s: the graph was not shown within 120 s\n", c.label.c_str());
            return f;
        }
        first.push_back(s);
        if (qEnvironmentVariableIsSet("PS_BENCH_TRACE"))
            std::printf("first paint %.3f s ends %.6f s\n", s,
                std::chrono::duration<double>(Clock::now().time_since_epoch()).count());
    }
    const auto* tree = view.moduleTree();
    f.nodes = static_cast<int>(view.graph()->nodes().size());
    f.modules = static_cast<int>(tree->modules().size()) - 1;
    f.shownItems = view.visibleItemCount();

    // The largest module collapsed at first paint.
    int largest = -1;
    for (int m = 1; m < static_cast<int>(tree->modules().size()); ++m) {
        const auto& mod = tree->module(m);
        if (!view.isExpanded(QString::fromStdString(mod.path))
            && (largest < 0 || mod.total > tree->module(largest).total))
            largest = m;
    }
    if (largest > 0) {
        f.expanded = tree->module(largest).path + " (" + std::to_string(tree->module(largest).total) + " nodes)";
        const QString path = QString::fromStdString(tree->module(largest).path);
        for (int r = 0; r < runs; ++r) {
            harness.arm();
            const auto t0 = Clock::now();
            view.expandModule(path);
            const double s = harness.waitPaint(t0);
            if (s < 0) {
                std::fprintf(stderr, "bench_graph: %s: the expansion was not shown within 120 s\n", c.label.c_str());
                return f;
            }
            expand.push_back(s);
            f.expandedItems = view.visibleItemCount();
            if (r + 1 < runs) {
                harness.arm();
                view.collapseModule(path);
                harness.waitPaint(Clock::now());
            }
        }
    }

    // Everything expanded: the whole graph laid out at once (no cache), the worst case.
    {
        harness.arm();
        const auto t0 = Clock::now();
        view.expandAll();
        f.expandAll = harness.waitPaint(t0, 600000);
        f.allItems = view.visibleItemCount();
        view.zoomReset();
        view.canvas()->centerOn(view.nodeCenter(f.nodes / 2));
        spin([]() { return false; }, 100);
        f.panAll = percentile(panFrames(view, 120), 0.95);
        view.zoomToFit();
        spin([]() { return false; }, 100);
        f.panAllOverview = percentile(panFrames(view, 120), 0.95);
        // Zooming in from the overview to 200 % and back, as a wheel does: every level of
        // detail is crossed (edges appear, labels appear, curves replace lines).
        {
            std::vector<double> frames;
            view.canvas()->centerOn(view.nodeCenter(f.nodes / 2));
            for (int dir : {1, -1}) {
                for (int i = 0; i < 40; ++i) {
                    const auto t0 = Clock::now();
                    view.canvas()->zoomBy(dir > 0 ? 1.15 : 1 / 1.15);
                    view.canvas()->viewport()->repaint();
                    frames.push_back(seconds(t0) * 1000.0);
                    if (qEnvironmentVariableIsSet("PS_BENCH_TRACE"))
                        std::printf("zoom %.4f frame %.2f ms ends %.6f s (monotonic: perf record -k CLOCK_MONOTONIC)\n",
                            view.canvas()->transform().m11(), frames.back(),
                            std::chrono::duration<double>(Clock::now().time_since_epoch()).count());
                    QCoreApplication::processEvents();
                }
            }
            f.zoomAll = percentile(frames, 0.95);
        }
        harness.arm();
        view.collapseAll();
        harness.waitPaint(Clock::now());
        harness.arm();
        view.expandModule(QString::fromStdString(largest > 0 ? tree->module(largest).path : std::string()));
        harness.waitPaint(Clock::now());
    }

    // Panning, over what the expansion shows.
    view.zoomReset();
    view.canvas()->centerOn(view.nodeCenter(0));
    spin([]() { return false; }, 100);
    f.pan = percentile(panFrames(view, 120), 0.95);
    view.zoomToFit();
    spin([]() { return false; }, 100);
    f.panOverview = percentile(panFrames(view, 120), 0.95);

    // Expand All again with the library's layout cache holding that layout (stored by the
    // first Expand All below, which lays out anew): what reopening a big graph costs.
    {
        ps::ui::RunStore store(tempDir + "/cache-" + QString::fromStdString(c.label) + ".sqlite3");
        auto counting = std::make_shared<CountingCache>(store.layoutCache());
        view.setLayoutCache(counting);
        auto expandAllOnce = [&]() {
            harness.arm();
            view.collapseAll();
            harness.waitPaint(Clock::now());
            harness.arm();
            const auto t0 = Clock::now();
            view.expandAll();
            return harness.waitPaint(t0, 600000);
        };
        expandAllOnce();
        spin([&]() { return counting->stores > 0; }, 10000);  // stored on the pool thread
        for (int r = 0; r < runs; ++r) {
            const double s = expandAllOnce();
            if (s >= 0)
                cached.push_back(s);
        }
        f.cacheHits = counting->hits;
        view.setLayoutCache(nullptr);
    }

    f.firstPaint = median(first);
    f.expand = median(expand);
    f.cachedPaint = median(cached);
    f.layoutAll = median(layoutOnly);
    f.ok = true;
    return f;
}

void defaultPlatform()
{
    if (qEnvironmentVariableIsEmpty("QT_QPA_PLATFORM") && qEnvironmentVariableIsEmpty("DISPLAY")
        && qEnvironmentVariableIsEmpty("WAYLAND_DISPLAY"))
        qputenv("QT_QPA_PLATFORM", "offscreen");
}

std::string sizeLabel(int n)
{
    return n % 1000 == 0 ? std::to_string(n / 1000) + "k" : std::to_string(n);
}

}  // namespace

int main(int argc, char** argv)
{
    int runs = 3;
    bool real = true, speed = true, withBusy = true;
    int dotTimeout = 240, dotMaxItems = 4000;
    QString captureCache;
    std::vector<int> sizes = {1000, 10000, 50000};
    for (int i = 1; i < argc; ++i) {
        if (std::strcmp(argv[i], "--runs") == 0 && i + 1 < argc)
            runs = std::max(1, std::atoi(argv[++i]));
        else if (std::strcmp(argv[i], "--no-busy") == 0)
            withBusy = false;
        else if (std::strcmp(argv[i], "--no-real") == 0)
            real = false;
        else if (std::strcmp(argv[i], "--quality-only") == 0)
            speed = false;
        else if (std::strcmp(argv[i], "--dot-timeout") == 0 && i + 1 < argc)
            dotTimeout = std::max(1, std::atoi(argv[++i]));
        else if (std::strcmp(argv[i], "--dot-max-items") == 0 && i + 1 < argc)
            dotMaxItems = std::max(0, std::atoi(argv[++i]));
        else if (std::strcmp(argv[i], "--capture-cache") == 0 && i + 1 < argc)
            captureCache = QString::fromLocal8Bit(argv[++i]);
        else if (std::strcmp(argv[i], "--sizes") == 0 && i + 1 < argc) {
            sizes.clear();
            for (const auto& s : QString::fromLocal8Bit(argv[++i]).split(','))
                if (s.toInt() > 0)
                    sizes.push_back(s.toInt());
        } else {
            std::fprintf(stderr,
                "usage: bench_graph [--runs N] [--sizes 1000,10000,50000] [--no-real] [--no-busy] [--quality-only]\n"
                "                   [--dot-timeout S] [--dot-max-items N] [--capture-cache DIR]\n");
            return 2;
        }
    }
    defaultPlatform();
    QApplication app(argc, argv);
    QTemporaryDir dir(QDir::tempPath() + "/ps-bench-graph-XXXXXX");

    std::vector<BenchGraph> cases;
    for (int n : sizes)
        cases.push_back({sizeLabel(n), ps::graphtest::transformerGraph(n, 4), nlohmann::json()});
    const std::size_t synthetic = cases.size();
    if (real) {
        const std::pair<const char*, const char*> scripts[]
            = {{"gpt", "transformer_step.py"}, {"encoder", "encoder_step.py"}, {"resnet18", "resnet18_step.py"}};
        for (const auto& [label, script] : scripts) {
            std::printf("capturing tests/bench/graph/%s through the worker...\n", script);
            std::fflush(stdout);
            std::string why;
            const QString path = QStringLiteral(PS_TEST_SOURCE_DIR "/tests/bench/graph/") + script;
            if (auto c = ps::bench::GraphCapture::capture(label, path, captureCache, &why))
                cases.push_back(std::move(*c));
            else
                std::printf("%s is skipped: %s\n", script, why.c_str());
        }
    }
    if (ps::bench::DotLayout::program().empty())
        std::printf("dot is missing (Graphviz is not installed): layout quality is measured for ours only\n");

    std::vector<ps::bench::QualityRow> quality;
    for (std::size_t i = 0; i < cases.size(); ++i) {
        std::printf("measuring the layout quality of %s...\n", cases[i].label.c_str());
        std::fflush(stdout);
        // Synthetic graphs: dot only where it is quick (their opening views), and no view past
        // 10k nodes (the 50k one has tens of millions of crossings: minutes to count).
        const bool synth = i < synthetic;
        const int maxItems = synth ? 12000 : std::numeric_limits<int>::max();
        const int dotItems = synth ? std::min(dotMaxItems, 200) : dotMaxItems;
        for (auto& row : ps::bench::QualityBench::measure(cases[i], maxItems, dotItems, dotTimeout))
            quality.push_back(std::move(row));
    }

    std::vector<Figures> all;
    for (std::size_t i = 0; speed && i < cases.size(); ++i) {
        std::printf("measuring %s...\n", cases[i].label.c_str());
        std::fflush(stdout);
        all.push_back(measure(cases[i], runs, dir.path()));
    }
    // The 50k graph again with one core kept busy beside it (a build, a run): the targets hold
    // there too ([layout-2]).
    std::vector<Figures> busy;
    for (std::size_t i = 0; speed && withBusy && i < cases.size(); ++i) {
        if (cases[i].label != "50k")
            continue;
        std::printf("measuring %s with one core busy...\n", cases[i].label.c_str());
        std::fflush(stdout);
        std::atomic<bool> stop{false};
        std::thread spinner([&stop]() {
            volatile std::uint64_t spins = 0;
            while (!stop.load(std::memory_order_relaxed))
                spins = spins + 1;
        });
        busy.push_back(measure(cases[i], runs, dir.path()));
        stop = true;
        spinner.join();
    }

    if (speed)
        std::printf("\n%-8s %7s %7s %6s %6s %12s %12s %10s %12s %10s %12s  %s\n", "graph", "nodes", "modules", "shown",
            "after", "first paint", "cached all", "expand", "expand all", "pan p95", "overview p95", "expanded");
    for (const auto& f : all) {
        if (!f.ok) {
            std::printf("%-8s failed\n", f.label.c_str());
            continue;
        }
        std::printf("%-8s %7d %7d %6d %6d %10.3f s %10.3f s %8.3f s %10.3f s %7.2f ms %9.2f ms  %s\n", f.label.c_str(),
            f.nodes, f.modules, f.shownItems, f.expandedItems, f.firstPaint, f.cachedPaint, f.expand, f.expandAll,
            f.pan, f.panOverview, f.expanded.c_str());
    }
    // Growth with size: measured ratio against n and n log n between consecutive sizes.
    for (const auto& f : all)
        if (f.ok)
            std::printf("%s: layout of every node alone %.3f s; cached Expand All hit the library %d time(s)\n",
                f.label.c_str(), f.layoutAll, f.cacheHits);
    for (const auto& f : all)
        if (f.ok)
            std::printf("%s: Expand All showed %d boxes; panning them: p95 %.2f ms at 100 %%, %.2f ms in overview;"
                        " zooming: p95 %.2f ms a step\n",
                f.label.c_str(), f.allItems, f.panAll, f.panAllOverview, f.zoomAll);
    if (speed)
        std::printf("\ngrowth of first paint with size (n log n would give the last column)\n");
    for (std::size_t i = 1; i < all.size() && i < sizes.size(); ++i) {
        const auto& a = all[i - 1];
        const auto& b = all[i];
        if (!a.ok || !b.ok || a.firstPaint <= 0)
            continue;
        const double n = static_cast<double>(b.nodes) / a.nodes;
        const double nlogn = n * std::log(static_cast<double>(b.nodes)) / std::log(static_cast<double>(a.nodes));
        std::printf("  %s -> %s: nodes x%.1f, first paint x%.2f, n log n x%.2f\n", a.label.c_str(), b.label.c_str(), n,
            b.firstPaint / a.firstPaint, nlogn);
    }
    ps::bench::QualityBench::printTable(quality);
    rusage usage{};
    getrusage(RUSAGE_SELF, &usage);
    std::printf("peak resident memory of the benchmark process: %.0f MiB\n\n", usage.ru_maxrss / 1024.0);

    for (const auto& f : all) {
        if (!f.ok)
            continue;
        const bool big = f.label == "50k";
        std::printf("BENCH graph.first_paint.%s %.3f s %s\n", f.label.c_str(), f.firstPaint, big ? "<=0.5" : "-");
        std::printf("BENCH graph.cached_expand_all.%s %.3f s -\n", f.label.c_str(), f.cachedPaint);
        std::printf("BENCH graph.expand.%s %.3f s %s\n", f.label.c_str(), f.expand, big ? "<=0.25" : "-");
        std::printf("BENCH graph.layout_all.%s %.3f s -\n", f.label.c_str(), f.layoutAll);
        std::printf("BENCH graph.expand_all.%s %.3f s -\n", f.label.c_str(), f.expandAll);
        std::printf("BENCH graph.pan_frame.%s %.2f ms <=16\n", f.label.c_str(), f.pan);
        std::printf("BENCH graph.pan_overview.%s %.2f ms <=16\n", f.label.c_str(), f.panOverview);
        std::printf("BENCH graph.pan_all.%s %.2f ms <=16\n", f.label.c_str(), f.panAll);
        std::printf("BENCH graph.pan_all_overview.%s %.2f ms <=16\n", f.label.c_str(), f.panAllOverview);
        std::printf("BENCH graph.zoom_all.%s %.2f ms <=16\n", f.label.c_str(), f.zoomAll);
    }
    for (const auto& f : busy) {
        if (!f.ok)
            continue;
        std::printf("BENCH graph.busy.first_paint.%s %.3f s <=0.5\n", f.label.c_str(), f.firstPaint);
        std::printf("BENCH graph.busy.expand.%s %.3f s <=0.25\n", f.label.c_str(), f.expand);
        std::printf("BENCH graph.busy.pan_all.%s %.2f ms <=16\n", f.label.c_str(), f.panAll);
        std::printf("BENCH graph.busy.pan_all_overview.%s %.2f ms <=16\n", f.label.c_str(), f.panAllOverview);
        std::printf("BENCH graph.busy.zoom_all.%s %.2f ms <=16\n", f.label.c_str(), f.zoomAll);
    }
    ps::bench::QualityBench::printBench(quality);
    bool met = ps::bench::QualityBench::met(quality);
    for (const auto& f : all) {
        met = met && f.ok && f.pan <= 16 && f.panOverview <= 16 && f.panAll <= 16 && f.panAllOverview <= 16
            && f.zoomAll <= 16;
        if (f.label == "50k")
            met = met && f.firstPaint <= 2 && f.expand <= 0.5;
    }
    return met ? 0 : 1;
}
