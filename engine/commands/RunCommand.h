#pragma once

#include "protocol/RunOptions.h"
#include "remote/RemoteTarget.h"

#include <iosfwd>
#include <optional>
#include <string>

namespace ps::commands {

struct RunCommandOptions {
    protocol::RunOptions run;
    bool json = false;
    bool store = true;
    std::optional<std::string> exportDir;
    std::optional<std::string> traceFile;  ///< --trace: the compile-time events as a Chrome trace
    std::optional<std::string> pythonEnv;
    std::string libraryPath;
    std::optional<remote::RemoteTarget> remote;  ///< run on another host (--host)
};

/// `precompile-studio run SCRIPT ...`: runs the script through the RunPipeline, prints the
/// summary or the schema-1 JSON report to `out`, the script's output and progress to `err`, and
/// returns the exit code (model::Report::exitCode; 2 also when a requested export or trace failed).
class RunCommand {
public:
    static int execute(const RunCommandOptions& options, std::ostream& out, std::ostream& err);
};

}  // namespace ps::commands
