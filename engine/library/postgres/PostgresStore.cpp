#include "library/postgres/PostgresStore.h"

#include <exception>
#include <map>
#include <set>
#include <utility>

#include "library/core/BlobCodec.h"
#include "library/core/CheckColumns.h"
#include "library/core/LibraryError.h"
#include "library/core/LibraryLocator.h"
#include "library/core/OsUser.h"
#include "library/core/PreparedRun.h"
#include "library/core/ZstdCodec.h"
#include "library/postgres/PostgresConnection.h"
#include "library/postgres/PostgresRunReader.h"
#include "library/postgres/PostgresRunWriter.h"
#include "library/postgres/PostgresSchema.h"
#include "library/postgres/PostgresTransaction.h"

namespace ps::library {

using Kind = LibraryError::Kind;

namespace {

constexpr const char* kDatabaseBytes = "SELECT pg_database_size(current_database())";

}  // namespace

PostgresStore::PostgresStore(const std::string& conninfo, OpenOptions options)
    : location_(LibraryLocator::redacted(conninfo)), readOnly_(options.readOnly)
{
    db_ = std::make_unique<PostgresConnection>(conninfo, location_);
    const int version = PostgresSchema::inspect(*db_, options.readOnly);
    if (options.readOnly) {
        if (version == 0)
            throw LibraryError(Kind::NotLibrary, location_, "an empty database: no library has been stored in it yet");
        db_->run("SET default_transaction_read_only = on");
        hasChecks_ = version >= 3;
        return;
    }
    if (version == 0 && !options.create)
        throw LibraryError(Kind::CannotOpen, location_, "an empty database: no library has been stored in it yet");
    if (version < PostgresSchema::kVersion) {
        try {
            PostgresSchema::migrate(*db_);
        } catch (const LibraryError& e) {
            if (e.kind() != Kind::ReadOnly)
                throw;
            throw LibraryError(Kind::ReadOnly, location_,
                "its tables need " + std::string(version == 0 ? "creating" : "upgrading") + ", which role "
                    + db_->role() + " may not do; ask the database's owner to open it once");
        }
    }
    if (!db_->queryInt("SELECT has_table_privilege('runs', 'INSERT')::int"))
        readOnlyReason_ = "role " + db_->role() + " may only read this library";
}

PostgresStore::~PostgresStore() = default;

int PostgresStore::schemaVersion() const
{
    return static_cast<int>(db_->queryInt("SELECT version FROM studio_library"));
}

Identity PostgresStore::identity() const
{
    return Identity{db_->role(), OsUser::name()};
}

std::int64_t PostgresStore::insert(const NewRun& run)
{
    return PostgresRunWriter(*db_, identity()).insert(run);
}

std::vector<RunSummary> PostgresStore::list(const ListQuery& query) const
{
    return PostgresRunReader(*db_, hasChecks_).list(query);
}

RunRecord PostgresStore::show(std::int64_t runId, bool checkBlobs) const
{
    return PostgresRunReader(*db_, hasChecks_).show(runId, checkBlobs);
}

CaptureArtifact PostgresStore::artifact(std::int64_t runId, int captureIndex) const
{
    return PostgresRunReader(*db_, hasChecks_).artifact(runId, captureIndex);
}

void PostgresStore::trust(std::int64_t runId)
{
    if (db_->exec("UPDATE runs SET trusted = TRUE WHERE id = $1", {runId}).affected() == 0)
        throw LibraryError(Kind::NotFound, location_, "no run " + std::to_string(runId));
}

void PostgresStore::remove(std::int64_t runId)
{
    // Captures and the document cascade; blobs stay until gc().
    if (db_->exec("DELETE FROM runs WHERE id = $1", {runId}).affected() == 0)
        throw LibraryError(Kind::NotFound, location_, "no run " + std::to_string(runId));
}

VerifyReport PostgresStore::verify() const
{
    VerifyReport report;
    PostgresTransaction snapshot(*db_, PostgresTransaction::Mode::Read);
    std::map<std::string, std::string> damaged;  // sha256 -> detail
    // One blob at a time: a library of many large blobs is never held in memory at once.
    const PostgresResult keys = db_->exec("SELECT sha256 FROM blobs ORDER BY sha256");
    for (int i = 0; i < keys.rows(); ++i) {
        const std::string sha(keys.text(i, 0));
        const PostgresResult blob = db_->exec("SELECT size, codec, data FROM blobs WHERE sha256 = $1", {sha}, true);
        if (blob.rows() == 0)
            continue;
        if (auto problem = BlobCodec::decode(sha, blob.integer(0, 0), blob.text(0, 1), blob.text(0, 2), nullptr))
            damaged.emplace(sha, *problem);
        ++report.blobsChecked;
        report.bytesChecked += blob.integer(0, 0);
    }
    // A capture whose blob is gone (deleted behind the library's back: foreign keys are triggers
    // that a superuser may switch off) names it, as SQLite's foreign_key_check does.
    const PostgresResult dangling
        = db_->exec("SELECT c.run_id, c.idx, s.sha, s.role FROM captures c CROSS JOIN LATERAL "
                    "(VALUES (c.python_code_sha256, 'python_code'), (c.cache_sha256, 'cache')) s(sha, role) "
                    "WHERE s.sha IS NOT NULL AND NOT EXISTS (SELECT 1 FROM blobs b WHERE b.sha256 = s.sha) "
                    "ORDER BY c.run_id, c.idx");
    for (int i = 0; i < dangling.rows(); ++i) {
        const std::string sha(dangling.text(i, 2));
        report.integrityErrors.push_back("capture " + std::to_string(dangling.integer(i, 1)) + " of run "
            + std::to_string(dangling.integer(i, 0)) + " refers to " + std::string(dangling.text(i, 3)) + " blob " + sha
            + ", missing from the blobs table");
        damaged.emplace(sha, "it is missing from the blobs table");
    }
    if (schemaVersion() >= 2)
        if (auto problem = PostgresSchema::roleGuardProblem(*db_))
            report.integrityErrors.push_back(*problem);
    const PostgresResult unindexed = db_->exec("SELECT count(*) FROM runs WHERE search IS NULL OR NOT EXISTS "
                                               "(SELECT 1 FROM run_documents d WHERE d.run_id = runs.id)");
    if (unindexed.integer(0, 0) > 0)
        report.integrityErrors.push_back(
            std::to_string(unindexed.integer(0, 0)) + " run(s) without their document or search words");
    for (const auto& [sha, detail] : damaged) {
        BlobDamage d{sha, "", detail, {}};
        std::set<std::string> roles;
        const PostgresResult refs = db_->exec("SELECT run_id, python_code_sha256 = $1, cache_sha256 = $1 FROM captures "
                                              "WHERE python_code_sha256 = $1 OR cache_sha256 = $1 ORDER BY run_id",
            {sha});
        for (int i = 0; i < refs.rows(); ++i) {
            if (d.runIds.empty() || d.runIds.back() != refs.integer(i, 0))
                d.runIds.push_back(refs.integer(i, 0));
            if (refs.boolean(i, 1))
                roles.insert("python_code");
            if (refs.boolean(i, 2))
                roles.insert("cache");
        }
        if (roles.size() == 1)
            d.role = *roles.begin();
        report.damaged.push_back(std::move(d));
    }
    snapshot.commit();
    return report;
}

GcResult PostgresStore::gc()
{
    GcResult result;
    result.fileBytesBefore = db_->queryInt(kDatabaseBytes);
    static constexpr const char* kUnreferenced
        = " FROM blobs WHERE NOT EXISTS (SELECT 1 FROM captures WHERE python_code_sha256 = blobs.sha256) "
          "AND NOT EXISTS (SELECT 1 FROM captures WHERE cache_sha256 = blobs.sha256)";
    for (int attempt = 1;; ++attempt) {
        try {
            PostgresTransaction tx(*db_);
            const PostgresResult removed = db_->exec(std::string("DELETE") + kUnreferenced + " RETURNING length(data)");
            result.blobsRemoved = removed.rows();
            result.bytesRemoved = 0;
            for (int i = 0; i < removed.rows(); ++i)
                result.bytesRemoved += removed.integer(i, 0);
            tx.commit();
            break;
        } catch (const LibraryError& e) {
            // A writer referred to one of them meanwhile (a foreign key refuses the delete):
            // look again.
            if (attempt == 3 || (e.kind() != Kind::Server && e.kind() != Kind::Busy))
                throw;
        }
    }
    // Space comes back to PostgreSQL's free space map (autovacuum); VACUUM gives it to reuse now.
    try {
        db_->run("VACUUM blobs");
    } catch (const LibraryError&) {
        // Only the table's owner may vacuum; autovacuum will.
    }
    result.fileBytesAfter = db_->queryInt(kDatabaseBytes);
    return result;
}

std::int64_t PostgresStore::addCheck(std::int64_t runId, const CheckRecord& check)
{
    const CheckColumns::Values v = CheckColumns::prepare(check, location_);
    if (!hasChecks_)
        throw LibraryError(Kind::ReadOnly, location_,
            "its tables predate kept checks (schema " + std::to_string(schemaVersion())
                + "); the database's owner upgrades them by opening it once");
    // checked_role is the server's word (a trigger sets session_user), as runs' stored_role is.
    const PostgresResult r = db_->exec(
        "INSERT INTO checks (run_id, checked_at, target, outcome, runs, first_call_ms, torch, reason, check_json, "
        "checked_by) SELECT id, $2, $3, $4, $5, $6, $7, $8, $9, $10 FROM runs WHERE id = $1 RETURNING id",
        {runId, PreparedRun::now(), v.target, v.outcome, v.runs,
            v.firstCallMs ? PostgresConnection::Param(*v.firstCallMs) : PostgresConnection::Param::none(), v.torch,
            v.reason, v.checkJson, OsUser::name()});
    if (r.rows() == 0)
        throw LibraryError(Kind::NotFound, location_, "no run " + std::to_string(runId));
    return r.integer(0, 0);
}

std::vector<CheckRecord> PostgresStore::checks(std::int64_t runId) const
{
    return PostgresRunReader(*db_, hasChecks_).checks(runId);
}

void PostgresStore::keepForPush(std::int64_t, const std::string&, const std::string&)
{
    throw LibraryError(Kind::Invalid, location_, "a team library keeps no outbox: runs wait in a local library");
}

std::vector<OutboxEntry> PostgresStore::outbox() const
{
    return {};
}

void PostgresStore::markPushed(std::int64_t, std::int64_t)
{
    throw LibraryError(Kind::Invalid, location_, "a team library keeps no outbox: runs wait in a local library");
}

std::optional<std::string> PostgresStore::layout(const std::string& key)
{
    std::optional<std::string> bytes;
    try {
        const PostgresResult r = db_->exec("SELECT size, codec, data FROM graph_layouts WHERE key = $1", {key}, true);
        if (r.rows() == 0)
            return std::nullopt;
        const std::int64_t size = r.integer(0, 0);
        if (size >= 0 && size <= kLayoutBudget * 64) {
            bytes = r.text(0, 1) == "zstd" ? ZstdCodec::decompress(r.text(0, 2), static_cast<std::size_t>(size))
                                           : std::string(r.text(0, 2));
            if (bytes->size() != static_cast<std::size_t>(size))
                bytes.reset();
        }
    } catch (const std::exception&) {
        bytes.reset();  // a cache never fails its caller
    }
    if (readOnly_)
        return bytes;
    try {
        db_->exec(bytes
                ? "UPDATE graph_layouts SET used_at = (SELECT max(used_at) + 1 FROM graph_layouts) WHERE key = $1"
                : "DELETE FROM graph_layouts WHERE key = $1",
            {key});
    } catch (const std::exception&) {
    }
    return bytes;
}

void PostgresStore::storeLayout(const std::string& key, const std::string& bytes)
{
    if (readOnly_)
        return;
    std::string stored = ZstdCodec::compress(bytes);
    const bool zstd = stored.size() < bytes.size();
    if (!zstd)
        stored = bytes;
    if (static_cast<std::int64_t>(stored.size()) > kLayoutBudget)
        return;
    try {
        PostgresTransaction tx(*db_);
        db_->exec("INSERT INTO graph_layouts (key, size, codec, data, used_at) VALUES ($1, $2, $3, $4, "
                  "(SELECT coalesce(max(used_at), 0) + 1 FROM graph_layouts)) ON CONFLICT (key) DO UPDATE SET "
                  "size = excluded.size, codec = excluded.codec, data = excluded.data, used_at = excluded.used_at",
            {key, static_cast<std::int64_t>(bytes.size()), zstd ? "zstd" : "raw",
                PostgresConnection::Param::blob(stored)});
        // Past the budget, the least recently used go first.
        db_->exec("DELETE FROM graph_layouts WHERE key IN (SELECT key FROM (SELECT key, sum(length(data)) OVER "
                  "(ORDER BY used_at DESC) AS kept FROM graph_layouts) k WHERE kept > $1)",
            {kLayoutBudget});
        tx.commit();
    } catch (const LibraryError& e) {
        if (e.kind() != Kind::ReadOnly)
            throw;  // a role that may only read keeps no layouts: not an error
    }
}

std::pair<std::int64_t, std::int64_t> PostgresStore::layoutUsage() const
{
    const PostgresResult r = db_->exec("SELECT count(*), coalesce(sum(length(data)), 0) FROM graph_layouts");
    return {r.integer(0, 0), r.integer(0, 1)};
}

}  // namespace ps::library
