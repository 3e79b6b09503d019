#pragma once

#include <iosfwd>
#include <string>

namespace ps::commands {

/// `precompile-studio setup`: makes the studio's Python environment for one torch series (a venv
/// with that series' requirements file's packages, torch among them; `--torch 2.14.1` the
/// other), the one an installed studio needs before its first run and `make`'s bootstrap makes
/// for a clone. Headless, for servers; the window runs the same command and shows its lines.
struct SetupOptions {
    std::string torch;         ///< "2.14.1" or "2.14": the torch series; "" the default (2.15)
    std::string envDir;        ///< "" $PS_PYTHON_ENV, else InstallLayout::pythonEnv(series) (per user when installed)
    std::string requirements;  ///< "" InstallLayout::requirementsFile(series)
    std::string python;        ///< the interpreter the venv is made from ("" python3.X on PATH, X the worker's)
};

class SetupCommand {
public:
    /// Progress lines ("[setup] ...", pip's own lines after "[setup] pip: ") go to `out`, one
    /// line per failure to `err`. Idempotent: an environment whose marker (.complete) names the
    /// same requirements is left alone. Returns 0 done (or already done), 1 the environment could
    /// not be made (venv or pip failed, torch does not import; nothing is marked complete, a rerun
    /// continues), 2 bad input (no requirements file, no such interpreter, a folder that is
    /// not an environment, a torch the studio does not support).
    static int execute(const SetupOptions& options, std::ostream& out, std::ostream& err);
    /// The marker's text for these requirements: bootstrap.sh's empty marker also counts as done.
    static std::string markerText(const std::string& requirementsText);
};

}  // namespace ps::commands
