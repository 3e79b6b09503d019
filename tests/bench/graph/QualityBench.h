#pragma once

// The layout's measured quality on the views a user sees: the opening view (modules expanded
// within the Graph tab's opening budget) and the fully expanded one, each laid out as the Graph
// tab lays it out, beside Graphviz dot's drawing of the same visible graph, both measured by
// LayoutQuality: edge crossings, edges through boxes they do not connect, total edge length.

#include "GraphCapture.h"

#include "graph/LayoutQuality.h"

#include <string>
#include <vector>

namespace ps::bench {

struct QualityRow {
    std::string graph;  ///< the case's label
    std::string view;   ///< "opening" | "expanded"
    int items = 0, edges = 0;
    bool measured = false;  ///< false: past the size measured (only items is set)
    graph::LayoutQualityFigures ours;
    double layoutSeconds = 0;   ///< LayeredLayout::compute
    double measureSeconds = 0;  ///< LayoutQuality::measure of ours
    bool dotOk = false;
    std::string dotWhy;  ///< why there are no dot figures
    graph::LayoutQualityFigures dot;
    double dotSeconds = 0;
    bool dotLimited = false;  ///< dot ran with nslimit (QualityBench::kDotFullItems)
};

class QualityBench {
public:
    /// Past this many items dot runs with nslimit=1: its x positioning (network simplex) does
    /// not finish in 15 minutes on resnet18's 600 without it; its crossing minimisation runs
    /// in full either way.
    static constexpr int kDotFullItems = 300;

    /// Both views of `g`, each when it has at most `maxItems` items; dot is run on each view of
    /// at most `dotMaxItems` items (killed after `dotTimeoutS`).
    static std::vector<QualityRow> measure(const BenchGraph& g, int maxItems, int dotMaxItems, int dotTimeoutS);
    static void printTable(const std::vector<QualityRow>& rows);
    /// One BENCH line per figure. Targets: no more crossings than dot on the opening view, no
    /// edge through an unrelated box on any view.
    static void printBench(const std::vector<QualityRow>& rows);
    static bool met(const std::vector<QualityRow>& rows);
};

}  // namespace ps::bench
