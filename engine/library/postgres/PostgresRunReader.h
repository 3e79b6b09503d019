#pragma once

#include <cstdint>
#include <vector>

#include "library/core/LibraryRecords.h"

namespace ps::library {

class PostgresConnection;

/// Reads runs back from a team library (PostgresStore::list, show, artifact), each call in one
/// REPEATABLE READ snapshot, so a run a writer commits meanwhile is seen whole or not at all.
/// Search is PostgreSQL's own text search (a GIN-indexed tsvector), with SearchText's words.
/// A stored report is parsed under the same caps as an imported one; a blob is returned only
/// when it passes its check. Thread contract: that of its connection.
class PostgresRunReader {
public:
    /// `hasChecks`: the database has the checks table (schema 3; an older one is read, not
    /// upgraded, by a role that may only read: its runs have no checks).
    explicit PostgresRunReader(PostgresConnection& db, bool hasChecks = true) : db_(db), hasChecks_(hasChecks) { }

    std::vector<RunSummary> list(const ListQuery& query) const;
    RunRecord show(std::int64_t runId, bool checkBlobs) const;
    /// Every check of a run, newest first, with its check object.
    std::vector<CheckRecord> checks(std::int64_t runId) const;
    CaptureArtifact artifact(std::int64_t runId, int captureIndex) const;

    /// The verified bytes of a blob; Damaged, naming `owner`, when missing or not whole.
    static std::string readBlob(PostgresConnection& db, const std::string& sha256, const std::string& owner);
    /// What is wrong with a blob, or nullopt when it is whole.
    static std::optional<std::string> checkBlob(PostgresConnection& db, const std::string& sha256);

private:
    PostgresConnection& db_;
    bool hasChecks_ = true;
};

}  // namespace ps::library
