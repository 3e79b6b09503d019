#include "LibraryCommands.h"

#include "RemoteCommands.h"

#include "commands/LibraryCommand.h"
#include "library/core/DefaultLibraryPath.h"

#include <CLI/CLI.hpp>

#include <memory>

using ps::commands::LibraryCommand;
using ps::commands::LibraryOptions;

void addLibraryCommands(
    CLI::App& app, std::string* libraryPath, int* exitCode, const std::string* pythonEnv, const HostOptions* hosts)
{
    auto options = std::make_shared<LibraryOptions>();
    CLI::App* library = app.add_subcommand("library", "Browse, export, import and check the artifact library");
    library->require_subcommand(1);

    // Each subcommand body gets the library path as it stands after parsing.
    const auto bind = [=](CLI::App* sub, LibraryCommand::Action action) {
        sub->callback([=] {
            const std::string path
                = libraryPath && !libraryPath->empty() ? *libraryPath : ps::library::defaultLibraryPath();
            *exitCode = LibraryCommand::run(action, path, *options);
        });
    };
    const auto addJson = [=](CLI::App* sub) { sub->add_flag("--json", options->json, "Print JSON"); };
    const auto addId
        = [=](CLI::App* sub) { sub->add_option("ID", options->id, "The run's id (see `library ls`)")->required(); };

    CLI::App* ls = library->add_subcommand("ls", "List runs, newest first");
    addJson(ls);
    ls->add_option("--search", options->search, "Only runs whose name, script or messages contain these words");
    ls->add_option("--status", options->status,
        "Only runs of this status (ok, mismatch, violation, error, timeout, worker_died, protocol_error)");
    ls->add_option("--backend", options->backend, "Only runs with a capture on this backend");
    bind(ls, LibraryCommand::Action::List);

    CLI::App* show = library->add_subcommand("show", "Show one run's report; checks its blobs");
    addId(show);
    addJson(show);
    show->add_option("--node", options->node,
        "Print this graph node (its op, shape and the stack that made it, innermost first) instead");
    bind(show, LibraryCommand::Action::Show);

    CLI::App* exp = library->add_subcommand("export", "Write NAME.py, NAME.cache and NAME.json per capture");
    addId(exp);
    exp->add_option("DIR", options->dir, "Folder to write into (created if needed)")->required();
    exp->add_flag("--with-loader", options->withLoader,
        "Also write load_NAME.py per pair: loads it with plain torch, first checking that this machine's torch, "
        "Python, Triton, CPU instruction set and GPUs are those it was made with, and says in one line what differs");
    addJson(exp);
    bind(exp, LibraryCommand::Action::Export);

    CLI::App* imp = library->add_subcommand("import", "Import NAME.py with the NAME.cache and NAME.json beside it");
    imp->add_option("PATH", options->path, "The NAME.py file")->required();
    addJson(imp);
    bind(imp, LibraryCommand::Action::Import);

    CLI::App* trust = library->add_subcommand("trust", "Mark an imported run as trusted");
    addId(trust);
    bind(trust, LibraryCommand::Action::Trust);

    CLI::App* verify = library->add_subcommand("verify", "Check every blob's hash and the database's integrity");
    addJson(verify);
    bind(verify, LibraryCommand::Action::Verify);

    CLI::App* rm = library->add_subcommand("rm", "Remove a run (its blobs go at the next gc)");
    addId(rm);
    bind(rm, LibraryCommand::Action::Remove);

    CLI::App* diff = library->add_subcommand(
        "diff", "Compare two runs and say why they differ (exit 0 equivalent artifacts, 1 they differ)");
    diff->add_option("A", options->id, "The first run's id")->required();
    diff->add_option("B", options->other, "The second run's id")->required();
    diff->add_option("--html", options->html,
        "Also write the comparison as one HTML page to this file (exit 2 if it cannot be written)");
    addJson(diff);
    bind(diff, LibraryCommand::Action::Diff);

    CLI::App* push = library->add_subcommand(
        "push", "Send the runs kept here while the team library was away (exit 2 while it still is)");
    push->add_option("--to", options->to, "The team library to send them to (default: the one each was meant for)");
    addJson(push);
    bind(push, LibraryCommand::Action::Push);

    CLI::App* copy = library->add_subcommand(
        "copy", "Copy runs between two libraries (files or postgresql://...), with their provenance; never twice");
    copy->add_option("FROM", options->from, "The library to copy from")->required();
    copy->add_option("TO", options->to, "The library to copy into (created if needed)")->required();
    copy->add_option("--run", options->runIds, "Only this run (repeatable)");
    addJson(copy);
    bind(copy, LibraryCommand::Action::Copy);

    CLI::App* trace = library->add_subcommand(
        "trace", "Write a run's compile-time events as a Chrome trace (open it in Perfetto or chrome://tracing)");
    addId(trace);
    trace->add_option("FILE", options->path, "The JSON file to write")->required();
    addJson(trace);
    bind(trace, LibraryCommand::Action::Trace);

    CLI::App* graph = library->add_subcommand("export-graph",
        "Write a run's captured graphs for Model Explorer (graph JSON, and each lens the run measured as a node "
        "data file beside it) or Graphviz (dot); exit 1 no such run or capture, or no graph; 2 a file cannot be "
        "written");
    addId(graph);
    graph
        ->add_option("FILE", options->path,
            "The file to write. Model Explorer: the lenses go beside it as NAME.time.nodedata.json, "
            "NAME.error.nodedata.json and NAME.memory.nodedata.json (NAME: FILE without .json), each written "
            "file listed on stdout; open them with `model-explorer FILE --node_data_paths=A,B,...`")
        ->required();
    graph
        ->add_option("--format", options->format,
            "model-explorer (one graph per capture and phase, modules as namespaces) or dot (modules as "
            "clusters); default: dot for a FILE ending in .dot or .gv, else model-explorer")
        ->check(CLI::IsMember({"model-explorer", "dot"}));
    graph->add_option("--capture", options->captures, "Only this capture, by name or index (repeatable; default: all)")
        ->allow_extra_args(false);
    graph->add_flag("--no-node-data", options->noNodeData, "Model Explorer: write the graph only, no lens files");
    graph
        ->add_option("--lens", options->lens,
            "dot: paint this lens on the nodes (white to colour, its value in the label, modules' totals on their "
            "boxes)")
        ->check(CLI::IsMember({"time", "error", "memory"}));
    addJson(graph);
    bind(graph, LibraryCommand::Action::ExportGraph);

    CLI::App* html = library->add_subcommand(
        "html", "Write a run's report as one self-contained HTML page (opens in a browser, fetches nothing)");
    addId(html);
    html->add_option("FILE", options->path, "The HTML file to write")->required();
    addJson(html);
    bind(html, LibraryCommand::Action::Html);

    CLI::App* check = library->add_subcommand("check",
        "Will it load there? Load a run's pair in each environment as a server would (a fresh process, plain "
        "torch.compiler.precompile, an empty Inductor cache), call it once and compare with eager there; exit 0 it "
        "runs everywhere, 1 refused or other numbers somewhere (or the run is not trusted here), 2 not checked");
    addId(check);
    check->add_option("--python-env", options->pythonEnvs,
        "A Python environment (a venv or conda folder) to check in; repeat for several (default: the studio's own)");
    check->add_option("--on", options->hosts,
        "A host to check on over ssh, as `run --host` reaches it: HOST (the studio's environment there) or "
        "HOST=ENV (a Python environment there); --remote-studio and --remote-dir apply; repeat for several");
    check->add_flag("--cold-start", options->coldStart,
        "Also measure the pair's start-up at each target in fresh processes (eager, torch.compile with an empty and "
        "a warm Inductor cache, the pair with and without its cache), as `run --cold-start` does where it ran");
    check->add_option("--timeout", options->timeoutSeconds, "Seconds before a target's worker is killed")
        ->capture_default_str();
    addJson(check);
    check->callback([=] {
        // The global --python-env (before the subcommand) names the one environment when check names none.
        if (options->pythonEnvs.empty() && pythonEnv && !pythonEnv->empty())
            options->pythonEnvs.push_back(*pythonEnv);
        if (hosts) {
            options->remoteStudio = hosts->remoteStudio;
            options->remoteDir = hosts->remoteDir;
        }
        const std::string path
            = libraryPath && !libraryPath->empty() ? *libraryPath : ps::library::defaultLibraryPath();
        *exitCode = LibraryCommand::run(LibraryCommand::Action::Check, path, *options);
    });

    CLI::App* repro = library->add_subcommand("repro",
        "From where a run's drift starts to the smallest script that shows it in plain torch: runs the run's script "
        "again (it must be trusted), cuts its captured graph from the drift start, shrinks the cut while the compiled "
        "error stays outside eager's band, and writes DIR/repro.py + DIR/inputs.pt, confirmed in a fresh Python "
        "process; exit 0 written, 1 none can be (it says why), 2 the run could not be made again");
    addId(repro);
    repro->add_option("DIR", options->dir, "Folder to write repro.py and inputs.pt into (created if needed)")
        ->required();
    repro->add_option("--node", options->node, "Start the cut at this graph node (default: the first drift start)");
    repro->add_option("--capture", options->captures,
        "The capture, by name or index (default: the first whose verdict is numerics drift or wrong)");
    repro->add_option("--budget", options->budgetSeconds, "Seconds the shrink may take")
        ->capture_default_str()
        ->check(CLI::Range(1.0, 86400.0));
    repro->add_option("--timeout", options->timeoutSeconds, "Seconds the run of the script may take")
        ->capture_default_str();
    addJson(repro);
    repro->callback([=] {
        if (pythonEnv && !pythonEnv->empty())
            options->pythonEnvs.assign(1, *pythonEnv);
        const std::string path
            = libraryPath && !libraryPath->empty() ? *libraryPath : ps::library::defaultLibraryPath();
        *exitCode = LibraryCommand::run(LibraryCommand::Action::Repro, path, *options);
    });

    CLI::App* gc = library->add_subcommand("gc", "Delete blobs no run refers to");
    addJson(gc);
    bind(gc, LibraryCommand::Action::Gc);
}
