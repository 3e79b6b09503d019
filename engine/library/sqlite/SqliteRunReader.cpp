#include "library/sqlite/SqliteRunReader.h"

#include <algorithm>
#include <map>
#include <string>
#include <utility>

#include "library/core/ArtifactFiles.h"
#include "library/core/BlobCodec.h"
#include "library/core/CheckColumns.h"
#include "library/core/LibraryError.h"
#include "library/core/RunColumns.h"
#include "library/core/SearchText.h"
#include "library/sqlite/SqliteBlobStore.h"
#include "library/sqlite/SqliteConnection.h"
#include "library/sqlite/SqliteRow.h"
#include "library/sqlite/SqliteStatement.h"
#include "library/sqlite/SqliteTransaction.h"
#include "model/JsonLimits.h"

namespace ps::library {

using json = nlohmann::json;
using Kind = LibraryError::Kind;

namespace {

/// A report read back from the file: a tampered library must not crash a reader, so the same
/// caps as on import apply (ArtifactFiles::kMaxReportBytes, JsonLimits::kMaxDepth).
json parseStored(std::string_view text, const SqliteConnection& db, const std::string& what)
{
    std::string why;
    auto value = model::JsonLimits::parse(text, ArtifactFiles::kMaxReportBytes, &why);
    if (!value)
        throw LibraryError(Kind::Corrupt, db.path(), what + " " + why);
    return std::move(*value);
}

void readSummary(const SqliteStatement& st, RunSummary& s)
{
    RunColumns::readSummary(SqliteRow{st}, s);
}

void readCapture(const SqliteStatement& st, int first, CaptureRecord& c)
{
    RunColumns::readCapture(SqliteRow{st}, first, c);
}

/// The latest check at each target of every run, or of run `runId` (> 0).
std::vector<CheckRecord> latestChecks(SqliteConnection& db, std::int64_t runId)
{
    std::vector<CheckRecord> out;
    SqliteStatement st = db.prepare("SELECT " + CheckColumns::list() + " FROM checks k WHERE "
        + std::string(CheckColumns::kLatestPerTarget) + (runId > 0 ? " AND k.run_id = ?" : "")
        + " ORDER BY k.run_id, k.target");
    if (runId > 0)
        st.bind(1, runId);
    while (st.step())
        CheckColumns::read(SqliteRow{st}, 0, out.emplace_back());
    return out;
}

}  // namespace

std::vector<RunSummary> SqliteRunReader::list(const ListQuery& q) const
{
    std::string where;
    const std::string match = SearchText::ftsQuery(q.search);
    if (q.status)
        where += " AND r.status = ?1";
    if (!q.backend.empty())
        where += " AND EXISTS (SELECT 1 FROM captures b WHERE b.run_id = r.id AND b.backend = ?2)";
    if (!match.empty())
        where += " AND r.id IN (SELECT rowid FROM run_search WHERE run_search MATCH ?3)";
    if (SearchText::hasNoWords(q.search))
        return {};  // only punctuation: it matches nothing, as the index would say
    const std::string limit = q.limit > 0 ? " LIMIT " + std::to_string(q.limit) : std::string();
    const std::string runs = std::string("SELECT ") + RunColumns::summaryList() + " FROM runs r WHERE 1" + where
        + " ORDER BY r.id DESC" + limit;
    const bool filtered = !where.empty() || !limit.empty();
    const std::string captures = std::string("SELECT c.run_id, ") + RunColumns::captureList() + " FROM captures c"
        + (filtered
                ? " WHERE c.run_id IN (SELECT r.id FROM runs r WHERE 1" + where + " ORDER BY r.id DESC" + limit + ")"
                : std::string())
        + " ORDER BY c.run_id, c.idx";  // the primary key's order: no sort
    const auto bindFilters = [&](SqliteStatement& st) {
        if (q.status)
            st.bind(1, model::toString(*q.status));
        if (!q.backend.empty())
            st.bind(2, std::string_view(q.backend));
        if (!match.empty())
            st.bind(3, std::string_view(match));
    };

    SqliteTransaction snapshot(db_, SqliteTransaction::Mode::Read);
    std::vector<RunSummary> out;
    std::int64_t bound = db_.queryInt("SELECT count(*) FROM runs");  // cheap; spares regrowth
    if (q.limit > 0)
        bound = std::min(bound, q.limit);
    out.reserve(static_cast<std::size_t>(bound));
    {
        SqliteStatement st = db_.prepare(runs);
        bindFilters(st);
        while (st.step())
            readSummary(st, out.emplace_back());
    }
    if (!out.empty()) {
        // Runs come newest first, captures in key order (oldest run first): merge from the back.
        SqliteStatement st = db_.prepare(captures);
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
        CheckColumns::attach(out, latestChecks(db_, 0));
    }
    snapshot.commit();
    return out;
}

RunRecord SqliteRunReader::show(std::int64_t runId, bool checkBlobs) const
{
    SqliteTransaction snapshot(db_, SqliteTransaction::Mode::Read);
    RunRecord record;
    {
        SqliteStatement st = db_.prepare(std::string("SELECT ") + RunColumns::summaryList()
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
        SqliteStatement st = db_.prepare(std::string("SELECT ") + RunColumns::captureList()
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
    if (record.report.is_object())  // a crafted row may hold any JSON: RunDocumentCheck names it
        record.report["run_id"] = runId;
    record.summary.checks = latestChecks(db_, runId);

    if (checkBlobs) {
        SqliteBlobStore blobs(db_);
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

std::vector<CheckRecord> SqliteRunReader::checks(std::int64_t runId) const
{
    std::vector<CheckRecord> out;
    SqliteStatement st = db_.prepare(
        "SELECT " + CheckColumns::list() + ", k.check_json FROM checks k WHERE k.run_id = ? ORDER BY k.id DESC");
    st.bind(1, runId);
    constexpr int kJson = static_cast<int>(CheckColumns::Column::CheckedRole) + 1;
    while (st.step()) {
        CheckRecord& c = out.emplace_back();
        CheckColumns::read(SqliteRow{st}, 0, c);
        c.check = CheckColumns::parseCheck(st.textView(kJson));
    }
    return out;
}

CaptureArtifact SqliteRunReader::artifact(std::int64_t runId, int captureIndex) const
{
    SqliteTransaction snapshot(db_, SqliteTransaction::Mode::Read);
    SqliteStatement st = db_.prepare(
        "SELECT name, status, python_code_sha256, cache_sha256 FROM captures WHERE run_id = ? AND idx = ?");
    st.bind(1, runId).bind(2, std::int64_t{captureIndex});
    if (!st.step()) {
        SqliteStatement run = db_.prepare("SELECT 1 FROM runs WHERE id = ?");
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
    SqliteBlobStore blobs(db_);
    out.pythonCode = blobs.read(*codeSha, BlobCodec::captureOwner("python_code", out.name, runId));
    out.cache = blobs.read(*cacheSha, BlobCodec::captureOwner("cache", out.name, runId));
    snapshot.commit();
    return out;
}

}  // namespace ps::library
