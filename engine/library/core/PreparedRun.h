#pragma once

#include <optional>
#include <string>
#include <vector>

#include "library/core/BlobCodec.h"
#include "library/core/LibraryRecords.h"

namespace ps::library {

/// A run made ready to store, the same for every store and with no database in sight: its
/// report checked (an object, nested no deeper than JsonLimits allows, captures a list, no more
/// artifacts than captures, at most ArtifactFiles::kMaxReportBytes), each artifact hashed and
/// its hash reconciled with the report's, and the values of its rows worked out.
struct PreparedRun {
    struct Capture {
        std::string name, backend, tracer, status, message;
        std::optional<int> invariant;
        std::optional<BlobCodec::Encoded> code, cache;  ///< hashed; raw views into the NewRun
    };

    std::string uid;        ///< the NewRun's, or a new random one
    std::string createdAt;  ///< the NewRun's, or now (ISO 8601 UTC with milliseconds)
    std::string name;       ///< given, else the report's, the script's stem, the first capture's, "run"
    std::string status;     ///< "unknown" when the report has none
    std::string scriptPath;
    std::string message;
    std::string ranOn;        ///< WorkerInfo::where() of the report's worker; "" when it has none
    std::string searchWords;  ///< what search finds a run by, beyond its name, script path and text
    std::string reportText;   ///< the report as stored: captures' hashes reconciled, no run_id
    std::vector<Capture> captures;

    /// Throws LibraryError(Invalid, location, ...) for a run that cannot be stored. The result
    /// refers to `run`'s bytes: `run` must outlive it.
    static PreparedRun from(const NewRun& run, const std::string& location);

    /// "2026-12-04T23:41:07.123Z".
    static std::string now();
    /// 32 lowercase hex digits from the system's random source.
    static std::string newUid();
};

}  // namespace ps::library
