#pragma once

#include <cstdint>
#include <functional>
#include <string>
#include <utility>
#include <vector>

#include "library/core/LibraryRecords.h"

namespace ps::library {

class ArtifactLibrary;

/// Moves runs between any two libraries (`library copy`, `library push`): a laptop's file into
/// the team's database and back, with their provenance (uid, time, who stored them, where they
/// ran, origin, trust) and their blobs, checked on the way. Idempotent: a run the target holds
/// already (by uid) is not stored again.
class RunCopier {
public:
    struct Result {
        std::vector<std::pair<std::int64_t, std::int64_t>> copied;  ///< (id in source, id in target)
        /// Runs the target held already (by uid), as (id in source, id in target).
        std::vector<std::pair<std::int64_t, std::int64_t>> alreadyThere;
        std::vector<std::string> failures;  ///< one line per run that could not be copied
    };
    /// Called after each run with (done, total).
    using Progress = std::function<void(std::size_t, std::size_t)>;

    /// A stored run as a NewRun that keeps its identity; its blobs read and checked (Damaged
    /// otherwise).
    static NewRun read(ArtifactLibrary& from, std::int64_t runId);
    /// Copies `runIds` (empty: every run, oldest first) from `from` to `to`.
    static Result copy(ArtifactLibrary& from, ArtifactLibrary& to, const std::vector<std::int64_t>& runIds,
        const Progress& progress = {});
};

}  // namespace ps::library
