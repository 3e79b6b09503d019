#pragma once

#include "library/core/RunTrust.h"
#include "library/core/TrustStore.h"

#include <cstdint>
#include <memory>
#include <optional>
#include <string>
#include <utility>
#include <vector>

#include "library/core/LibraryRecords.h"

namespace ps::library {

class LibraryStore;

/// The artifact library: every run, with its captures and their python_code and cache, kept in
/// a store (LibraryStore): one SQLite file by default (SqliteStore), or a team's PostgreSQL
/// database (PostgresStore).
///
/// Every method either returns its result or throws LibraryError; nothing is printed. A run is
/// inserted whole or not at all, and any number of processes may share one library.
///
/// A facade: what the studio does with a library (store, browse, export, import) is written
/// once here and in ArtifactTransfer, over whichever store is open.
///
/// Thread contract: one ArtifactLibrary per thread (its store owns one connection).
class ArtifactLibrary {
public:
    using OpenOptions = library::OpenOptions;

    /// Opens (creating, migrating) the library at `location`: a file path, or a PostgreSQL
    /// connection string (LibraryLocator::kindOf). A library that is damaged, belongs to
    /// another program, has a newer schema or (unless opened readOnly) cannot be written
    /// throws, and is left exactly as it was. See SqliteStore and PostgresStore.
    explicit ArtifactLibrary(const std::string& location);
    ArtifactLibrary(const std::string& location, OpenOptions options);
    ~ArtifactLibrary();
    ArtifactLibrary(ArtifactLibrary&&) noexcept;
    ArtifactLibrary& operator=(ArtifactLibrary&&) noexcept;

    /// The file's path, or the connection string without its password (what messages name).
    const std::string& path() const noexcept;
    int schemaVersion() const;
    /// Who runs stored through this library are recorded as stored by.
    Identity identity() const;
    /// Why this library may only be read though opened for writing (a database role with
    /// SELECT only); "" when it may be written.
    std::string readOnlyReason() const;

    /// Stores a run and returns its id. The report's artifact hashes, where present, must match
    /// the bytes; where absent they are filled in. A run whose uid is stored already (copied or
    /// pushed before) is not stored again: its id is returned.
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

    /// Trusts a run: one's own import in the library (its `trusted` column); someone else's
    /// run in this user's own TrustStore only, never in a row others can read as trust.
    void trust(std::int64_t runId);
    /// Whether the run may execute here for this user, and why not (RunTrust).
    RunTrust trustOf(const RunSummary& run) const;
    /// Removes a run and its captures; their blobs stay until gc().
    void remove(std::int64_t runId);

    /// The store's own integrity checks, and every blob against its hash, in one read
    /// snapshot: never takes the write lock, so it runs beside a writer and read-only.
    VerifyReport verify() const;
    /// Deletes blobs no capture refers to and gives the space back.
    GcResult gc();

    /// Keeps a load check of a run's pair (`library check`, Check On…); returns its id. Who
    /// checked is this library's identity. checks(): every check of the run, newest first;
    /// list() and show() carry the latest at each target.
    std::int64_t addCheck(std::int64_t runId, const CheckRecord& check);
    std::vector<CheckRecord> checks(std::int64_t runId) const;

    /// The outbox of a local library: runs kept here because the team library `target` could
    /// not be reached (`library push` sends them). A team library keeps none (Invalid).
    void keepForPush(std::int64_t runId, const std::string& target, const std::string& reason);
    std::vector<OutboxEntry> outbox() const;
    void markPushed(std::int64_t runId, std::int64_t pushedId);

    /// The graph view's layout cache (table graph_layouts): bytes by key, zstd-compressed,
    /// trimmed to `kLayoutBudget` stored bytes, least recently used first. A cache: a row that
    /// cannot be read is deleted and reported as absent, never thrown.
    static constexpr std::int64_t kLayoutBudget = 64LL << 20;
    std::optional<std::string> layout(const std::string& key);
    void storeLayout(const std::string& key, const std::string& bytes);
    /// How many layouts are kept, and their stored (compressed) bytes.
    std::pair<std::int64_t, std::int64_t> layoutUsage() const;

    /// The store under the facade.
    LibraryStore& store() { return *store_; }

private:
    std::unique_ptr<LibraryStore> store_;
    TrustStore trusted_;
};

}  // namespace ps::library
