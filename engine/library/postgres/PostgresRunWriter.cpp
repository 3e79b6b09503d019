#include "library/postgres/PostgresRunWriter.h"

#include <algorithm>
#include <optional>
#include <string>
#include <vector>

#include "library/core/BlobCodec.h"
#include "library/core/LibraryError.h"
#include "library/core/PreparedRun.h"
#include "library/core/SearchText.h"
#include "library/postgres/PostgresConnection.h"
#include "library/postgres/PostgresTransaction.h"

namespace ps::library {

using Param = PostgresConnection::Param;

namespace {

std::optional<std::int64_t> runWithUid(PostgresConnection& db, const std::string& uid)
{
    const PostgresResult found = db.exec("SELECT id FROM runs WHERE uid = $1", {uid});
    return found.rows() > 0 ? std::optional<std::int64_t>(found.integer(0, 0)) : std::nullopt;
}

/// The run's blobs, one entry per distinct key, sorted by key.
std::vector<BlobCodec::Encoded*> distinctBlobs(PreparedRun& run)
{
    std::vector<BlobCodec::Encoded*> blobs;
    for (auto& c : run.captures)
        for (auto* blob : {&c.code, &c.cache})
            if (*blob)
                blobs.push_back(&**blob);
    std::sort(blobs.begin(), blobs.end(), [](const auto* a, const auto* b) { return a->sha256 < b->sha256; });
    blobs.erase(
        std::unique(blobs.begin(), blobs.end(), [](const auto* a, const auto* b) { return a->sha256 == b->sha256; }),
        blobs.end());
    return blobs;
}

/// A stored copy is never trusted by its key alone: whole, it is reused; damaged, replaced.
void checkStoredCopy(PostgresConnection& db, BlobCodec::Encoded& blob)
{
    const PostgresResult stored = db.exec("SELECT size, codec, data FROM blobs WHERE sha256 = $1", {blob.sha256}, true);
    if (stored.rows() > 0) {
        blob.alreadyStored = BlobCodec::holds(stored.integer(0, 0), stored.text(0, 1), stored.text(0, 2), blob.raw);
        blob.replace = !blob.alreadyStored;
    }
    if (!blob.alreadyStored)
        BlobCodec::compress(blob);
}

void putBlob(PostgresConnection& db, BlobCodec::Encoded& blob)
{
    if (blob.alreadyStored) {
        // Held against gc until this transaction ends; collected meanwhile: store it after all.
        if (db.exec("SELECT 1 FROM blobs WHERE sha256 = $1 FOR KEY SHARE", {blob.sha256}).rows() > 0)
            return;
        BlobCodec::compress(blob);
        blob.alreadyStored = false;
    }
    db.exec(blob.replace ? "INSERT INTO blobs (sha256, size, codec, data) VALUES ($1, $2, $3, $4) "
                           "ON CONFLICT (sha256) DO UPDATE SET size = excluded.size, codec = excluded.codec, "
                           "data = excluded.data"
                         : "INSERT INTO blobs (sha256, size, codec, data) VALUES ($1, $2, $3, $4) "
                           "ON CONFLICT (sha256) DO NOTHING",
        {blob.sha256, blob.size, blob.codec, Param::blob(blob.data)});
}

std::optional<Param> sha(const std::optional<BlobCodec::Encoded>& blob)
{
    return blob ? std::optional<Param>(Param(blob->sha256)) : std::nullopt;
}

/// The run's rows inside the caller's transaction; nullopt when its uid was stored meanwhile.
std::optional<std::int64_t> insertRows(
    PostgresConnection& db, const NewRun& run, const PreparedRun& p, const Identity& by)
{
    const std::string searchable
        = SearchText::spaced(p.name + " " + p.scriptPath + " " + run.scriptText + " " + p.searchWords);
    const PostgresResult inserted = db.exec(
        "INSERT INTO runs (uid, created_at, name, status, origin, trusted, script_path, message, ran_on, stored_by, "
        "stored_role, search) VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9, $10, $11, to_tsvector('simple', $12)) "
        "ON CONFLICT (uid) DO NOTHING RETURNING id",
        {p.uid, p.createdAt, p.name, p.status, toString(run.origin), run.trusted ? "true" : "false", p.scriptPath,
            p.message, p.ranOn, by.user, by.role, searchable});
    if (inserted.rows() == 0)
        return std::nullopt;
    const std::int64_t id = inserted.integer(0, 0);
    db.exec("INSERT INTO run_documents (run_id, report_json, script_text) VALUES ($1, $2, $3)",
        {id, p.reportText, run.scriptText});
    for (std::size_t i = 0; i < p.captures.size(); ++i) {
        const PreparedRun::Capture& c = p.captures[i];
        db.exec("INSERT INTO captures (run_id, idx, name, backend, tracer, status, invariant, message, "
                "python_code_sha256, cache_sha256) VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9, $10)",
            {id, static_cast<std::int64_t>(i), c.name, c.backend, c.tracer, c.status,
                c.invariant ? Param(static_cast<std::int64_t>(*c.invariant)) : Param::none(), c.message,
                sha(c.code).value_or(Param::none()), sha(c.cache).value_or(Param::none())});
    }
    return id;
}

}  // namespace

std::int64_t PostgresRunWriter::insert(const NewRun& run)
{
    PreparedRun prepared = PreparedRun::from(run, db_.location());
    if (const auto existing = runWithUid(db_, prepared.uid))
        return *existing;  // copied or pushed before: once only
    const std::vector<BlobCodec::Encoded*> blobs = distinctBlobs(prepared);
    for (auto* blob : blobs)
        checkStoredCopy(db_, *blob);
    const Identity& by = run.storedBy ? *run.storedBy : identity_;
    for (int attempt = 1;; ++attempt) {
        try {
            PostgresTransaction tx(db_);
            for (auto* blob : blobs)
                putBlob(db_, *blob);
            const auto id = insertRows(db_, run, prepared, by);
            if (!id)
                break;  // another writer stored this very run a moment ago
            tx.commit();
            return *id;
        } catch (const LibraryError& e) {
            if (e.kind() != LibraryError::Kind::Busy || attempt == 5)
                throw;  // a deadlock or serialization failure is tried again, a few times
        }
    }
    if (const auto existing = runWithUid(db_, prepared.uid))
        return *existing;
    throw LibraryError(LibraryError::Kind::Server, db_.location(),
        "run " + prepared.uid + " was neither stored nor found after a conflict");
}

}  // namespace ps::library
