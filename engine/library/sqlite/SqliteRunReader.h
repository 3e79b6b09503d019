#pragma once

#include <cstdint>
#include <vector>

#include "library/core/LibraryRecords.h"

namespace ps::library {

class SqliteConnection;

/// Reads runs back (ArtifactLibrary::list, search, show, artifact), each call in one read
/// snapshot, so a run a writer commits meanwhile is seen whole or not at all. A stored report
/// is parsed under the same caps as an imported one; a blob is returned only when it passes its
/// check. Thread contract: that of its SqliteConnection.
class SqliteRunReader {
public:
    explicit SqliteRunReader(SqliteConnection& db) : db_(db) { }

    /// Runs matching `query`, newest first, with their captures.
    std::vector<RunSummary> list(const ListQuery& query) const;
    /// A whole run, every blob of it checked unless `checkBlobs` is false. NotFound when absent.
    RunRecord show(std::int64_t runId, bool checkBlobs) const;
    /// Every check of a run, newest first, with its check object.
    std::vector<CheckRecord> checks(std::int64_t runId) const;
    /// The verified python_code and cache of one capture (Damaged or NotFound otherwise).
    CaptureArtifact artifact(std::int64_t runId, int captureIndex) const;

private:
    SqliteConnection& db_;
};

}  // namespace ps::library
