#pragma once

// Plain data going into and coming out of the ArtifactLibrary: no handles, only std types and
// nlohmann::json (the schema-1 report, docs/report.schema.json).

#include <cstdint>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include <nlohmann/json.hpp>

#include "model/CaptureStatus.h"
#include "model/RunStatus.h"

namespace ps::library {

/// The word a status is stored and shown as: its name, or "unknown" for none.
inline std::string_view statusWord(const std::optional<model::RunStatus>& status)
{
    return status ? model::toString(*status) : std::string_view("unknown");
}
inline std::string_view statusWord(const std::optional<model::CaptureStatus>& status)
{
    return status ? model::toString(*status) : std::string_view("unknown");
}

/// How a run came into the library.
enum class RunOrigin {
    Run,     ///< stored by a run of the studio (its worker)
    Import,  ///< imported from an exported NAME.py with its NAME.cache and NAME.json
};

/// "run" or "import": the runs.origin column and `library ls --json`.
inline std::string_view toString(RunOrigin origin)
{
    return origin == RunOrigin::Import ? "import" : "run";
}

/// How a library is opened.
struct OpenOptions {
    bool create = true;     ///< create the library (a file and its folder; the tables) when missing
    bool readOnly = false;  ///< only read: never a write, never a migration
};

/// Who stores runs: the database role ("" in a file library, which has none) and the OS user.
struct Identity {
    std::string role;
    std::string user;
};

/// The bytes of one capture, index-aligned with report["captures"]. A capture that ended in
/// a violation has neither.
struct NewCapture {
    std::optional<std::string> pythonCode;  ///< python_code, stored byte-exact
    std::optional<std::string> cache;       ///< the torch.save'd cache, stored byte-exact
};

/// One run to insert: the report as the worker built it, plus what the report only hashes.
struct NewRun {
    nlohmann::json report;             ///< schema-1 report; "run_id" is ignored
    std::vector<NewCapture> captures;  ///< at most report["captures"].size() entries
    std::string scriptText;            ///< the script's source, for display and search
    std::string name;                  ///< display name; empty: report["name"], else the script's stem
    RunOrigin origin = RunOrigin::Run;
    bool trusted = true;  ///< imports arrive untrusted
    /// Kept from another library by `library copy` and `push`; empty: made here and now.
    std::string uid;                   ///< the run's identity across libraries; empty: a new one
    std::string createdAt;             ///< empty: now
    std::optional<Identity> storedBy;  ///< nullopt: the store's own identity
};

/// One capture row: what the report says of it, plus the blob keys.
struct CaptureRecord {
    int index = 0;
    std::string name;
    std::string backend;
    std::string tracer;
    std::optional<model::CaptureStatus> status;  ///< nullopt: the stored word names no status
    std::optional<int> invariant;
    std::string message;
    std::optional<std::string> pythonCodeSha256;
    std::optional<std::string> cacheSha256;
    std::optional<std::int64_t> pythonCodeBytes;  ///< filled by show(), not by list()
    std::optional<std::int64_t> cacheBytes;       ///< filled by show(), not by list()
};

/// One load check of a run's pair at a target, as the library keeps it (`library check`, the
/// window's Check On…): where it was checked, the outcome and why, and who checked it.
struct CheckRecord {
    std::int64_t id = 0;     ///< filled by the store
    std::int64_t runId = 0;  ///< filled by the store
    std::string checkedAt;   ///< ISO 8601 UTC; filled by the store
    std::string target;      ///< the target's label: an environment's path, a host's name
    std::string outcome;     ///< model::CheckOutcome's word: loads, fallback, refused, error
    bool runs = false;       ///< it ran there and gave eager's numbers (LoadCheck::runs)
    std::optional<std::int64_t> firstCallMs;
    std::string torch;   ///< torch there; "" unknown
    std::string reason;  ///< the check's reason, or why there was none
    /// The report's whole check object (null: none); read by checks(), left null by list().
    nlohmann::json check;
    Identity checkedBy;  ///< filled by the store: its identity (in a team library, the server's role)
};

/// One line of `library ls`.
struct RunSummary {
    std::int64_t id = 0;
    std::string createdAt;  ///< ISO 8601, UTC, e.g. 2026-12-02T16:40:43.123Z
    std::string name;
    std::string scriptPath;
    std::optional<model::RunStatus> status;  ///< nullopt: stored as "unknown" (a report without one)
    std::string message;
    RunOrigin origin = RunOrigin::Run;
    bool trusted = true;
    std::string uid;    ///< the same in every library the run is copied into
    std::string ranOn;  ///< where it ran: "gpu-box · 1x NVIDIA H200"; "" unknown
    Identity storedBy;  ///< who stored it; empty in libraries older than schema 4
    std::vector<CaptureRecord> captures;
    /// The latest check at each target, by target (list() and show(); their `check` is null).
    std::vector<CheckRecord> checks;
};

/// A blob that failed its check, and who refers to it.
struct BlobDamage {
    std::string sha256;
    std::string role;                  ///< "python_code", "cache" or "" when several
    std::string detail;                ///< what is wrong, e.g. "its content hashes to ..."
    std::vector<std::int64_t> runIds;  ///< runs whose captures refer to it
};

/// A whole run, as `library show` gives it.
struct RunRecord {
    RunSummary summary;
    std::string scriptText;
    nlohmann::json report;            ///< the stored schema-1 report with run_id set
    std::vector<BlobDamage> damaged;  ///< blobs of this run that failed their check
};

/// The verified bytes of one capture.
struct CaptureArtifact {
    int index = 0;  ///< the capture's position in the run
    std::string name;
    std::string pythonCode;
    std::string cache;
};

struct ListQuery {
    std::string search;                      ///< full-text over names, script path and text, messages
    std::optional<model::RunStatus> status;  ///< runs of this status only
    std::string backend;                     ///< runs with at least one capture on this backend
    std::int64_t limit = 0;                  ///< 0: all
};

struct VerifyReport {
    std::vector<std::string> integrityErrors;  ///< integrity_check, foreign keys, search index
    std::vector<BlobDamage> damaged;
    std::vector<std::string> runProblems;  ///< rows no studio writes (RunDocumentCheck), "run N: ..."
    std::int64_t blobsChecked = 0;
    std::int64_t bytesChecked = 0;  ///< uncompressed bytes hashed
    bool ok() const { return integrityErrors.empty() && damaged.empty() && runProblems.empty(); }
};

/// A run kept in the local library because the team library it was meant for was away.
struct OutboxEntry {
    std::int64_t runId = 0;
    std::string target;                    ///< the team library it was meant for (its password left out)
    std::string reason;                    ///< why it could not be stored there
    std::optional<std::int64_t> pushedId;  ///< its id there once pushed
    std::string pushedAt;
};

struct GcResult {
    std::int64_t blobsRemoved = 0;
    std::int64_t bytesRemoved = 0;  ///< stored (compressed) bytes
    std::int64_t fileBytesBefore = 0;
    std::int64_t fileBytesAfter = 0;
};

}  // namespace ps::library
