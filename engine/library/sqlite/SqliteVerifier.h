#pragma once

#include "library/core/LibraryRecords.h"

namespace ps::library {

class SqliteConnection;

/// `library verify` (ArtifactLibrary::verify): PRAGMA integrity_check, foreign keys, the search
/// index, and every blob against its hash, in one read snapshot. It never takes the write lock,
/// so it runs beside a writer and on a library opened read-only. Damage is reported, not
/// thrown; only a library that cannot be read at all throws. Thread contract: that of its
/// SqliteConnection.
class SqliteVerifier {
public:
    explicit SqliteVerifier(SqliteConnection& db) : db_(db) { }

    VerifyReport verify() const;

private:
    SqliteConnection& db_;
};

}  // namespace ps::library
