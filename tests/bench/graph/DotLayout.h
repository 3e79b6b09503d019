#pragma once

// Graphviz dot on the graph our layout draws, for the bench's comparison: the same items with
// their sizes (points = our pixels, 72 to the inch), the same edges, nodesep and ranksep from
// our gaps, splines. Run as the `dot` program (-Tplain), read back as boxes and polylines (each
// cubic Bezier piece sampled), so that LayoutQuality measures both drawings with one code.
// Bench code, not the product's: the studio never runs Graphviz.

#include "graph/LayeredLayout.h"

#include <optional>
#include <string>
#include <vector>

namespace ps::bench {

struct DotDrawing {
    std::vector<graph::NodeBox> boxes;  ///< index-aligned with the input's items, y down
    std::vector<graph::EdgeRoute> routes;
    double seconds = 0;  ///< dot's run, writing and reading included
};

class DotLayout {
public:
    /// Points per cubic Bezier piece of an edge: at least kSamples, and more on a long piece, so
    /// that no chord is longer than kSampleStep px.
    static constexpr int kSamples = 8;
    static constexpr double kSampleStep = 4;

    /// Where `dot` is, or "" when it is not on PATH.
    static std::string program();
    /// The input as a DOT digraph (items n0, n1, ...; an edge from each input to its reader).
    /// `nslimit` > 0 caps dot's network simplex passes (iterations per node): its x positioning
    /// runs for over 15 minutes on a 600-node training graph without it.
    static std::string toDot(const graph::LayoutInput& input, const graph::LayoutOptions& options, double nslimit = 0);
    /// dot -Tplain's output of toDot(input) for `items` items; nullopt, with why, when it is not.
    static std::optional<DotDrawing> readPlain(const std::string& plain, std::size_t items, std::string* why);
    /// Runs dot on the input; nullopt, with why ("dot did not finish in N s", ...), when it fails.
    static std::optional<DotDrawing> run(const graph::LayoutInput& input, const graph::LayoutOptions& options,
        double nslimit, int timeoutS, std::string* why);
};

}  // namespace ps::bench
