#pragma once

#include <cstdint>
#include <ostream>
#include <string>
#include <vector>

namespace ps::library {
class ArtifactLibrary;
}

namespace ps::commands {

/// `library export-graph RUN FILE [--format model-explorer|dot] [--capture C]... [--no-node-data]`:
/// a stored run's captured graphs for the viewers people already use (engine/share:
/// ModelExplorerGraph, DotGraph). Model Explorer: FILE is the graph collection, one graph per
/// capture and phase, and each lens the run measured (time, error, memory) a node data file
/// beside it, FILE's name without ".json" + ".<lens>.nodedata.json". Dot: one digraph, `--lens`
/// painting one lens's values on it.
class GraphExport {
public:
    struct Options {
        std::int64_t run = 0;
        std::string file;
        std::string format;  ///< "model-explorer", "dot", or "" (by FILE's extension: .dot and .gv are dot)
        std::vector<std::string> captures;  ///< names or indices; empty: every capture
        bool nodeData = true;
        std::string lens;  ///< dot: paint this lens (time, error, memory) on the nodes; "" none
        bool json = false;
    };

    /// Writes the files and lists them on `out` (one a line, or with json one object); the exit
    /// code: 0 written; 1 the run has no such capture, no captured graph or not the lens asked for
    /// (a missing run is the library's NotFound, thrown); 2 a file cannot be written, or --lens
    /// with Model Explorer. Messages go to `err`.
    static int run(const library::ArtifactLibrary& library, const std::string& libraryPath, const Options& options,
        std::ostream& out, std::ostream& err);

    /// Where a lens's node data goes beside FILE: "out/g.json" -> "out/g.time.nodedata.json".
    static std::string nodeDataPath(const std::string& file, const std::string& lens);
};

}  // namespace ps::commands
