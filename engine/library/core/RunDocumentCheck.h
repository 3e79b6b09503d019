#pragma once

#include "library/core/LibraryRecords.h"

#include <string>
#include <vector>

namespace ps::library {

class LibraryStore;

/// What `library verify` says of each run's rows beyond the blobs: the rows a hostile member of
/// a team library could write straight into the database. A run's and its captures' names
/// holding control characters or path separators (shown escaped, exported under a safe name,
/// but named here), a status word the studio does not know, a report that is not valid JSON,
/// not an object or not schema 1, or whose captures are not those of the captures table. Every
/// front end already shows such a run safely; this names it so that a team can remove it.
class RunDocumentCheck {
public:
    /// One line per problem, each starting "run N: ". Reads every run once, one at a time.
    static std::vector<std::string> problems(const LibraryStore& store);
    /// The problems of a run's own row (name, status).
    static std::vector<std::string> summaryProblems(const RunSummary& run);
    /// The problems of one run, as read by the store's show(): its row's, its captures' and its
    /// report's.
    static std::vector<std::string> problemsOf(const RunRecord& run);
    /// What is wrong with a stored name ("" when nothing): a control character, a path separator.
    static std::string nameProblem(const std::string& name);
};

}  // namespace ps::library
