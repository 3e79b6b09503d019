#pragma once

#include <cstdint>

#include "library/LibraryRecords.h"

namespace ps::library {

class Connection;

/// Stores one run (ArtifactLibrary::insert): the report reconciled with the bytes it hashes,
/// its blobs, its captures and its search index row, in one short IMMEDIATE transaction; the
/// hashing and compressing happen before it. Thread contract: that of its Connection.
class RunWriter {
public:
    explicit RunWriter(Connection& db) : db_(db) { }

    /// Stores a run and returns its id. The report's artifact hashes, where present, must match
    /// the bytes; where absent they are filled in. A report that is not an object, nests deeper
    /// than JsonLimits allows or is larger than ArtifactFiles::kMaxReportBytes is Invalid.
    std::int64_t insert(const NewRun& run);

private:
    Connection& db_;
};

}  // namespace ps::library
