#include "library/RunReader.h"

#include <algorithm>
#include <map>
#include <string>
#include <utility>

#include "library/ArtifactFiles.h"
#include "library/BlobCodec.h"
#include "library/BlobStore.h"
#include "library/Connection.h"
#include "library/LibraryError.h"
#include "library/SearchText.h"
#include "library/Statement.h"
#include "library/Transaction.h"
#include "model/JsonLimits.h"

namespace ps::library {

using json = nlohmann::json;
using Kind = LibraryError::Kind;

namespace {

/// A report read back from the file: a tampered library must not crash a reader, so the same
/// caps as on import apply (ArtifactFiles::kMaxReportBytes, JsonLimits::kMaxDepth).
json parseStored(std::string_view text, const Connection& db, const std::string& what)
{
    std::string why;
    auto value = model::JsonLimits::parse(text, ArtifactFiles::kMaxReportBytes, &why);
    if (!value)
        throw LibraryError(Kind::Corrupt, db.path(), what + " " + why);
    return std::move(*value);
}

// Listing fills thousands of these: assign in place from SQLite's buffers, no temporaries.
void readSummary(const Statement& st, RunSummary& s)
{
    s.id = st.integer(0);
    s.createdAt = st.textView(1);
    s.name = st.textView(2);
    s.scriptPath = st.textView(3);
    s.status = st.textView(4);
    s.message = st.textView(5);
    s.origin = st.textView(6) == toString(RunOrigin::Import) ? RunOrigin::Import : RunOrigin::Run;
    s.trusted = st.integer(7) != 0;
    s.uid = st.textView(8);
    s.ranOn = st.textView(9);
    s.storedBy.user = st.textView(10);
    s.storedBy.role = st.textView(11);
}

constexpr const char* kSummaryColumns
    = "r.id, r.created_at, r.name, r.script_path, r.status, r.message, r.origin, r.trusted, r.uid, r.ran_on, "
      "r.stored_by, r.stored_role";

void readCapture(const Statement& st, int first, CaptureRecord& c)
{
    c.index = static_cast<int>(st.integer(first));
    c.name = st.textView(first + 1);
    c.backend = st.textView(first + 2);
    c.tracer = st.textView(first + 3);
    c.status = st.textView(first + 4);
    if (!st.isNull(first + 5))
        c.invariant = static_cast<int>(st.integer(first + 5));
    c.message = st.textView(first + 6);
    if (!st.isNull(first + 7))
        c.pythonCodeSha256.emplace(st.textView(first + 7));
    if (!st.isNull(first + 8))
        c.cacheSha256.emplace(st.textView(first + 8));
}

constexpr const char* kCaptureColumns
    = "c.idx, c.name, c.backend, c.tracer, c.status, c.invariant, c.message, c.python_code_sha256, "
      "c.cache_sha256";

}  // namespace

std::vector<RunSummary> RunReader::list(const ListQuery& q) const
{
    std::string where;
    const std::string match = SearchText::ftsQuery(q.search);
    if (!q.status.empty())
        where += " AND r.status = ?1";
    if (!q.backend.empty())
        where += " AND EXISTS (SELECT 1 FROM captures b WHERE b.run_id = r.id AND b.backend = ?2)";
    if (!match.empty())
        where += " AND r.id IN (SELECT rowid FROM run_search WHERE run_search MATCH ?3)";
    if (SearchText::hasNoWords(q.search))
        return {};  // only punctuation: it matches nothing, as the index would say
    const std::string limit = q.limit > 0 ? " LIMIT " + std::to_string(q.limit) : std::string();
    const std::string runs
        = std::string("SELECT ") + kSummaryColumns + " FROM runs r WHERE 1" + where + " ORDER BY r.id DESC" + limit;
    const bool filtered = !where.empty() || !limit.empty();
    const std::string captures = std::string("SELECT c.run_id, ") + kCaptureColumns + " FROM captures c"
        + (filtered
                ? " WHERE c.run_id IN (SELECT r.id FROM runs r WHERE 1" + where + " ORDER BY r.id DESC" + limit + ")"
                : std::string())
        + " ORDER BY c.run_id, c.idx";  // the primary key's order: no sort
    const auto bindFilters = [&](Statement& st) {
        if (!q.status.empty())
            st.bind(1, std::string_view(q.status));
        if (!q.backend.empty())
            st.bind(2, std::string_view(q.backend));
        if (!match.empty())
            st.bind(3, std::string_view(match));
    };

    Transaction snapshot(db_, Transaction::Mode::Read);
    std::vector<RunSummary> out;
    std::int64_t bound = db_.queryInt("SELECT count(*) FROM runs");  // cheap; spares regrowth
    if (q.limit > 0)
        bound = std::min(bound, q.limit);
    out.reserve(static_cast<std::size_t>(bound));
    {
        Statement st = db_.prepare(runs);
        bindFilters(st);
        while (st.step())
            readSummary(st, out.emplace_back());
    }
    if (!out.empty()) {
        // Runs come newest first, captures in key order (oldest run first): merge from the back.
        Statement st = db_.prepare(captures);
        bindFilters(st);
        auto run = out.rbegin();
        while (st.step()) {
            const std::int64_t runId = st.integer(0);
            while (run != out.rend() && run->id < runId)
                ++run;
            if (run == out.rend())
                break;
            if (run->id == runId)
                readCapture(st, 1, run->captures.emplace_back());
        }
    }
    snapshot.commit();
    return out;
}

RunRecord RunReader::show(std::int64_t runId, bool checkBlobs) const
{
    Transaction snapshot(db_, Transaction::Mode::Read);
    RunRecord record;
    {
        Statement st = db_.prepare(std::string("SELECT ") + kSummaryColumns
            + ", d.script_text, d.report_json FROM runs r "
              "JOIN run_documents d ON d.run_id = r.id WHERE r.id = ?");
        st.bind(1, runId);
        if (!st.step())
            throw LibraryError(Kind::NotFound, db_.path(), "no run " + std::to_string(runId));
        readSummary(st, record.summary);
        record.scriptText = st.text(12);
        record.report = parseStored(st.textView(13), db_, "the report of run " + std::to_string(runId));
    }
    {
        Statement st = db_.prepare(std::string("SELECT ") + kCaptureColumns
            + ", pc.size, cc.size FROM captures c "
              "LEFT JOIN blobs pc ON pc.sha256 = c.python_code_sha256 "
              "LEFT JOIN blobs cc ON cc.sha256 = c.cache_sha256 "
              "WHERE c.run_id = ? ORDER BY c.idx");
        st.bind(1, runId);
        while (st.step()) {
            CaptureRecord& c = record.summary.captures.emplace_back();
            readCapture(st, 0, c);
            c.pythonCodeBytes = st.optionalInteger(9);
            c.cacheBytes = st.optionalInteger(10);
        }
    }
    record.report["run_id"] = runId;

    if (checkBlobs) {
        BlobStore blobs(db_);
        std::map<std::string, std::size_t> seen;
        for (const CaptureRecord& c : record.summary.captures) {
            for (const auto& [sha, role] :
                {std::pair{&c.pythonCodeSha256, "python_code"}, std::pair{&c.cacheSha256, "cache"}}) {
                if (!*sha)
                    continue;
                if (seen.count(**sha))
                    continue;
                if (auto problem = blobs.check(**sha)) {
                    seen.emplace(**sha, record.damaged.size());
                    record.damaged.push_back(BlobDamage{
                        **sha, role, BlobCodec::captureOwner(role, c.name, runId) + ": " + *problem, {runId}});
                } else {
                    seen.emplace(**sha, SIZE_MAX);
                }
            }
        }
    }
    snapshot.commit();
    return record;
}

CaptureArtifact RunReader::artifact(std::int64_t runId, int captureIndex) const
{
    Transaction snapshot(db_, Transaction::Mode::Read);
    Statement st = db_.prepare(
        "SELECT name, status, python_code_sha256, cache_sha256 FROM captures WHERE run_id = ? AND idx = ?");
    st.bind(1, runId).bind(2, std::int64_t{captureIndex});
    if (!st.step()) {
        Statement run = db_.prepare("SELECT 1 FROM runs WHERE id = ?");
        run.bind(1, runId);
        throw LibraryError(Kind::NotFound, db_.path(),
            run.step() ? "run " + std::to_string(runId) + " has no capture " + std::to_string(captureIndex)
                       : "no run " + std::to_string(runId));
    }
    CaptureArtifact out;
    out.index = captureIndex;
    out.name = st.text(0);
    const std::string status = st.text(1);
    const auto codeSha = st.optionalText(2), cacheSha = st.optionalText(3);
    if (!codeSha || !cacheSha)
        throw LibraryError(Kind::NotFound, db_.path(),
            "capture '" + out.name + "' of run " + std::to_string(runId) + " has no artifact (status " + status + ")");
    BlobStore blobs(db_);
    out.pythonCode = blobs.read(*codeSha, BlobCodec::captureOwner("python_code", out.name, runId));
    out.cache = blobs.read(*cacheSha, BlobCodec::captureOwner("cache", out.name, runId));
    snapshot.commit();
    return out;
}

}  // namespace ps::library
