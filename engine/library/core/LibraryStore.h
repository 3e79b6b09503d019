#pragma once

#include <cstdint>
#include <optional>
#include <string>
#include <utility>
#include <vector>

#include "library/core/LibraryRecords.h"

namespace ps::library {

/// One engine that keeps runs: the seam between ArtifactLibrary (what the studio does with a
/// library: store, browse, export, import, copy) and the database under it. SqliteStore keeps a
/// library in one file; PostgresStore in a PostgreSQL database a team shares. Both pass the same
/// behavioural suite (tests/library), so nothing above this interface knows which it has.
///
/// Every method returns its result or throws LibraryError (its file() is location()); nothing
/// is printed. A run is inserted whole or not at all, in one transaction.
class LibraryStore {
public:
    virtual ~LibraryStore() = default;

    /// The file's path, or the connection string without its password: what messages name.
    virtual const std::string& location() const = 0;
    virtual int schemaVersion() const = 0;
    /// Who stores runs through this store: the database role ("" for a file) and the OS user.
    virtual Identity identity() const = 0;
    /// Why this store may only be read though it was opened for writing (a database role with
    /// SELECT only); "" when it may be written.
    virtual std::string readOnlyReason() const { return {}; }

    /// Stores a run and returns its id. A run whose uid the store already holds is not stored
    /// again: the id it has is returned (so copying and pushing are idempotent).
    virtual std::int64_t insert(const NewRun& run) = 0;
    virtual std::vector<RunSummary> list(const ListQuery& query) const = 0;
    virtual RunRecord show(std::int64_t runId, bool checkBlobs) const = 0;
    virtual CaptureArtifact artifact(std::int64_t runId, int captureIndex) const = 0;
    virtual void trust(std::int64_t runId) = 0;
    virtual void remove(std::int64_t runId) = 0;
    virtual VerifyReport verify() const = 0;
    virtual GcResult gc() = 0;

    /// Keeps a load check of run `runId` (NotFound: no such run) and returns its id; who
    /// checked it is the store's identity. checks(): every check of the run, newest first.
    virtual std::int64_t addCheck(std::int64_t runId, const CheckRecord& check) = 0;
    virtual std::vector<CheckRecord> checks(std::int64_t runId) const = 0;

    /// The outbox: runs kept here for a team library that could not be reached. Only a file
    /// library has one; a team library refuses (Invalid).
    virtual void keepForPush(std::int64_t runId, const std::string& target, const std::string& reason) = 0;
    virtual std::vector<OutboxEntry> outbox() const = 0;
    virtual void markPushed(std::int64_t runId, std::int64_t pushedId) = 0;

    /// The graph view's layout cache: see ArtifactLibrary::storeLayout.
    static constexpr std::int64_t kLayoutBudget = 64LL << 20;
    virtual std::optional<std::string> layout(const std::string& key) = 0;
    virtual void storeLayout(const std::string& key, const std::string& bytes) = 0;
    virtual std::pair<std::int64_t, std::int64_t> layoutUsage() const = 0;

protected:
    LibraryStore() = default;
    LibraryStore(const LibraryStore&) = delete;
    LibraryStore& operator=(const LibraryStore&) = delete;
};

}  // namespace ps::library
