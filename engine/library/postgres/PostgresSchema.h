#pragma once

#include <optional>
#include <string>

namespace ps::library {

class PostgresConnection;

/// The team library's tables in PostgreSQL and their forward migrations. The version lives in
/// the one-row table studio_library (with the application's name, so that someone else's
/// database is recognised and left alone); each migration runs in one transaction under an
/// advisory lock, so that many studios opening a new database at once create it once.
///
/// v1: blobs (bytea, stored without PostgreSQL's own compression: they are zstd already), runs
///     (with uid, ran_on, stored_by, stored_role and a tsvector for search, GIN-indexed),
///     run_documents, captures, graph_layouts: the SQLite library's schema 4, in PostgreSQL's
///     types.
/// v2: runs.stored_role set by the server (a trigger: the session's login role), never by the
///     client.
class PostgresSchema {
public:
    static constexpr int kVersion = 3;

    /// The database's version (0: empty, ours to create). Throws NotLibrary (tables of
    /// someone else's) or, unless `allowNewer`, NewerSchema.
    static int inspect(PostgresConnection& db, bool allowNewer = false);
    /// Brings the database to kVersion; a no-op when it is there already.
    static void migrate(PostgresConnection& db);
    /// Why who stored a run cannot be believed (v2's trigger dropped or disabled by the tables'
    /// owner), or nullopt.
    static std::optional<std::string> roleGuardProblem(PostgresConnection& db);
};

}  // namespace ps::library
