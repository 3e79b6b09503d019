#pragma once

// A run's graphs in Graphviz's dot language: every module a cluster (`subgraph
// "cluster_<path>"`, nested as the modules nest, so that dot draws a box around each), a
// training step's phases as the clusters "forward:" and "backward:" with their copies of the
// modules, as the Graph tab groups them (graph::ModuleTree); each node labelled with its name,
// op, shape and dtype, its source line as the tooltip; every edge of the graph. Several captures:
// one cluster each, their node ids prefixed with the capture's name and "/". Optionally one lens
// painted on the nodes. Every id is quoted
// and escaped (`"` and `\`; control characters and bytes that are not UTF-8 replaced), so that
// any node or module name parses. docs/research/share.md §E.

#include "graph/MeasuredLens.h"

#include <cstddef>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

namespace ps::model {
struct Capture;
}

namespace ps::share {

class DotGraph {
public:
    struct Entry {
        std::string name;  ///< the capture's name in the file, unique among the entries
        const model::Capture* capture = nullptr;
    };
    struct Result {
        std::string text;                   ///< the digraph
        std::size_t nodes = 0;              ///< nodes written (the graphs' nodes)
        std::size_t edges = 0;              ///< edges written (the graphs' edges)
        std::vector<std::string> captures;  ///< the entries that had a graph, in order
        std::size_t painted = 0;            ///< nodes the lens gave a value (0 without a lens)
    };

    /// One digraph named `label` holding the graph of every entry that has one. With `lens`,
    /// each node the lens measured (share::LensValues, as the window measures it) is filled on a
    /// white-to-colour ramp at the lens's own position (logarithmic, graph::MeasuredLens) and its
    /// value is a line of its label; a module's cluster label gives its total (time, memory) or
    /// worst (error).
    static Result write(const std::string& label, const std::vector<Entry>& entries,
        std::optional<graph::MeasuredLens::Measure> lens = std::nullopt);

    /// `text` as a dot quoted string: in double quotes, `"` and `\` escaped, a newline as the
    /// label escape \n, other control characters and bytes that are not UTF-8 as U+FFFD.
    static std::string quoted(std::string_view text);
};

}  // namespace ps::share
