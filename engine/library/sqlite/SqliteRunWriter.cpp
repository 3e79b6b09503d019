#include "library/sqlite/SqliteRunWriter.h"

#include <optional>
#include <string>
#include <vector>

#include "library/core/PreparedRun.h"
#include "library/sqlite/SqliteBlobStore.h"
#include "library/sqlite/SqliteConnection.h"
#include "library/sqlite/SqliteStatement.h"
#include "library/sqlite/SqliteTransaction.h"

namespace ps::library {

namespace {

/// The id of the run stored under `uid`, if any.
std::optional<std::int64_t> runWithUid(SqliteConnection& db, const std::string& uid)
{
    SqliteStatement st = db.prepare("SELECT id FROM runs WHERE uid = ?");
    st.bind(1, std::string_view(uid));
    return st.step() ? std::optional<std::int64_t>(st.integer(0)) : std::nullopt;
}

/// The runs row and its document; returns the run's id.
std::int64_t insertRun(SqliteConnection& db, const NewRun& run, const PreparedRun& row, const Identity& by)
{
    SqliteStatement insertRun = db.prepare(
        "INSERT INTO runs (uid, created_at, name, status, origin, trusted, script_path, message, ran_on, stored_by, "
        "stored_role) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)");
    insertRun.bind(1, std::string_view(row.uid))
        .bind(2, std::string_view(row.createdAt))
        .bind(3, std::string_view(row.name))
        .bind(4, std::string_view(row.status))
        .bind(5, toString(run.origin))
        .bind(6, std::int64_t{run.trusted ? 1 : 0})
        .bind(7, std::string_view(row.scriptPath))
        .bind(8, std::string_view(row.message))
        .bind(9, std::string_view(row.ranOn))
        .bind(10, std::string_view(by.user))
        .bind(11, std::string_view(by.role));
    insertRun.run();
    const std::int64_t id = db.lastInsertRowid();

    SqliteStatement insertDocument
        = db.prepare("INSERT INTO run_documents (run_id, report_json, script_text) VALUES (?, ?, ?)");
    insertDocument.bind(1, id).bind(2, std::string_view(row.reportText)).bind(3, std::string_view(run.scriptText));
    insertDocument.run();
    return id;
}

/// One captures row per capture of the stored report, with its blobs' keys.
void insertCaptures(SqliteConnection& db, std::int64_t id, const PreparedRun& run)
{
    SqliteStatement insertCapture
        = db.prepare("INSERT INTO captures (run_id, idx, name, backend, tracer, status, invariant, message, "
                     "python_code_sha256, cache_sha256) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?)");
    for (std::size_t i = 0; i < run.captures.size(); ++i) {
        const PreparedRun::Capture& c = run.captures[i];
        insertCapture.bind(1, id)
            .bind(2, static_cast<std::int64_t>(i))
            .bind(3, std::string_view(c.name))
            .bind(4, std::string_view(c.backend))
            .bind(5, std::string_view(c.tracer))
            .bind(6, std::string_view(c.status))
            .bind(7, c.invariant ? std::optional<std::int64_t>(*c.invariant) : std::nullopt)
            .bind(8, std::string_view(c.message))
            .bind(9, c.code ? std::optional<std::string>(c.code->sha256) : std::nullopt)
            .bind(10, c.cache ? std::optional<std::string>(c.cache->sha256) : std::nullopt);
        insertCapture.run();
        insertCapture.reset();
    }
}

void insertSearchRow(SqliteConnection& db, std::int64_t id, const NewRun& run, const PreparedRun& row)
{
    SqliteStatement index
        = db.prepare("INSERT INTO run_search (rowid, name, script_path, script_text, messages) VALUES (?, ?, ?, ?, ?)");
    index.bind(1, id)
        .bind(2, std::string_view(row.name))
        .bind(3, std::string_view(row.scriptPath))
        .bind(4, std::string_view(run.scriptText))
        .bind(5, std::string_view(row.searchWords));
    index.run();
}

}  // namespace

std::int64_t SqliteRunWriter::insert(const NewRun& run)
{
    PreparedRun prepared = PreparedRun::from(run, db_.path());
    // Check stored copies and compress before taking the write lock.
    SqliteBlobStore blobs(db_);
    for (auto& c : prepared.captures)
        for (auto* blob : {&c.code, &c.cache})
            if (*blob)
                *blob = blobs.prepare(**blob);

    SqliteTransaction tx(db_);
    if (const auto existing = runWithUid(db_, prepared.uid))
        return *existing;  // copied or pushed before: once only
    for (auto& c : prepared.captures)
        for (auto* blob : {&c.code, &c.cache})
            if (*blob)
                blobs.put(**blob);
    const std::int64_t id = insertRun(db_, run, prepared, run.storedBy.value_or(identity_));
    insertCaptures(db_, id, prepared);
    insertSearchRow(db_, id, run, prepared);
    tx.commit();
    return id;
}

}  // namespace ps::library
