#pragma once

#include <iosfwd>
#include <string>

namespace ps::library {
class ArtifactLibrary;
}

namespace ps::commands {

struct LibraryOptions;

/// `library check RUN [--python-env ENV ...] [--on HOST ...]`: will the stored pair load there? For
/// each target (an environment here, or a host over ssh) a worker there loads the pair in a fresh process with plain
/// torch.compiler.precompile and an empty Inductor cache, calls it once on the example inputs the
/// run's script builds there and judges it against eager fn there (the worker's deploy/check.py).
/// The run must be trusted here: its script and python_code execute. Prints one matrix (rows:
/// targets; columns: outcome, first call, matches eager) whose first line says how many targets
/// run it, and why not where not. What was learned of the pair is kept with the run (the library's
/// checks); a library that may only be read says so under the matrix.
class LibraryCheck {
public:
    /// 0 every target runs the pair (with its cache or compiling its kernels) and matches eager
    /// there; 1 a target refuses it or gets other numbers, or the run is not trusted here or has
    /// no artifact; 2 a target could not be checked (no worker, the script failed there).
    /// `cannotKeep`: why `library` was opened read-only ("" : it may be written).
    static int run(library::ArtifactLibrary& library, const LibraryOptions& options, std::ostream& out,
        std::ostream& err, const std::string& cannotKeep = {});
};

}  // namespace ps::commands
