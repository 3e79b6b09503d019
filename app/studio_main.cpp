// precompile-studio: the front end. Headless subcommands for terminals and CI; the window
// is the ui layer, opened with no subcommand or with `open`.
#include "LessonsCommands.h"
#include "commands/RunCommand.h"
#ifdef PS_HAVE_UI
#include "GuiLauncher.h"
#endif
#include "LibraryCommands.h"
#include "RemoteCommands.h"
#include "SetupCommands.h"
#include "library/core/ArtifactLibrary.h"
#include "protocol/Protocol.h"

#include <CLI/CLI.hpp>

#include <csignal>
#include <iostream>

namespace {
int studioMain(int argc, char** argv);
}

int main(int argc, char** argv)
{
    try {
        return studioMain(argc, argv);
    } catch (const std::exception& e) {
        // No exception leaves main: a bug of ours is said in one line, with the exit code of a
        // run that could not be done.
        std::cerr << "precompile-studio: internal error: " << e.what() << "\n";
        return 2;
    }
}

namespace {
int studioMain(int argc, char** argv)
{
    std::signal(SIGPIPE, SIG_IGN);  // a dead worker's channel must not kill the front end

    CLI::App app{"Precompile Studio: a workbench for torch.compiler.precompile"};
    app.set_version_flag("--version", std::string("precompile-studio ") + ps::protocol::kStudioVersion);
    // Global options (--library, --python-env) may come before or after the subcommand: every
    // subcommand, made below, inherits this and hands options it does not know to its parent.
    app.fallthrough();
    app.footer("Exit codes of run (docs/design/exit-codes.md):\n"
               "  0  every capture ok, verification matched (numerics drift included: said, not\n"
               "     failed), runtime checks passed, the run stored\n"
               "  1  a violation (capture, load, call, runtime or the script itself), a mismatch\n"
               "     against eager, or a capture error\n"
               "  2  the script could not run: usage, no such file, an error before any capture,\n"
               "     a timeout, a dead worker, a broken channel; or a requested export failed\n"
               "  3  the run was ok but could not be stored (the report says why)\n"
               "With several scripts, each its own run, the exit code is the worst of theirs: 2, then 1,\n"
               "then 3, then 0; a --junit file or an --html page that cannot be written is 2");
#ifdef PS_HAVE_UI
    app.require_subcommand(0, 1);
    std::string openFile;
    auto* openCmd = app.add_subcommand("open", "open the window, with a script or an exported NAME.py");
    openCmd->add_option("file", openFile, "a Python script, or an exported NAME.py");
#else
    app.require_subcommand(1);
#endif

    std::string libraryPath;
    std::string pythonEnv;
    app.add_option("--library", libraryPath,
        "the artifact library: a file, or a team library's PostgreSQL connection string (postgresql://...); "
        "the window uses it for this launch only; without it, the last library opened from the window");
    app.add_option("--python-env", pythonEnv,
        "your own Python environment (a venv folder) whose packages the script needs; the worker keeps the "
        "studio's Python and torch (a torch in it must be the same build)");
    HostOptions hosts;
    addHostOptions(app, &hosts);

    ps::commands::RunCommandOptions run;
    double timeout = 600;
    std::string backend, tracer, exportDir, traceFile, junitFile;
    bool noVerify = false, noStore = false, deepVerify = false, profile = false, coldStart = false;
    auto* runCmd = app.add_subcommand("run", "run precompile on a script and report what happened");
    runCmd
        ->add_option("scripts", run.scripts,
            "Python scripts that define fn and example_inputs; several are each their own run, one after another")
        ->required();
    runCmd->add_option("--backend", backend, "inductor or eager (overrides the script's `backend`)");
    runCmd->add_option("--tracer", tracer, "make_fx or dynamo (overrides the script's `tracer`)");
    runCmd->add_option("--timeout", timeout, "seconds before the worker is killed")->capture_default_str();
    runCmd->add_flag("--json", run.json, "print the schema-1 JSON report (a JSON array of them for several scripts)");
    runCmd->add_flag("--no-verify", noVerify, "skip loading and checking the artifact");
    runCmd->add_flag("--deep-verify", deepVerify,
        "every verification check whatever it costs (second calls, all perturbed trials), and the "
        "from-scratch reload that recompiles every kernel (load_no_cache)");
    runCmd->add_flag("--profile", profile,
        "after verification, call the artifact a few times under torch.profiler and print the ten most "
        "expensive kernels with their graph nodes and source lines (captures[i].profile)");
    runCmd->add_flag("--cold-start", coldStart,
        "after verification, measure the start-up in fresh processes: eager's first call, torch.compile with an "
        "empty and a warm Inductor cache, the pair loaded with and without its cache (captures[i].cold_start)");
    runCmd->add_flag("--no-store", noStore, "do not keep the run in the library");
    runCmd->add_option("--export", exportDir,
        "also write NAME.py, NAME.cache and NAME.json into this folder (every script's captures)");
    runCmd->add_option("--trace", traceFile,
        "also write the compile-time events (torch's and the studio's) as a Chrome trace to this file, for "
        "Perfetto or chrome://tracing (one script only)");
    std::string htmlPath;
    runCmd->add_option("--html", htmlPath,
        "also write the run as one self-contained HTML page to this file (with several scripts: a folder, "
        "SCRIPT.html each); exit 2 if it cannot be written");
    runCmd->add_option("--junit", junitFile,
        "also write every run as JUnit XML to this file (one test case per capture), for CI test reports");

    int exitCode = 0;
    addLessonsCommands(app, &exitCode, &pythonEnv, &hosts);
    addRemoteCommands(app, &exitCode, &hosts, &pythonEnv);
    addLibraryCommands(app, &libraryPath, &exitCode, &pythonEnv, &hosts);
    addSetupCommands(app, &exitCode, &pythonEnv);

    try {
        app.parse(argc, argv);
    } catch (const CLI::ParseError& e) {
        const int rc = app.exit(e);
        return rc == 0 ? 0 : 2;
    }

#ifdef PS_HAVE_UI
    if (app.get_subcommands().empty() || openCmd->parsed()) {
        // With --host, --python-env names an environment there, as for `run`.
        const auto host = hosts.target(pythonEnv);
        return runGui(argc, argv, openFile, libraryPath, host ? std::string() : pythonEnv, host);
    }
#endif
    if (runCmd->parsed()) {
        if (!backend.empty())
            run.run.backend = backend;
        if (!tracer.empty())
            run.run.tracer = tracer;
        if (!exportDir.empty())
            run.exportDir = exportDir;
        if (!traceFile.empty())
            run.traceFile = traceFile;
        if (!junitFile.empty())
            run.junitFile = junitFile;
        if (!htmlPath.empty())
            run.htmlPath = htmlPath;
        if (!pythonEnv.empty())
            run.pythonEnv = pythonEnv;
        run.remote = hosts.target(pythonEnv);
        run.run.timeoutSeconds = timeout;
        run.run.verify = !noVerify;
        run.run.deepVerify = deepVerify;
        run.run.profile = profile;
        run.run.coldStart = coldStart;
        run.store = !noStore;
        run.libraryPath = libraryPath;
        return ps::commands::RunCommand::execute(run, std::cout, std::cerr);
    }
    return exitCode;
}
}  // namespace
