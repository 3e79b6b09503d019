#include "library/sqlite/SqliteSchema.h"

#include <string>

#include "library/core/ArtifactFiles.h"
#include "library/core/LibraryError.h"
#include "library/core/PreparedRun.h"
#include "library/sqlite/SqliteConnection.h"
#include "library/sqlite/SqliteStatement.h"
#include "library/sqlite/SqliteTransaction.h"
#include "model/JsonFields.h"
#include "model/JsonLimits.h"
#include "model/WorkerInfo.h"

namespace ps::library {

namespace {

constexpr const char* kV1 = R"sql(
CREATE TABLE blobs (
    sha256 TEXT PRIMARY KEY NOT NULL CHECK (length(sha256) = 64),
    size INTEGER NOT NULL CHECK (size >= 0),
    codec TEXT NOT NULL CHECK (codec IN ('raw', 'zstd')),
    data BLOB NOT NULL
);
CREATE TABLE runs (
    id INTEGER PRIMARY KEY AUTOINCREMENT,
    created_at TEXT NOT NULL,
    script_path TEXT NOT NULL,
    name TEXT NOT NULL,
    status TEXT NOT NULL,
    message TEXT NOT NULL DEFAULT '',
    script_text TEXT NOT NULL DEFAULT '',
    report_json TEXT NOT NULL
);
CREATE TABLE captures (
    run_id INTEGER NOT NULL REFERENCES runs(id) ON DELETE CASCADE,
    idx INTEGER NOT NULL,
    name TEXT NOT NULL,
    backend TEXT NOT NULL,
    tracer TEXT NOT NULL,
    status TEXT NOT NULL,
    invariant INTEGER,
    message TEXT NOT NULL DEFAULT '',
    python_code_sha256 TEXT REFERENCES blobs(sha256),
    cache_sha256 TEXT REFERENCES blobs(sha256),
    report_json TEXT NOT NULL,
    PRIMARY KEY (run_id, idx)
) WITHOUT ROWID;
CREATE INDEX captures_python_code ON captures(python_code_sha256);
CREATE INDEX captures_cache ON captures(cache_sha256);
)sql";

// v2 keeps the tables that listing scans narrow: runs and captures hold only what ls shows and
// filters on; the documents (the whole report, the script) live in run_documents, read by show.
constexpr const char* kV2 = R"sql(
CREATE TABLE runs_v2 (
    id INTEGER PRIMARY KEY AUTOINCREMENT,
    created_at TEXT NOT NULL,
    name TEXT NOT NULL,
    status TEXT NOT NULL,
    origin TEXT NOT NULL DEFAULT 'run' CHECK (origin IN ('run', 'import')),
    trusted INTEGER NOT NULL DEFAULT 1 CHECK (trusted IN (0, 1)),
    script_path TEXT NOT NULL,
    message TEXT NOT NULL DEFAULT ''
);
INSERT INTO runs_v2 (id, created_at, name, status, origin, trusted, script_path, message)
    SELECT id, created_at, name, status, 'run', 1, script_path, message FROM runs;
CREATE TABLE run_documents (
    run_id INTEGER PRIMARY KEY REFERENCES runs(id) ON DELETE CASCADE,
    report_json TEXT NOT NULL,
    script_text TEXT NOT NULL DEFAULT ''
);
INSERT INTO run_documents (run_id, report_json, script_text)
    SELECT r.id,
           json_set(r.report_json, '$.captures',
                    json((SELECT json_group_array(json(o.report_json))
                          FROM (SELECT report_json FROM captures WHERE run_id = r.id ORDER BY idx) o))),
           r.script_text
    FROM runs r;
CREATE TABLE captures_v2 (
    run_id INTEGER NOT NULL REFERENCES runs(id) ON DELETE CASCADE,
    idx INTEGER NOT NULL,
    name TEXT NOT NULL,
    backend TEXT NOT NULL,
    tracer TEXT NOT NULL,
    status TEXT NOT NULL,
    invariant INTEGER,
    message TEXT NOT NULL DEFAULT '',
    python_code_sha256 TEXT REFERENCES blobs(sha256),
    cache_sha256 TEXT REFERENCES blobs(sha256),
    PRIMARY KEY (run_id, idx)
) WITHOUT ROWID;
INSERT INTO captures_v2
    SELECT run_id, idx, name, backend, tracer, status, invariant, message, python_code_sha256, cache_sha256
    FROM captures;
CREATE VIRTUAL TABLE run_search USING fts5(
    name, script_path, script_text, messages, tokenize = 'unicode61 remove_diacritics 2');
INSERT INTO run_search (rowid, name, script_path, script_text, messages)
    SELECT r.id, r.name, r.script_path, r.script_text,
           r.message || ' ' || coalesce((SELECT group_concat(c.name || ' ' || c.backend || ' ' || c.status ||
                                                             ' ' || c.message, ' ')
                                         FROM captures c WHERE c.run_id = r.id), '')
    FROM runs r;
DROP TABLE captures;
DROP TABLE runs;
ALTER TABLE runs_v2 RENAME TO runs;
ALTER TABLE captures_v2 RENAME TO captures;
CREATE INDEX runs_status ON runs(status);
CREATE INDEX captures_python_code ON captures(python_code_sha256);
CREATE INDEX captures_cache ON captures(cache_sha256);
CREATE INDEX captures_backend ON captures(backend);
CREATE TRIGGER runs_search_delete AFTER DELETE ON runs BEGIN
    DELETE FROM run_search WHERE rowid = old.id;
END;
)sql";

