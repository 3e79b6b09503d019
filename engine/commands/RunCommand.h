#pragma once

#include "protocol/RunOptions.h"
#include "remote/RemoteTarget.h"

#include <iosfwd>
#include <optional>
#include <string>
#include <vector>

namespace ps::commands {

struct RunCommandOptions {
    /// What every script runs with; its `script` is set per run from `scripts`.
    protocol::RunOptions run;
    /// The scripts, each its own run (own report, own library entry), one after another.
    std::vector<std::string> scripts;
    bool json = false;
    bool store = true;
    std::optional<std::string> exportDir;  ///< every script's captures into this one folder
    std::optional<std::string> traceFile;  ///< --trace: the compile-time events as a Chrome trace (one script)
    std::optional<std::string> junitFile;  ///< --junit: every run as JUnit XML (share::JunitReport)
    /// --html: each run as one HTML page (share::HtmlReport): this file for one script; for
    /// several, a folder (created if needed) holding SCRIPT-STEM.html per script.
    std::optional<std::string> htmlPath;
    std::optional<std::string> pythonEnv;
    std::string libraryPath;
    std::optional<remote::RemoteTarget> remote;  ///< run on another host (--host)
};

/// `precompile-studio run SCRIPT... ...`: runs each script through the RunPipeline, prints its
/// summary (under a header per script when there are several, then one closing line) or the
/// schema-1 JSON report (an array of them for several scripts) to `out`, the scripts' output and
/// progress to `err`, and returns the exit code: the worst of the runs' (worstExitCode), each
/// model::Report::exitCode, or 2 where a requested export, trace, JUnit file or HTML page failed.
class RunCommand {
public:
    static int execute(const RunCommandOptions& options, std::ostream& out, std::ostream& err);

    /// The worse of two exit codes, from best to worst: 0 ok, 3 ok but not stored, 1 a problem
    /// found, 2 could not run (any other code ranks as 2).
    static int worstExitCode(int a, int b);
    /// Why these options cannot run ("" when they can): no script, or --trace with several.
    static std::string usageProblem(const RunCommandOptions& options);
    /// Where --html writes the page of each script (index-aligned with options.scripts): the
    /// file itself for one script; DIR/STEM.html for several, STEM-2.html, ... where stems repeat.
    static std::vector<std::string> htmlPaths(const RunCommandOptions& options);
};

}  // namespace ps::commands
