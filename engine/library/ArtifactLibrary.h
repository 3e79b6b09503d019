#pragma once

#include <cstdint>
#include <memory>
#include <optional>
#include <string>
#include <utility>
#include <vector>

#include "library/LibraryRecords.h"

namespace ps::library {

class Connection;

/// The artifact library: every run, with its captures and their python_code and cache, in one
/// SQLite file (WAL, foreign keys, schema version in user_version, migrated forward on open).
///
/// Every method either returns its result or throws LibraryError; nothing is printed. Writes
/// are single short IMMEDIATE transactions behind a 10 s busy timeout, so several front ends
/// and a worker can share one file; a run is inserted whole or not at all.
///
/// A facade: it owns the connection and the opening (LibraryPreflight, Schema); the work is
/// done by RunWriter (insert), RunReader (list, search, show, artifact), ArtifactTransfer
/// (export, import), LibraryVerifier (verify), BlobStore (the blobs) and LayoutStore (layouts).
///
/// Thread contract: one ArtifactLibrary per thread (it owns one connection). Any number of
/// processes may open the same file at once.
class ArtifactLibrary {
public:
    struct OpenOptions {
        bool create = true;     ///< create the file (and its folder) when missing
        bool readOnly = false;  ///< only read: works on a read-only file, folder or full disk
    };

    /// Opens (creating, migrating) the library at `path`. A file that is not SQLite, is
    /// truncated, belongs to another program, has a newer schema or (unless opened readOnly)
    /// is read-only throws, and the file is left exactly as it was.
    ///
    /// readOnly opens SQLite read-only: no WAL setup, no migration of this connection, never a
    /// write lock; every write then throws ReadOnly. Where SQLite cannot make the -shm that a
    /// WAL reader needs (a read-only folder, a full disk) and no -wal holds pending writes, the
    /// file is read as immutable. A library of an older schema is upgraded first, which needs
    /// write access once.
    explicit ArtifactLibrary(const std::string& path);
    ArtifactLibrary(const std::string& path, OpenOptions options);
    ~ArtifactLibrary();
    ArtifactLibrary(ArtifactLibrary&&) noexcept;
    ArtifactLibrary& operator=(ArtifactLibrary&&) noexcept;

    const std::string& path() const noexcept { return path_; }
    int schemaVersion() const;

    /// Stores a run and returns its id. The report's artifact hashes, where present, must match
    /// the bytes; where absent they are filled in.
    std::int64_t insert(const NewRun& run);

    /// Runs, newest first.
    std::vector<RunSummary> list(const ListQuery& query = {}) const;
    /// Full-text search over names, script path and text, and messages; newest first.
    std::vector<RunSummary> search(const std::string& text) const;

    /// A whole run: the stored report (run_id set), and every blob of it checked unless
    /// `checkBlobs` is false (then `damaged` stays empty). NotFound when there is no such run.
    RunRecord show(std::int64_t runId, bool checkBlobs = true) const;
    /// The verified python_code and cache of one capture (Damaged or NotFound otherwise).
    CaptureArtifact artifact(std::int64_t runId, int captureIndex) const;

    /// Writes NAME.py, NAME.cache and NAME.json for every capture of the run that has an
    /// artifact; checks every blob before writing any file. Returns the paths written.
    std::vector<std::string> exportRun(std::int64_t runId, const std::string& dir) const;
    /// Imports NAME.py with its NAME.cache and NAME.json (see ArtifactFiles::read) as a new,
    /// untrusted run; returns its id.
    std::int64_t importArtifact(const std::string& pythonCodePath);

    void trust(std::int64_t runId);
    /// Removes a run and its captures; their blobs stay until gc().
    void remove(std::int64_t runId);

    /// PRAGMA integrity_check, foreign keys, the search index, and every blob against its hash,
    /// in one read snapshot: never takes the write lock, so it runs beside a writer and on a
    /// library opened readOnly.
    VerifyReport verify() const;
    /// Deletes blobs no capture refers to and gives the space back to the file system.
    GcResult gc();

    /// The graph view's layout cache (table graph_layouts): bytes by key, zstd-compressed,
    /// trimmed to `kLayoutBudget` stored bytes, least recently used first. A cache: a row that
    /// cannot be read is deleted and reported as absent, never thrown.
    static constexpr std::int64_t kLayoutBudget = 64LL << 20;
    std::optional<std::string> layout(const std::string& key);
    void storeLayout(const std::string& key, const std::string& bytes);
    /// How many layouts are kept, and their stored (compressed) bytes.
    std::pair<std::int64_t, std::int64_t> layoutUsage() const;

private:
    void openReadOnly();

    std::string path_;
    std::unique_ptr<Connection> db_;
};

}  // namespace ps::library
