#pragma once

#include <cstdint>
#include <string>
#include <vector>

namespace ps::library {

class ArtifactLibrary;

/// `library push` and the window's Push Kept Runs: sends the runs a local library keeps in its
/// outbox (kept because their team library could not be reached) to that team library, or to
/// another one, each exactly once: RunCopier's uid check makes a second push, or a push whose
/// mark was lost, store nothing twice. Network work: call it off the UI thread.
class RunPusher {
public:
    struct Pushed {
        std::int64_t runId = 0;        ///< in the local library
        std::string target;            ///< the team library (its password left out)
        std::int64_t targetRunId = 0;  ///< the run's id there
    };
    struct Unreached {
        std::string target;
        std::string why;          ///< the error, one line
        std::size_t waiting = 0;  ///< runs that stay kept for it
    };
    struct Result {
        std::size_t waiting = 0;  ///< runs that were waiting when the push began
        std::vector<Pushed> pushed;
        std::vector<Unreached> unreached;
        std::vector<std::string> failures;  ///< one line per run that could not be read or stored
        bool complete() const { return unreached.empty() && failures.empty(); }
    };

    /// Pushes every waiting run of `local` to `to`, or (empty) to the team library each was
    /// meant for. Throws LibraryError only for the local library itself.
    static Result push(ArtifactLibrary& local, const std::string& to = {});
};

}  // namespace ps::library
