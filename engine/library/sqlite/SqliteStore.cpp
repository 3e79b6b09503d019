#include "library/sqlite/SqliteStore.h"

#include <chrono>
#include <thread>
#include <utility>

#include "library/core/CheckColumns.h"
#include "library/core/LibraryError.h"
#include "library/core/OsUser.h"
#include "library/core/PreparedRun.h"
#include "library/sqlite/SqliteConnection.h"
#include "library/sqlite/SqliteLayoutStore.h"
#include "library/sqlite/SqlitePreflight.h"
#include "library/sqlite/SqliteRunReader.h"
#include "library/sqlite/SqliteRunWriter.h"
#include "library/sqlite/SqliteSchema.h"
#include "library/sqlite/SqliteStatement.h"
#include "library/sqlite/SqliteTransaction.h"
#include "library/sqlite/SqliteVerifier.h"

namespace ps::library {

using Kind = LibraryError::Kind;

namespace {

std::int64_t databaseBytes(SqliteConnection& db)
{
    return db.queryInt("PRAGMA page_count") * db.queryInt("PRAGMA page_size");
}

}  // namespace

SqliteStore::SqliteStore(const std::string& path, OpenOptions options) : path_(path)
{
    if (options.readOnly) {
        openReadOnly();
        return;
    }
    SqlitePreflight::check(path, options.create, false);
    db_ = std::make_unique<SqliteConnection>(path, options.create);
    if (db_->readOnly())
        throw LibraryError(Kind::ReadOnly, path, "the library file cannot be written; left untouched");
    // Read before any write: a foreign, damaged or newer file is refused here, unmodified.
    SqliteSchema::inspect(*db_);
    // Only possible while the file has no pages yet (before WAL writes the first): lets gc give
    // space back to the file system.
    if (db_->queryInt("PRAGMA page_count") == 0)
        db_->exec("PRAGMA auto_vacuum = INCREMENTAL");
    // Switching to WAL needs the file to itself, and SQLite answers SQLITE_BUSY at once (its busy
    // handler is not called) while another connection reads it: front ends creating one library
    // at the same moment meet here. Retried within the busy timeout, as any other wait is.
    const auto deadline
        = std::chrono::steady_clock::now() + std::chrono::milliseconds(SqliteConnection::kBusyTimeoutMs);
    for (;;) {
        try {
            if (db_->queryText("PRAGMA journal_mode") != "wal") {
                const std::string mode = db_->queryText("PRAGMA journal_mode = WAL");
                if (mode != "wal")
                    throw LibraryError(
                        Kind::Sqlite, path, "cannot switch the library to WAL (journal mode " + mode + ")");
            }
            break;
        } catch (const LibraryError& e) {
            if (e.kind() != Kind::Busy || std::chrono::steady_clock::now() >= deadline)
                throw;
            std::this_thread::sleep_for(std::chrono::milliseconds(5));
        }
    }
    // NORMAL is durable against a crashed or killed process in WAL mode; only a power cut may
    // lose the last commits, never consistency.
    db_->exec("PRAGMA synchronous = NORMAL");
    db_->exec("PRAGMA journal_size_limit = 67108864");
    db_->exec("PRAGMA foreign_keys = ON");
    // Enough page cache to keep what listing scans (runs, captures, the search index) in memory.
    db_->exec("PRAGMA cache_size = -32768");
    SqliteSchema::migrate(*db_);
}

void SqliteStore::openReadOnly()
{
    SqlitePreflight::check(path_, false, true);
    db_ = std::make_unique<SqliteConnection>(path_, false, SqliteConnection::Access::ReadOnly);
    int version = 0;
    try {
        version = SqliteSchema::inspect(*db_, true);
    } catch (const LibraryError& e) {
        // A WAL reader needs the -shm, which SQLite must create when the last connection removed
        // it: impossible in a read-only folder or on a full disk. With no -wal beside the file
        // nothing is pending, and no writer can start either (it would have to create the -wal
        // in that same folder), so the file alone is the whole library: read it as immutable.
        if (e.kind() != Kind::ReadOnly && e.kind() != Kind::DiskFull && e.kind() != Kind::CannotOpen)
            throw;
        if (SqlitePreflight::walPending(path_))
            throw LibraryError(e.kind(), path_,
                std::string("cannot be read: SQLite cannot create its -shm ")
                    + (e.kind() == Kind::DiskFull ? "(the disk is full)" : "(its folder cannot be written)")
                    + " and its -wal holds writes not yet in the file; open it once with write access");
        db_ = std::make_unique<SqliteConnection>(path_, false, SqliteConnection::Access::Immutable);
        version = SqliteSchema::inspect(*db_, true);
    }
    if (version < SqliteSchema::kVersion) {
        // An older library is upgraded once, which needs write access; then it is read as usual.
        db_.reset();
        try {
            SqliteStore upgrade(path_, OpenOptions{false, false});
        } catch (const LibraryError& e) {
            if (e.kind() != Kind::ReadOnly && e.kind() != Kind::DiskFull)
                throw;
            throw LibraryError(e.kind(), path_,
                "its schema " + std::to_string(version) + " is older than this studio's "
                    + std::to_string(SqliteSchema::kVersion) + " and upgrading it needs write access, but "
                    + std::string(e.what()).substr(e.file().empty() ? 0 : e.file().size() + 2));
        }
        openReadOnly();
        return;
    }
    db_->exec("PRAGMA cache_size = -32768");
}

SqliteStore::~SqliteStore() = default;

Identity SqliteStore::identity() const
{
    return Identity{"", OsUser::name()};
}

int SqliteStore::schemaVersion() const
{
    return static_cast<int>(db_->queryInt("PRAGMA user_version"));
}

std::int64_t SqliteStore::insert(const NewRun& run)
{
    return SqliteRunWriter(*db_, identity()).insert(run);
}

std::vector<RunSummary> SqliteStore::list(const ListQuery& query) const
{
    return SqliteRunReader(*db_).list(query);
}

RunRecord SqliteStore::show(std::int64_t runId, bool checkBlobs) const
{
    return SqliteRunReader(*db_).show(runId, checkBlobs);
}

CaptureArtifact SqliteStore::artifact(std::int64_t runId, int captureIndex) const
{
    return SqliteRunReader(*db_).artifact(runId, captureIndex);
}

void SqliteStore::trust(std::int64_t runId)
{
    SqliteTransaction tx(*db_);
    SqliteStatement st = db_->prepare("UPDATE runs SET trusted = 1 WHERE id = ?");
    st.bind(1, runId).run();
    if (db_->changes() == 0)
        throw LibraryError(Kind::NotFound, path_, "no run " + std::to_string(runId));
    tx.commit();
}

void SqliteStore::remove(std::int64_t runId)
{
    SqliteTransaction tx(*db_);
    SqliteStatement st = db_->prepare("DELETE FROM runs WHERE id = ?");  // captures cascade, a trigger unindexes
    st.bind(1, runId).run();
    if (db_->changes() == 0)
        throw LibraryError(Kind::NotFound, path_, "no run " + std::to_string(runId));
    tx.commit();
}

VerifyReport SqliteStore::verify() const
{
    return SqliteVerifier(*db_).verify();
}

GcResult SqliteStore::gc()
{
    GcResult result;
    result.fileBytesBefore = databaseBytes(*db_);
    static constexpr const char* kUnreferenced
        = " FROM blobs WHERE NOT EXISTS (SELECT 1 FROM captures WHERE python_code_sha256 = blobs.sha256) "
          "AND NOT EXISTS (SELECT 1 FROM captures WHERE cache_sha256 = blobs.sha256)";
    {
        SqliteTransaction tx(*db_);
        SqliteStatement count
            = db_->prepare(std::string("SELECT count(*), coalesce(sum(length(data)), 0)") + kUnreferenced);
        if (count.step()) {
            result.blobsRemoved = count.integer(0);
            result.bytesRemoved = count.integer(1);
        }
        db_->exec(std::string("DELETE") + kUnreferenced);
        tx.commit();
    }
    // Hand the freed pages back to the file system (libraries created with auto_vacuum).
    if (db_->queryInt("PRAGMA auto_vacuum") == 2)
        db_->exec("PRAGMA incremental_vacuum");
    db_->exec("PRAGMA wal_checkpoint(PASSIVE)");
    result.fileBytesAfter = databaseBytes(*db_);
    return result;
}

std::int64_t SqliteStore::addCheck(std::int64_t runId, const CheckRecord& check)
{
    const CheckColumns::Values v = CheckColumns::prepare(check, path_);
    SqliteTransaction tx(*db_);
    SqliteStatement run = db_->prepare("SELECT 1 FROM runs WHERE id = ?");
    run.bind(1, runId);
    if (!run.step())
        throw LibraryError(Kind::NotFound, path_, "no run " + std::to_string(runId));
    SqliteStatement st = db_->prepare(
        "INSERT INTO checks (run_id, checked_at, target, outcome, runs, first_call_ms, torch, reason, check_json, "
        "checked_by) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?)");
    st.bind(1, runId)
        .bind(2, std::string_view(PreparedRun::now()))
        .bind(3, std::string_view(v.target))
        .bind(4, std::string_view(v.outcome))
        .bind(5, std::int64_t{v.runs})
        .bind(6, v.firstCallMs)
        .bind(7, std::string_view(v.torch))
        .bind(8, std::string_view(v.reason))
        .bind(9, std::string_view(v.checkJson))
        .bind(10, std::string_view(OsUser::name()))
        .run();
    const std::int64_t id = db_->lastInsertRowid();
    tx.commit();
    return id;
}

std::vector<CheckRecord> SqliteStore::checks(std::int64_t runId) const
{
    return SqliteRunReader(*db_).checks(runId);
}

void SqliteStore::keepForPush(std::int64_t runId, const std::string& target, const std::string& reason)
{
    SqliteTransaction tx(*db_);
    SqliteStatement st
        = db_->prepare("INSERT INTO outbox (run_id, target, reason) VALUES (?, ?, ?) "
                       "ON CONFLICT (run_id) DO UPDATE SET target = excluded.target, reason = excluded.reason");
    st.bind(1, runId).bind(2, std::string_view(target)).bind(3, std::string_view(reason)).run();
    tx.commit();
}

std::vector<OutboxEntry> SqliteStore::outbox() const
{
    std::vector<OutboxEntry> out;
    SqliteStatement st
        = db_->prepare("SELECT run_id, target, reason, pushed_id, coalesce(pushed_at, '') FROM outbox ORDER BY run_id");
    while (st.step()) {
        OutboxEntry& e = out.emplace_back();
        e.runId = st.integer(0);
        e.target = st.text(1);
        e.reason = st.text(2);
        e.pushedId = st.optionalInteger(3);
        e.pushedAt = st.text(4);
    }
    return out;
}

void SqliteStore::markPushed(std::int64_t runId, std::int64_t pushedId)
{
    SqliteTransaction tx(*db_);
    SqliteStatement st
        = db_->prepare("UPDATE outbox SET pushed_id = ?, pushed_at = strftime('%Y-%m-%dT%H:%M:%fZ', 'now') "
                       "WHERE run_id = ?");
    st.bind(1, pushedId).bind(2, runId).run();
    tx.commit();
}

std::optional<std::string> SqliteStore::layout(const std::string& key)
{
    return SqliteLayoutStore(*db_, kLayoutBudget).load(key);
}

void SqliteStore::storeLayout(const std::string& key, const std::string& bytes)
{
    SqliteLayoutStore(*db_, kLayoutBudget).store(key, bytes);
}

std::pair<std::int64_t, std::int64_t> SqliteStore::layoutUsage() const
{
    return SqliteLayoutStore(*db_, kLayoutBudget).usage();
}

}  // namespace ps::library