// v3: laid-out graphs, so that reopening a big graph skips its layout. A cache: rows may be
// deleted at any time (least recently used first, past a size budget) and nothing refers to them.
constexpr const char* kV3 = R"sql(
CREATE TABLE graph_layouts (
    key TEXT PRIMARY KEY NOT NULL,
    size INTEGER NOT NULL CHECK (size >= 0),
    codec TEXT NOT NULL CHECK (codec IN ('raw', 'zstd')),
    data BLOB NOT NULL,
    used_at INTEGER NOT NULL
);
CREATE INDEX graph_layouts_used ON graph_layouts(used_at);
)sql";

// v4: who stored a run and where it ran, its identity across libraries (library copy, push),
// and the outbox of runs kept here because the team library they were meant for was away.
constexpr const char* kV4 = R"sql(
ALTER TABLE runs ADD COLUMN uid TEXT;
ALTER TABLE runs ADD COLUMN ran_on TEXT NOT NULL DEFAULT '';
ALTER TABLE runs ADD COLUMN stored_by TEXT NOT NULL DEFAULT '';
ALTER TABLE runs ADD COLUMN stored_role TEXT NOT NULL DEFAULT '';
CREATE TABLE outbox (
    run_id INTEGER PRIMARY KEY REFERENCES runs(id) ON DELETE CASCADE,
    target TEXT NOT NULL,
    reason TEXT NOT NULL DEFAULT '',
    pushed_id INTEGER,
    pushed_at TEXT
);
)sql";

// v5: load checks of a run's pair at a target (`library check`, Check On…), kept with the run.
constexpr const char* kV5 = R"sql(
CREATE TABLE checks (
    id INTEGER PRIMARY KEY AUTOINCREMENT,
    run_id INTEGER NOT NULL REFERENCES runs(id) ON DELETE CASCADE,
    checked_at TEXT NOT NULL,
    target TEXT NOT NULL,
    outcome TEXT NOT NULL CHECK (outcome IN ('loads', 'fallback', 'refused', 'error')),
    runs INTEGER NOT NULL CHECK (runs IN (0, 1)),
    first_call_ms INTEGER,
    torch TEXT NOT NULL DEFAULT '',
    reason TEXT NOT NULL DEFAULT '',
    check_json TEXT NOT NULL DEFAULT '{}',
    checked_by TEXT NOT NULL DEFAULT '',
    checked_role TEXT NOT NULL DEFAULT ''
);
CREATE INDEX checks_run ON checks(run_id, target);
)sql";

std::int64_t sequenceOf(SqliteConnection& db, const char* table)
{
    if (db.queryInt("SELECT count(*) FROM sqlite_schema WHERE name = 'sqlite_sequence'") == 0)
        return 0;
    SqliteStatement st = db.prepare("SELECT seq FROM sqlite_sequence WHERE name = ?");
    st.bind(1, std::string_view(table));
    return st.step() ? st.integer(0) : 0;
}

void applyV2(SqliteConnection& db)
{
    // Rebuilding runs must not forget ids that were used and removed: keep AUTOINCREMENT's high
    // water mark.
    const std::int64_t seq = sequenceOf(db, "runs");
    db.exec(kV2);
    SqliteStatement st = db.prepare("UPDATE sqlite_sequence SET seq = ?1 WHERE name = 'runs' AND seq < ?1");
    st.bind(1, seq).run();
}

