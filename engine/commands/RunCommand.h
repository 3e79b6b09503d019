#pragma once

#include "protocol/RunOptions.h"

#include <iosfwd>
#include <optional>
#include <string>

namespace ps::commands {

struct RunCommandOptions {
    protocol::RunOptions run;
    bool json = false;
    bool store = true;
    std::optional<std::string> exportDir;
    std::optional<std::string> pythonEnv;
    std::string libraryPath;
};

/// `precompile-studio run SCRIPT ...`: runs the script in a worker, prints the summary or the
/// schema-1 JSON report to `out`, the script's output and progress to `err`, and returns the
/// exit code (0 ok, 1 violation or error in a capture, 2 the script could not run).
class RunCommand {
public:
    static int execute(const RunCommandOptions& options, std::ostream& out, std::ostream& err);
};

} // namespace ps::commands
