#include "library/postgres/PostgresRunReader.h"

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
#include "library/postgres/PostgresConnection.h"
#include "library/postgres/PostgresRow.h"
#include "library/postgres/PostgresTransaction.h"
#include "model/JsonLimits.h"

namespace ps::library {

using json = nlohmann::json;
using Kind = LibraryError::Kind;
using Param = PostgresConnection::Param;

namespace {

void readSummary(const PostgresResult& r, int row, RunSummary& s)
{
    RunColumns::readSummary(PostgresRow{r, row}, s);
}

void readCapture(const PostgresResult& r, int row, int first, CaptureRecord& c)
{
    RunColumns::readCapture(PostgresRow{r, row}, first, c);
}

/// The latest check at each target of every run, or of run `runId` (> 0).
std::vector<CheckRecord> latestChecks(PostgresConnection& db, std::int64_t runId)
{
    std::vector<PostgresConnection::Param> params;
    if (runId > 0)
        params.emplace_back(runId);
    const PostgresResult r = db.exec("SELECT " + CheckColumns::list() + " FROM checks k WHERE "
            + std::string(CheckColumns::kLatestPerTarget) + (runId > 0 ? " AND k.run_id = $1" : "")
            + " ORDER BY k.run_id, k.target",
        params);
    std::vector<CheckRecord> out(static_cast<std::size_t>(r.rows()));
    for (int i = 0; i < r.rows(); ++i)
        CheckColumns::read(PostgresRow{r, i}, 0, out[static_cast<std::size_t>(i)]);
    return out;
}

}  // namespace

std::vector<RunSummary> PostgresRunReader::list(const ListQuery& q) const
{
    if (SearchText::hasNoWords(q.search))
        return {};  // only punctuation: it matches nothing
    std::vector<Param> params;
    std::string where;
    const auto add = [&](const std::string& clause, const std::string& value) {
        params.emplace_back(value);
        std::string c = clause;
        c.replace(c.find('?'), 1, "$" + std::to_string(params.size()));
        where += " AND " + c;
    };
    if (q.status)
        add("r.status = ?", std::string(model::toString(*q.status)));
    if (!q.backend.empty())
        add("EXISTS (SELECT 1 FROM captures b WHERE b.run_id = r.id AND b.backend = ?)", q.backend);
    const std::string match = SearchText::tsQuery(q.search);
    if (!match.empty())
        add("r.search @@ to_tsquery('simple', ?)", match);
    const std::string limit = q.limit > 0 ? " LIMIT " + std::to_string(q.limit) : std::string();
    const std::string runs = std::string("SELECT ") + RunColumns::summaryList() + " FROM runs r WHERE TRUE" + where
        + " ORDER BY r.id DESC" + limit;
    const bool filtered = !where.empty() || !limit.empty();

    PostgresTransaction snapshot(db_, PostgresTransaction::Mode::Read);
    if (!match.empty()) {
        // A search matching a tenth of 100,000 runs: the planner's default random_page_cost (4)
        // chose a scan of every run's words (50 ms) over the GIN index (19 ms), the cost of
        // matching a tsvector being underestimated. Pages of a library are cached or on SSD.
        db_.run("SET LOCAL random_page_cost = 1.1");
    }
    std::vector<RunSummary> out;
    const PostgresResult runRows = db_.exec(runs, params);
    out.resize(static_cast<std::size_t>(runRows.rows()));
    for (int i = 0; i < runRows.rows(); ++i)
        readSummary(runRows, i, out[static_cast<std::size_t>(i)]);
    if (!out.empty()) {
        // The captures of the runs found: all of them, or of the ids the filter gave (not the
        // filter again: a search is matched once).
        std::vector<Param> ids;
        if (filtered) {
            std::string array = "{";
            for (const RunSummary& s : out)
                array += (array.size() > 1 ? "," : "") + std::to_string(s.id);
            ids.emplace_back(array + "}");
        }
        const std::string captures = std::string("SELECT c.run_id, ") + RunColumns::captureList() + " FROM captures c"
            + (filtered ? " WHERE c.run_id = ANY($1::bigint[])" : "") + " ORDER BY c.run_id DESC, c.idx";
        // Both newest first: one merge.
        const PostgresResult captureRows = db_.exec(captures, ids);
        auto run = out.begin();
        for (int i = 0; i < captureRows.rows(); ++i) {
            const std::int64_t runId = captureRows.integer(i, 0);
            while (run != out.end() && run->id > runId)
                ++run;
            if (run == out.end())
                break;
            if (run->id == runId)
                readCapture(captureRows, i, 1, run->captures.emplace_back());
        }
        if (hasChecks_)
            CheckColumns::attach(out, latestChecks(db_, 0));
    }
    snapshot.commit();
    return out;
}

RunRecord PostgresRunReader::show(std::int64_t runId, bool checkBlobs) const
{
    PostgresTransaction snapshot(db_, PostgresTransaction::Mode::Read);
    RunRecord record;
    {
        const PostgresResult r = db_.exec(std::string("SELECT ") + RunColumns::summaryList()
                + ", d.script_text, d.report_json FROM runs r JOIN run_documents d ON d.run_id = r.id WHERE r.id = $1",
            {runId});
        if (r.rows() == 0)
            throw LibraryError(Kind::NotFound, db_.location(), "no run " + std::to_string(runId));
        readSummary(r, 0, record.summary);
        record.scriptText = r.text(0, 12);
        std::string why;
        auto report = model::JsonLimits::parse(r.text(0, 13), ArtifactFiles::kMaxReportBytes, &why);
        if (!report)
            throw LibraryError(Kind::Corrupt, db_.location(), "the report of run " + std::to_string(runId) + " " + why);
        record.report = std::move(*report);
    }
    {
        const PostgresResult r = db_.exec(std::string("SELECT ") + RunColumns::captureList()
                + ", pc.size, cc.size FROM captures c LEFT JOIN blobs pc ON pc.sha256 = c.python_code_sha256 "
                  "LEFT JOIN blobs cc ON cc.sha256 = c.cache_sha256 WHERE c.run_id = $1 ORDER BY c.idx",
            {runId});
        for (int i = 0; i < r.rows(); ++i) {
            CaptureRecord& c = record.summary.captures.emplace_back();
            readCapture(r, i, 0, c);
            if (!r.isNull(i, 9))
                c.pythonCodeBytes = r.integer(i, 9);
            if (!r.isNull(i, 10))
                c.cacheBytes = r.integer(i, 10);
        }
    }
    if (record.report.is_object())  // a crafted row may hold any JSON: RunDocumentCheck names it
        record.report["run_id"] = runId;
    if (hasChecks_)
        record.summary.checks = latestChecks(db_, runId);
    if (checkBlobs) {
        std::map<std::string, bool> seen;
        for (const CaptureRecord& c : record.summary.captures) {
            for (const auto& [sha, role] :
                {std::pair{&c.pythonCodeSha256, "python_code"}, std::pair{&c.cacheSha256, "cache"}}) {
                if (!*sha || !seen.emplace(**sha, true).second)
                    continue;
                if (auto problem = checkBlob(db_, **sha))
                    record.damaged.push_back(BlobDamage{
                        **sha, role, BlobCodec::captureOwner(role, c.name, runId) + ": " + *problem, {runId}});
            }
        }
    }
    snapshot.commit();
    return record;
}

std::vector<CheckRecord> PostgresRunReader::checks(std::int64_t runId) const
{
    if (!hasChecks_)
        return {};
    const PostgresResult r = db_.exec(
        "SELECT " + CheckColumns::list() + ", k.check_json FROM checks k WHERE k.run_id = $1 ORDER BY k.id DESC",
        {runId});
    constexpr int kJson = static_cast<int>(CheckColumns::Column::CheckedRole) + 1;
    std::vector<CheckRecord> out(static_cast<std::size_t>(r.rows()));
    for (int i = 0; i < r.rows(); ++i) {
        CheckRecord& c = out[static_cast<std::size_t>(i)];
        CheckColumns::read(PostgresRow{r, i}, 0, c);
        c.check = CheckColumns::parseCheck(r.text(i, kJson));
    }
    return out;
}

CaptureArtifact PostgresRunReader::artifact(std::int64_t runId, int captureIndex) const
{
    PostgresTransaction snapshot(db_, PostgresTransaction::Mode::Read);
    const PostgresResult r
        = db_.exec("SELECT name, status, python_code_sha256, cache_sha256 FROM captures WHERE run_id = $1 AND idx = $2",
            {runId, captureIndex});
    if (r.rows() == 0) {
        const bool runExists = db_.exec("SELECT 1 FROM runs WHERE id = $1", {runId}).rows() > 0;
        throw LibraryError(Kind::NotFound, db_.location(),
            runExists ? "run " + std::to_string(runId) + " has no capture " + std::to_string(captureIndex)
                      : "no run " + std::to_string(runId));
    }
    CaptureArtifact out;
    out.index = captureIndex;
    out.name = r.text(0, 0);
    if (r.isNull(0, 2) || r.isNull(0, 3))
        throw LibraryError(Kind::NotFound, db_.location(),
            "capture '" + out.name + "' of run " + std::to_string(runId) + " has no artifact (status "
                + std::string(r.text(0, 1)) + ")");
    out.pythonCode = readBlob(db_, std::string(r.text(0, 2)), BlobCodec::captureOwner("python_code", out.name, runId));
    out.cache = readBlob(db_, std::string(r.text(0, 3)), BlobCodec::captureOwner("cache", out.name, runId));
    snapshot.commit();
    return out;
}

std::string PostgresRunReader::readBlob(PostgresConnection& db, const std::string& sha256, const std::string& owner)
{
    const PostgresResult r = db.exec("SELECT size, codec, data FROM blobs WHERE sha256 = $1", {sha256}, true);
    const auto damaged = [&](const std::string& detail) {
        return LibraryError(Kind::Damaged, db.location(), "blob " + sha256 + " (" + owner + ") is damaged: " + detail);
    };
    if (r.rows() == 0)
        throw damaged("it is missing from the blobs table");
    std::string bytes;
    if (auto problem = BlobCodec::decode(sha256, r.integer(0, 0), r.text(0, 1), r.text(0, 2), &bytes))
        throw damaged(*problem);
    return bytes;
}

std::optional<std::string> PostgresRunReader::checkBlob(PostgresConnection& db, const std::string& sha256)
{
    const PostgresResult r = db.exec("SELECT size, codec, data FROM blobs WHERE sha256 = $1", {sha256}, true);
    if (r.rows() == 0)
        return std::string("it is missing from the blobs table");
    return BlobCodec::decode(sha256, r.integer(0, 0), r.text(0, 1), r.text(0, 2), nullptr);
}

}  // namespace ps::library
