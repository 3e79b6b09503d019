#pragma once

#include <memory>
#include <string>

#include "library/core/LibraryStore.h"

namespace ps::library {

class SqliteConnection;

/// A library in one SQLite file (WAL, foreign keys, schema version in user_version, migrated
/// forward on open): the studio's default, nothing to set up.
///
/// Writes are single short IMMEDIATE transactions behind a 10 s busy timeout, so several front
/// ends and a worker can share one file. The work is done by SqliteRunWriter (insert), SqliteRunReader
/// (list, search, show, artifact), SqliteVerifier (verify), SqliteBlobStore (the blobs) and
/// SqliteLayoutStore (layouts); this class owns the connection and the opening (SqlitePreflight,
/// SqliteSchema).
///
/// Thread contract: one SqliteStore per thread (it owns one connection). Any number of
/// processes may open the same file at once.
class SqliteStore final : public LibraryStore {
public:
    /// Opens (creating, migrating) the library at `path`. A file that is not SQLite, is
    /// truncated, belongs to another program, has a newer schema or (unless opened readOnly)
    /// is read-only throws, and the file is left exactly as it was.
    ///
    /// readOnly opens SQLite read-only: no WAL setup, no migration of this connection, never a
    /// write lock; every write then throws ReadOnly. Where SQLite cannot make the -shm that a
    /// WAL reader needs (a read-only folder, a full disk) and no -wal holds pending writes, the
    /// file is read as immutable. A library of an older schema is upgraded first, which needs
    /// write access once.
    SqliteStore(const std::string& path, OpenOptions options);
    ~SqliteStore() override;

    const std::string& location() const override { return path_; }
    int schemaVersion() const override;
    /// No role (a file has none) and the OS user.
    Identity identity() const override;

    std::int64_t insert(const NewRun& run) override;
    std::vector<RunSummary> list(const ListQuery& query) const override;
    RunRecord show(std::int64_t runId, bool checkBlobs) const override;
    CaptureArtifact artifact(std::int64_t runId, int captureIndex) const override;
    void trust(std::int64_t runId) override;
    void remove(std::int64_t runId) override;
    /// PRAGMA integrity_check, foreign keys, the search index, and every blob against its hash,
    /// in one read snapshot: never takes the write lock.
    VerifyReport verify() const override;
    GcResult gc() override;

    std::int64_t addCheck(std::int64_t runId, const CheckRecord& check) override;
    std::vector<CheckRecord> checks(std::int64_t runId) const override;

    void keepForPush(std::int64_t runId, const std::string& target, const std::string& reason) override;
    std::vector<OutboxEntry> outbox() const override;
    void markPushed(std::int64_t runId, std::int64_t pushedId) override;

    std::optional<std::string> layout(const std::string& key) override;
    void storeLayout(const std::string& key, const std::string& bytes) override;
    std::pair<std::int64_t, std::int64_t> layoutUsage() const override;

private:
    void openReadOnly();

    std::string path_;
    std::unique_ptr<SqliteConnection> db_;
};

}  // namespace ps::library
