#pragma once

#include <cstdint>
#include <string>
#include <vector>

namespace ps::commands {

/// What the `library` subcommands were given (app/ parses the command line into this).
struct LibraryOptions {
    bool json = false;
    std::string search;
    std::string status;
    std::string backend;
    std::int64_t id = 0;
    std::int64_t other = 0;  ///< diff's second run
    std::string node;        ///< show --node: print this graph node and its stack instead
    std::string dir;
    std::string path;                     ///< import's NAME.py; trace's and html's output file
    std::string html;                     ///< diff --html: also write the comparison as an HTML page
    std::string from;                     ///< copy's source library
    std::string to;                       ///< copy's target; push's, overriding where each run was meant for
    std::vector<std::int64_t> runIds;     ///< copy only these; empty: all
    std::string format;                   ///< export-graph: model-explorer | dot ("" by FILE's extension)
    std::vector<std::string> captures;    ///< export-graph: these captures (names or indices); empty: all
    bool noNodeData = false;              ///< export-graph: no node data files for the lenses
    std::string lens;                     ///< export-graph --format dot: paint this lens
    std::vector<std::string> pythonEnvs;  ///< check: the environments to load the pair in; empty: the studio's
    std::vector<std::string> hosts;       ///< check --on: hosts to load it on, over ssh (the studio's there)
    bool coldStart = false;               ///< check --cold-start: the pair's start-up ledger at each target
    std::string remoteStudio;             ///< check --on: the studio's folder there (--remote-studio)
    std::string remoteDir;                ///< check --on: the project's folder there (--remote-dir)
    double timeoutSeconds = 600;          ///< check: each target's worker is killed past this
    bool withLoader = false;              ///< export: also write load_NAME.py
    double budgetSeconds = 120;           ///< repro: how long the shrink may take
};

/// The `library` subcommands (ls, show, export, import, trust, verify, rm, diff, gc, trace, export-graph, check,
/// repro): each
/// opens the library, does its work and prints for a person (every text from the library or a file terminal-safe) or,
/// with --json, exact JSON. Results go to stdout, errors to stderr as one line that names the library file. Commands
/// that only read open it read-only and never take its write lock. The calling thread.
class LibraryCommand {
public:
    enum class Action {
        List,
        Show,
        Export,
        Import,
        Trust,
        Verify,
        Remove,
        Diff,
        Gc,
        Push,
        Copy,
        Trace,
        ExportGraph,
        Html,
        Check,
        Repro
    };

    /// The exit code: 0 all is well; 1 damage was found, a run does not exist, an import was
    /// refused, or (diff) the runs differ; 2 the library cannot be used, the input is bad, (diff) a
    /// run is not there, or (html, diff --html) the page cannot be written. Never throws.
    static int run(Action action, const std::string& libraryPath, const LibraryOptions& options);
};

}  // namespace ps::commands