void applyV4(SqliteConnection& db)
{
    db.exec(kV4);
    // Existing runs get an identity and, from their report's worker, where they ran.
    SqliteStatement read = db.prepare("SELECT r.id, d.report_json FROM runs r JOIN run_documents d ON d.run_id = r.id");
    SqliteStatement write = db.prepare("UPDATE runs SET uid = ?, ran_on = ? WHERE id = ?");
    while (read.step()) {
        std::string ranOn;
        auto report = model::JsonLimits::parse(read.textView(1), ArtifactFiles::kMaxReportBytes, nullptr);
        if (report)
            if (const auto worker = model::WorkerInfo::fromJson(model::JsonFields::member(*report, "worker")))
                ranOn = worker->where();
        write.bind(1, std::string_view(PreparedRun::newUid()))
            .bind(2, std::string_view(ranOn))
            .bind(3, read.integer(0));
        write.run();
        write.reset();
    }
    db.exec("UPDATE runs SET uid = lower(hex(randomblob(16))) WHERE uid IS NULL");  // a run without document
    db.exec("CREATE UNIQUE INDEX runs_uid ON runs(uid)");
}

void apply(SqliteConnection& db, int version)
{
    switch (version) {
    case 1:
        db.exec(kV1);
        break;
    case 2:
        applyV2(db);
        break;
    case 3:
        db.exec(kV3);
        break;
    case 4:
        applyV4(db);
        break;
    case 5:
        db.exec(kV5);
        break;
    default:
        throw LibraryError(LibraryError::Kind::Invalid, db.path(), "no migration to schema " + std::to_string(version));
    }
}

/// Turns foreign keys back on however the migration ends.
class ForeignKeysOffScope {
public:
    explicit ForeignKeysOffScope(SqliteConnection& db) : db_(db) { db_.exec("PRAGMA foreign_keys = OFF"); }
    ~ForeignKeysOffScope()
    {
        try {
            db_.exec("PRAGMA foreign_keys = ON");
        } catch (...) {
        }
    }
    ForeignKeysOffScope(const ForeignKeysOffScope&) = delete;
    ForeignKeysOffScope& operator=(const ForeignKeysOffScope&) = delete;

private:
    SqliteConnection& db_;
};

}  // namespace

int SqliteSchema::inspect(SqliteConnection& db, bool allowNewer)
{
    // The first reads of a file: SQLite reports NOTADB or CORRUPT here, before anything is written.
    const std::int64_t tables = db.queryInt("SELECT count(*) FROM sqlite_schema");
    const std::int64_t applicationId = db.queryInt("PRAGMA application_id");
    const int version = static_cast<int>(db.queryInt("PRAGMA user_version"));
    if (applicationId != kApplicationId && (applicationId != 0 || tables != 0 || version != 0))
        throw LibraryError(LibraryError::Kind::NotLibrary, db.path(),
            "an SQLite database, but not a Precompile Studio library "
            "(application_id "
                + std::to_string(applicationId) + ", " + std::to_string(tables) + " schema objects)");
    if (version > kVersion && !allowNewer)
        throw LibraryError(LibraryError::Kind::NewerSchema, db.path(),
            "written by a newer Precompile Studio (library schema " + std::to_string(version)
                + "; this one knows up to " + std::to_string(kVersion)
                + "); left untouched, and it can be opened read-only");
    return version;
}

void SqliteSchema::migrate(SqliteConnection& db, int target)
{
    if (inspect(db) >= target)
        return;
    ForeignKeysOffScope fkOff(db);  // rebuilding a parent table must not cascade
    SqliteTransaction tx(db);
    const int from = inspect(db);  // again, under the write lock: another process may have won
    for (int v = from + 1; v <= target; ++v)
        apply(db, v);
    if (from < target) {
        SqliteStatement check = db.prepare("PRAGMA foreign_key_check");
        if (check.step())
            throw LibraryError(LibraryError::Kind::Corrupt, db.path(),
                "migration to schema " + std::to_string(target) + " found a broken reference in table "
                    + check.text(0));
        db.exec("PRAGMA application_id = " + std::to_string(kApplicationId));
        db.exec("PRAGMA user_version = " + std::to_string(target));
    }
    tx.commit();
}

}  // namespace ps::library
