#pragma once

#include <memory>
#include <string>

#include "library/core/LibraryStore.h"

namespace ps::library {

class PostgresConnection;

/// A team library in a PostgreSQL database, reached with libpq: many writers on many machines,
/// the server's roles deciding who may write, its replication and backups keeping it.
///
/// Opening connects (at most 10 s), recognises the database (PostgresSchema: empty, ours, or someone
/// else's) and creates or migrates the tables unless opened readOnly. A role that may only read
/// browses and exports; anything else it tries is one ReadOnly line naming the role. An
/// unreachable server is LibraryError Unreachable, which RunPipeline answers by keeping the run
/// in the local library for `library push`.
///
/// Thread contract: one PostgresStore per thread (it owns one connection).
class PostgresStore final : public LibraryStore {
public:
    PostgresStore(const std::string& conninfo, OpenOptions options);
    ~PostgresStore() override;

    const std::string& location() const override { return location_; }
    int schemaVersion() const override;
    /// The database role of the session and the OS user.
    Identity identity() const override;
    std::string readOnlyReason() const override { return readOnlyReason_; }

    std::int64_t insert(const NewRun& run) override;
    std::vector<RunSummary> list(const ListQuery& query) const override;
    RunRecord show(std::int64_t runId, bool checkBlobs) const override;
    CaptureArtifact artifact(std::int64_t runId, int captureIndex) const override;
    void trust(std::int64_t runId) override;
    void remove(std::int64_t runId) override;
    /// Every blob against its hash and every capture's blob present, in one snapshot.
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
    std::string location_;
    std::unique_ptr<PostgresConnection> db_;
    bool readOnly_ = false;
    bool hasChecks_ = true;  ///< schema 3 or later (an older one opened read-only has no checks table)
    std::string readOnlyReason_;
};

}  // namespace ps::library
