#pragma once

#include <cstdint>

namespace ps::library {

class SqliteConnection;

/// The library's tables and their forward migrations. The version lives in PRAGMA user_version,
/// the owner in PRAGMA application_id; each migration step is code, applied in order inside one
/// IMMEDIATE transaction, so a library is at one version or the next, never in between.
///
/// v1: blobs, runs, captures.
/// v2: origin and trusted (imports); the report and script moved to run_documents so that
///     runs and captures, which listing scans, stay narrow; FTS5 search; status/backend indexes.
/// v3: graph_layouts, the graph view's layout cache (see ArtifactLibrary::storeLayout).
/// v4: runs.uid (a run's identity across libraries), ran_on, stored_by, stored_role; outbox.
/// v5: checks, the load checks of a run's pair (`library check`, Check On…).
class SqliteSchema {
public:
    static constexpr int kVersion = 5;
    static constexpr std::int64_t kApplicationId = 0x50534C42;  // "PSLB"

    /// Reads the file's version without writing anything. Throws NotSqlite / Corrupt (from
    /// SQLite), NotLibrary (someone else's database) or NewerSchema (unless `allowNewer`: a
    /// newer studio only adds to the schema, so this one can still read what it knows).
    static int inspect(SqliteConnection& db, bool allowNewer = false);

    /// Brings the database to `target` (default: the current version). A no-op when it is
    /// there already, also when another process migrated it while this one waited.
    static void migrate(SqliteConnection& db, int target = kVersion);
};

}  // namespace ps::library
