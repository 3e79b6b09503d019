#include "library/postgres/PostgresSchema.h"

#include <string>

#include "library/core/LibraryError.h"
#include "library/postgres/PostgresConnection.h"
#include "library/postgres/PostgresTransaction.h"

namespace ps::library {

namespace {

constexpr const char* kApplication = "precompile-studio";
// pg_advisory_xact_lock's key: "PSLB".
constexpr const char* kLock = "SELECT pg_advisory_xact_lock(1347636290)";

constexpr const char* kPgV1 = R"sql(
CREATE TABLE studio_library (
    application TEXT NOT NULL,
    version INTEGER NOT NULL
);
CREATE TABLE blobs (
    sha256 TEXT PRIMARY KEY CHECK (length(sha256) = 64),
    size BIGINT NOT NULL CHECK (size >= 0),
    codec TEXT NOT NULL CHECK (codec IN ('raw', 'zstd')),
    data BYTEA NOT NULL
);
ALTER TABLE blobs ALTER COLUMN data SET STORAGE EXTERNAL;
CREATE TABLE runs (
    id BIGSERIAL PRIMARY KEY,
    uid TEXT NOT NULL UNIQUE,
    created_at TEXT NOT NULL,
    name TEXT NOT NULL,
    status TEXT NOT NULL,
    origin TEXT NOT NULL DEFAULT 'run' CHECK (origin IN ('run', 'import')),
    trusted BOOLEAN NOT NULL DEFAULT TRUE,
    script_path TEXT NOT NULL,
    message TEXT NOT NULL DEFAULT '',
    ran_on TEXT NOT NULL DEFAULT '',
    stored_by TEXT NOT NULL DEFAULT '',
    stored_role TEXT NOT NULL DEFAULT '',
    search TSVECTOR NOT NULL
);
CREATE INDEX runs_status ON runs(status);
CREATE INDEX runs_search ON runs USING GIN (search);
CREATE TABLE run_documents (
    run_id BIGINT PRIMARY KEY REFERENCES runs(id) ON DELETE CASCADE,
    report_json TEXT NOT NULL,
    script_text TEXT NOT NULL DEFAULT ''
);
CREATE TABLE captures (
    run_id BIGINT NOT NULL REFERENCES runs(id) ON DELETE CASCADE,
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
);
CREATE INDEX captures_python_code ON captures(python_code_sha256);
CREATE INDEX captures_cache ON captures(cache_sha256);
CREATE INDEX captures_backend ON captures(backend);
CREATE TABLE graph_layouts (
    key TEXT PRIMARY KEY,
    size BIGINT NOT NULL CHECK (size >= 0),
    codec TEXT NOT NULL CHECK (codec IN ('raw', 'zstd')),
    data BYTEA NOT NULL,
    used_at BIGINT NOT NULL
);
CREATE INDEX graph_layouts_used ON graph_layouts(used_at);
)sql";

// v2: who stored a run is the server's word, not the client's. Whatever an INSERT (or an UPDATE
// of the column) says, the row gets the session's login role: a member cannot store a run as
// someone else's, and trust given to a role's runs holds.
constexpr const char* kPgV2 = R"sql(
CREATE FUNCTION studio_stored_role() RETURNS trigger LANGUAGE plpgsql AS $fn$
BEGIN
    NEW.stored_role := session_user;
    RETURN NEW;
END
$fn$;
CREATE TRIGGER runs_stored_role BEFORE INSERT OR UPDATE OF stored_role ON runs
    FOR EACH ROW EXECUTE FUNCTION studio_stored_role();
)sql";

