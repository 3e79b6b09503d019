#pragma once

#include <iosfwd>
#include <string>

namespace ps::library {
class ArtifactLibrary;
}

namespace ps::commands {

struct LibraryOptions;

/// `library repro RUN [--node NAME] [--capture C] [--budget SECONDS] DIR`: from where a stored
/// run's drift starts to the smallest script that shows it in plain torch. The run's script runs
/// again here (it must be trusted), its capture is verified as at first, and the cut of its
/// captured graph from the drift start that still reproduces the drift, shrunk within the
/// budget, is written as DIR/repro.py + DIR/inputs.pt and confirmed in a fresh Python process
/// (run::StoredRunRepro). Prints what was written or why nothing was.
class LibraryRepro {
public:
    /// 0 a repro was written (it exits 1 in a fresh process); 1 none can be: the run matches,
    /// no cut reproduces it, the run is not trusted here or has no capture asked for; 2 the run
    /// could not be made again (no worker, the script failed, cancelled).
    static int run(
        const library::ArtifactLibrary& library, const LibraryOptions& options, std::ostream& out, std::ostream& err);
};

}  // namespace ps::commands
