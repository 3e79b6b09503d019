#pragma once

#include <cstdint>
#include <utility>

#include "library/core/LibraryRecords.h"

namespace ps::library {

class SqliteConnection;

/// Stores one run (ArtifactLibrary::insert): the report reconciled with the bytes it hashes,
/// its blobs, its captures and its search index row, in one short IMMEDIATE transaction; the
/// hashing and compressing happen before it. Thread contract: that of its SqliteConnection.
class SqliteRunWriter {
public:
    /// Runs are recorded as stored by `by` unless a NewRun names who stored it.
    SqliteRunWriter(SqliteConnection& db, Identity by) : db_(db), identity_(std::move(by)) { }

    /// Stores a run and returns its id. The report's artifact hashes, where present, must match
    /// the bytes; where absent they are filled in. A report that is not an object, nests deeper
    /// than JsonLimits allows or is larger than ArtifactFiles::kMaxReportBytes is Invalid.
    /// A run whose uid is stored already is not stored again: its id is returned.
    std::int64_t insert(const NewRun& run);

private:
    SqliteConnection& db_;
    Identity identity_;
};

}  // namespace ps::library
