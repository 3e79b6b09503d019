#include "QualityBench.h"

#include "DotLayout.h"

#include "graph/CollapseState.h"
#include "graph/GraphModel.h"
#include "graph/LayeredLayout.h"
#include "graph/ModuleTree.h"
#include "graph/VisibleGraph.h"
#include "ui/graph/GraphView.h"

#include <chrono>
#include <cstdio>

namespace ps::bench {

namespace {

// The Graph tab's width of a collapsed module's box (ui/graph/GraphSession.cpp's kModuleWidth).
constexpr double kModuleWidth = 214;

double since(std::chrono::steady_clock::time_point t0)
{
    return std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count();
}

/// The layout input the Graph tab builds for a visible graph (ui/graph/GraphSession.cpp): its inputs,
/// module boxes wider, a training step's phases in bands.
graph::LayoutInput layoutInputOf(const graph::VisibleGraph& visible, const graph::LayoutOptions& options)
{
    graph::LayoutInput input{visible.inputLists(), {}, visible.bands()};
    input.widths.reserve(visible.items().size());
    for (const auto& item : visible.items())
        input.widths.push_back(item.kind == graph::VisibleItem::Module ? kModuleWidth : options.nodeWidth);
    return input;
}

std::string figure(double v)
{
    char buf[32];
    std::snprintf(buf, sizeof buf, "%.0f", v);
    return buf;
}

}  // namespace

std::vector<QualityRow> QualityBench::measure(const BenchGraph& g, int maxItems, int dotMaxItems, int dotTimeoutS)
{
    const auto model = graph::GraphModel::fromJson(g.graph, g.lowering);
    const auto tree = graph::ModuleTree::build(model);
    const graph::LayoutOptions options;  // the Graph tab's
    std::vector<QualityRow> rows;
    for (const char* view : {"opening", "expanded"}) {
        const bool opening = std::string(view) == "opening";
        const auto state = opening ? graph::CollapseState::initial(tree, ui::GraphView::kOpeningBudget)
                                   : graph::CollapseState::allExpanded(tree);
        const auto visible = graph::VisibleGraph::build(model, tree, state);
        const auto input = layoutInputOf(visible, options);
        QualityRow row;
        row.graph = g.label;
        row.view = view;
        row.items = static_cast<int>(visible.items().size());
        if (row.items > maxItems) {
            rows.push_back(std::move(row));
            continue;
        }
        row.measured = true;
        auto t0 = std::chrono::steady_clock::now();
        const auto layout = graph::LayeredLayout::compute(input, options);
        row.layoutSeconds = since(t0);
        t0 = std::chrono::steady_clock::now();
        row.ours = graph::LayoutQuality::measure(input, layout);
        row.measureSeconds = since(t0);
        row.edges = row.ours.edges;
        if (row.items <= dotMaxItems) {
            std::printf("  %s %s: dot on %d items, %d edges...\n", g.label.c_str(), view, row.items, row.edges);
            std::fflush(stdout);
            row.dotLimited = row.items > kDotFullItems;
            if (auto d = DotLayout::run(input, options, row.dotLimited ? 1 : 0, dotTimeoutS, &row.dotWhy)) {
                row.dotOk = true;
                row.dot = graph::LayoutQuality::measure(d->boxes, d->routes);
                if (row.dot.edges != row.edges)
                    std::printf(
                        "  %s %s: dot drew %d of the %d edges\n", g.label.c_str(), view, row.dot.edges, row.edges);
                row.dotSeconds = d->seconds;
            }
        } else {
            row.dotWhy = "dot not run past " + std::to_string(dotMaxItems) + " items";
        }
        rows.push_back(std::move(row));
    }
    return rows;
}

void QualityBench::printTable(const std::vector<QualityRow>& rows)
{
    std::printf("\nlayout quality: ours (LayeredLayout) vs Graphviz dot on the same visible graph\n"
                "(crossings: pairs of edges with no item in common; adj: pairs of one item's edges crossing away\n"
                "from it; through: edges through a box they do not connect; length: total edge length)\n");
    std::printf("%-9s %-9s %6s %6s | %9s %6s %7s %11s %8s %8s | %9s %6s %7s %11s %8s\n", "graph", "view", "items",
        "edges", "crossings", "adj", "through", "length px", "layout", "measure", "crossings", "adj", "through",
        "length px", "dot");
    for (const auto& r : rows) {
        if (!r.measured) {
            std::printf("%-9s %-9s %6d        not measured (over the size measured)\n", r.graph.c_str(), r.view.c_str(),
                r.items);
            continue;
        }
        std::printf("%-9s %-9s %6d %6d | %9lld %6lld %7d %11.0f %6.3f s %6.3f s | ", r.graph.c_str(), r.view.c_str(),
            r.items, r.edges, static_cast<long long>(r.ours.crossings),
            static_cast<long long>(r.ours.adjacentCrossings), r.ours.throughBoxes, r.ours.edgeLength, r.layoutSeconds,
            r.measureSeconds);
        if (r.dotOk)
            std::printf("%9lld %6lld %7d %11.0f %6.2f s%s\n", static_cast<long long>(r.dot.crossings),
                static_cast<long long>(r.dot.adjacentCrossings), r.dot.throughBoxes, r.dot.edgeLength, r.dotSeconds,
                r.dotLimited ? " (nslimit=1)" : "");
        else
            std::printf("%s\n", r.dotWhy.c_str());
    }
}

void QualityBench::printBench(const std::vector<QualityRow>& rows)
{
    for (const auto& r : rows) {
        if (!r.measured)
            continue;
        const std::string name = "graph.quality." + r.graph + "." + r.view;
        // Every view, opening and expanded, at most dot's crossings; its layout at most dot's time.
        const std::string crossingTarget = r.dotOk ? "<=dot:" + std::to_string(r.dot.crossings) : std::string("-");
        std::printf("BENCH %s.crossings %lld count %s\n", name.c_str(), static_cast<long long>(r.ours.crossings),
            crossingTarget.c_str());
        std::printf("BENCH %s.adjacent_crossings %lld count -\n", name.c_str(),
            static_cast<long long>(r.ours.adjacentCrossings));
        std::printf("BENCH %s.through_boxes %d count ==0\n", name.c_str(), r.ours.throughBoxes);
        std::printf("BENCH %s.edge_length %s px -\n", name.c_str(), figure(r.ours.edgeLength).c_str());
        // [layout-2]: an expanded view's layout at most dot's time (an opening view's is printed).
        char timeTarget[48] = "-";
        if (r.dotOk && r.view == "expanded")
            std::snprintf(timeTarget, sizeof timeTarget, "<=dot:%.4f", r.dotSeconds);
        std::printf("BENCH %s.layout_s %.4f s %s\n", name.c_str(), r.layoutSeconds, timeTarget);
        if (r.dotOk) {
            std::printf("BENCH %s.dot_layout_s %.4f s -\n", name.c_str(), r.dotSeconds);
            std::printf("BENCH %s.dot_crossings %lld count -\n", name.c_str(), static_cast<long long>(r.dot.crossings));
            std::printf("BENCH %s.dot_adjacent_crossings %lld count -\n", name.c_str(),
                static_cast<long long>(r.dot.adjacentCrossings));
            std::printf("BENCH %s.dot_through_boxes %d count -\n", name.c_str(), r.dot.throughBoxes);
            std::printf("BENCH %s.dot_edge_length %s px -\n", name.c_str(), figure(r.dot.edgeLength).c_str());
        }
    }
}

bool QualityBench::met(const std::vector<QualityRow>& rows)
{
    bool ok = true;
    for (const auto& r : rows) {
        ok = ok && r.ours.throughBoxes == 0;
        if (r.dotOk)
            ok = ok && r.ours.crossings <= r.dot.crossings && (r.view != "expanded" || r.layoutSeconds <= r.dotSeconds);
    }
    return ok;
}

}  // namespace ps::bench
