#pragma once

#include <cstdint>

#include "library/core/LibraryRecords.h"

namespace ps::library {

class PostgresConnection;

/// Stores one run in a team library (PostgresStore::insert): its blobs (sorted by key, so that
/// two writers sharing blobs never deadlock; a blob written once however many runs share it),
/// its row, document and captures, in one transaction; hashing, checking stored copies and
/// compressing happen before it. A run whose uid is there already is not stored again, also
/// when another writer stores it at the same moment. Thread contract: that of its connection.
class PostgresRunWriter {
public:
    PostgresRunWriter(PostgresConnection& db, Identity by) : db_(db), identity_(std::move(by)) { }
    std::int64_t insert(const NewRun& run);

private:
    PostgresConnection& db_;
    Identity identity_;
};

}  // namespace ps::library