// v3: load checks of a run's pair at a target (`library check`, Check On…). Who checked is the
// server's word too: a member cannot record a check as someone else's.
constexpr const char* kPgV3 = R"sql(
CREATE TABLE checks (
    id BIGSERIAL PRIMARY KEY,
    run_id BIGINT NOT NULL REFERENCES runs(id) ON DELETE CASCADE,
    checked_at TEXT NOT NULL,
    target TEXT NOT NULL,
    outcome TEXT NOT NULL CHECK (outcome IN ('loads', 'fallback', 'refused', 'error')),
    runs INTEGER NOT NULL CHECK (runs IN (0, 1)),
    first_call_ms BIGINT,
    torch TEXT NOT NULL DEFAULT '',
    reason TEXT NOT NULL DEFAULT '',
    check_json TEXT NOT NULL DEFAULT '{}',
    checked_by TEXT NOT NULL DEFAULT '',
    checked_role TEXT NOT NULL DEFAULT ''
);
CREATE INDEX checks_run ON checks(run_id, target);
CREATE FUNCTION studio_checked_role() RETURNS trigger LANGUAGE plpgsql AS $fn$
BEGIN
    NEW.checked_role := session_user;
    RETURN NEW;
END
$fn$;
CREATE TRIGGER checks_checked_role BEFORE INSERT OR UPDATE OF checked_role ON checks
    FOR EACH ROW EXECUTE FUNCTION studio_checked_role();
)sql";

}  // namespace

std::optional<std::string> PostgresSchema::roleGuardProblem(PostgresConnection& db)
{
    const PostgresResult r = db.exec("SELECT tgenabled FROM pg_catalog.pg_trigger WHERE tgname = 'runs_stored_role' "
                                     "AND tgrelid = 'runs'::regclass");
    if (r.rows() == 0)
        return std::string("the trigger that records who stored each run (runs_stored_role) is missing: "
                           "a member could store a run as someone else's");
    if (r.text(0, 0) == "D")
        return std::string("the trigger that records who stored each run (runs_stored_role) is disabled: "
                           "a member could store a run as someone else's");
    return std::nullopt;
}

int PostgresSchema::inspect(PostgresConnection& db, bool allowNewer)
{
    // One statement, one snapshot: a studio creating the tables meanwhile commits them all at
    // once, so they are seen all or none (two queries could see none, then all but ours).
    const PostgresResult seen
        = db.exec("SELECT count(*) FILTER (WHERE tablename = 'studio_library'), count(*), current_schema() "
                  "FROM pg_catalog.pg_tables WHERE schemaname = current_schema()");
    if (seen.integer(0, 0) == 0) {
        const std::int64_t tables = seen.integer(0, 1);
        if (tables > 0)
            throw LibraryError(LibraryError::Kind::NotLibrary, db.location(),
                "a database, but not a Precompile Studio library (" + std::to_string(tables)
                    + " tables of someone else's in schema " + std::string(seen.text(0, 2)) + ")");
        return 0;
    }
    const PostgresResult row = db.exec("SELECT application, version FROM studio_library");
    if (row.rows() != 1 || row.text(0, 0) != kApplication)
        throw LibraryError(LibraryError::Kind::NotLibrary, db.location(),
            "a database with a studio_library table that is not Precompile Studio's");
    const int version = static_cast<int>(row.integer(0, 1));
    if (version > kVersion && !allowNewer)
        throw LibraryError(LibraryError::Kind::NewerSchema, db.location(),
            "written by a newer Precompile Studio (library schema " + std::to_string(version)
                + "; this one knows up to " + std::to_string(kVersion)
                + "); left untouched, and it can be opened read-only");
    return version;
}

void PostgresSchema::migrate(PostgresConnection& db)
{
    if (inspect(db) >= kVersion)
        return;
    PostgresTransaction tx(db);
    db.run(kLock);
    const int from = inspect(db);  // again, under the lock: another studio may have won
    if (from >= kVersion)
        return;
    if (from < 1) {
        db.run(kPgV1);
        db.exec("INSERT INTO studio_library (application, version) VALUES ($1, 1)", {kApplication});
    }
    if (from < 2)
        db.run(kPgV2);
    if (from < 3)
        db.run(kPgV3);
    db.exec("UPDATE studio_library SET version = $1", {kVersion});
    tx.commit();
}

}  // namespace ps::library
