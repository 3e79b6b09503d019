#include "library/RunWriter.h"

#include <algorithm>
#include <filesystem>
#include <optional>
#include <tuple>
#include <utility>
#include <vector>

#include "library/ArtifactFiles.h"
#include "library/BlobStore.h"
#include "library/Connection.h"
#include "library/LibraryError.h"
#include "library/Statement.h"
#include "library/Transaction.h"
#include "model/JsonLimits.h"

namespace ps::library {

namespace fs = std::filesystem;
using json = nlohmann::json;
using Kind = LibraryError::Kind;

namespace {

std::string stringField(const json& object, const char* key)
{
    if (!object.is_object())
        return {};
    const auto it = object.find(key);
    return it != object.end() && it->is_string() ? it->get<std::string>() : std::string();
}

std::optional<int> invariantOf(const json& capture)
{
    const auto v = capture.find("violation");
    if (v == capture.end() || !v->is_object())
        return std::nullopt;
    const auto inv = v->find("invariant");
    if (inv == v->end() || !inv->is_number_integer())
        return std::nullopt;
    return inv->get<int>();
}

/// The words the search index holds for a run beyond its name and script.
std::string searchMessages(const json& head, const json& captures)
{
    std::string words = stringField(head, "message");
    const auto add = [&words](const std::string& w) {
        if (!w.empty())
            words += (words.empty() ? "" : " ") + w;
    };
    for (const auto& c : captures) {
        add(stringField(c, "name"));
        add(stringField(c, "backend"));
        add(stringField(c, "status"));
        if (const auto v = c.find("violation"); v != c.end() && v->is_object())
            for (const char* key : {"kind", "rule", "message"})
                add(stringField(*v, key));
        if (const auto w = c.find("warnings"); w != c.end() && w->is_array())
            for (const auto& warning : *w)
                for (const char* key : {"rule", "message"})
                    add(stringField(warning, key));
    }
    return words;
}

/// The nesting depth of a JSON value, walked without recursion; stops counting past `stopAt`.
std::size_t nestingDepth(const json& root, std::size_t stopAt)
{
    std::size_t deepest = 0;
    std::vector<std::pair<const json*, std::size_t>> pending{{&root, 1}};
    while (!pending.empty()) {
        const auto [value, level] = pending.back();
        pending.pop_back();
        if (!value->is_structured())
            continue;
        deepest = std::max(deepest, level);
        if (deepest > stopAt)
            return deepest;
        for (const json& child : *value)
            if (child.is_structured())
                pending.emplace_back(&child, level + 1);
    }
    return deepest;
}

/// The report apart: its head (without run_id and captures) and its captures.
struct SplitReport {
    json head;
    json captures = json::array();
};

/// Refuses a run that cannot be stored (not an object, nested too deep,
/// captures not a list, more artifacts than captures) and splits its report.
SplitReport splitReport(const NewRun& run, const std::string& file)
{
    if (!run.report.is_object())
        throw LibraryError(Kind::Invalid, file, "cannot store a run: the report is not a JSON object");
    // Copies and dump() below recurse: a report deeper than any reader would parse is refused
    // before it is copied (and it could never be shown again).
    if (nestingDepth(run.report, model::JsonLimits::kMaxDepth) > model::JsonLimits::kMaxDepth)
        throw LibraryError(Kind::Invalid, file,
            "cannot store a run: its report nests deeper than " + std::to_string(model::JsonLimits::kMaxDepth)
                + " levels");
    SplitReport split{run.report};
    split.head.erase("run_id");
    if (const auto it = split.head.find("captures"); it != split.head.end()) {
        if (!it->is_array())
            throw LibraryError(Kind::Invalid, file, "cannot store a run: report captures is not a list");
        split.captures = std::move(*it);
        split.head.erase("captures");
    }
    if (run.captures.size() > split.captures.size())
        throw LibraryError(Kind::Invalid, file,
            "cannot store a run: " + std::to_string(run.captures.size()) + " artifacts for "
                + std::to_string(split.captures.size()) + " captures");
    return split;
}

/// One capture's blobs, hashed and compressed.
struct CaptureBlobs {
    std::optional<BlobStore::Prepared> code, cache;
};

/// Hashes and compresses each capture's bytes (before the write lock is taken) and writes the
/// hashes and sizes into the capture's artifact; a hash the report gives must be that of the
/// bytes. Every capture must be an object.
std::vector<CaptureBlobs> prepareBlobs(
    BlobStore& blobs, json& captures, const std::vector<NewCapture>& bytesOf, const std::string& file)
{
    std::vector<CaptureBlobs> prepared(captures.size());
    for (std::size_t i = 0; i < captures.size(); ++i) {
        json& c = captures[i];
        if (!c.is_object())
            throw LibraryError(
                Kind::Invalid, file, "cannot store a run: capture " + std::to_string(i) + " is not an object");
        if (i >= bytesOf.size())
            continue;
        const NewCapture& bytes = bytesOf[i];
        if (bytes.pythonCode)
            prepared[i].code = blobs.prepare(*bytes.pythonCode);
        if (bytes.cache)
            prepared[i].cache = blobs.prepare(*bytes.cache);
        if (!prepared[i].code && !prepared[i].cache)
            continue;
        json& artifact = c["artifact"];
        if (!artifact.is_object())
            artifact = json::object();
        for (const auto& [blob, shaKey, sizeKey] :
            {std::tuple{&prepared[i].code, "python_code_sha256", "python_code_bytes"},
                std::tuple{&prepared[i].cache, "cache_sha256", "cache_bytes"}}) {
            if (!*blob)
                continue;
            const std::string recorded = stringField(artifact, shaKey);
            if (!recorded.empty() && recorded != (*blob)->sha256)
                throw LibraryError(Kind::Invalid, file,
                    "cannot store a run: capture " + std::to_string(i) + "'s " + shaKey + " " + recorded
                        + " is not the hash of its bytes (" + (*blob)->sha256 + ")");
            artifact[shaKey] = (*blob)->sha256;
            artifact[sizeKey] = (*blob)->size;
        }
    }
    return prepared;
}

/// What the runs row and the search index hold of a run, and the report as stored.
struct RunRow {
    std::string name;
    std::string status;
    std::string scriptPath;
    std::string message;
    std::string messages;    ///< the search index's words beyond name and script
    std::string reportText;  ///< the head with its captures, hashes reconciled
};

/// The run's row: its name (given, else the report's, the script's stem, its first capture's,
/// "run"), its status ("unknown" when none); the report put back together and dumped, refused
/// past ArtifactFiles::kMaxReportBytes.
RunRow describe(const NewRun& run, SplitReport& split, const std::string& file)
{
    json& head = split.head;
    json& captures = split.captures;
    RunRow row;
    row.scriptPath = stringField(head, "script");
    row.name = run.name.empty() ? stringField(head, "name") : run.name;
    if (row.name.empty())
        row.name = fs::path(row.scriptPath).stem().string();
    if (row.name.empty() && !captures.empty())
        row.name = stringField(captures[0], "name");
    if (row.name.empty())
        row.name = "run";
    row.status = stringField(head, "status");
    if (row.status.empty())
        row.status = "unknown";
    row.message = stringField(head, "message");
    row.messages = searchMessages(head, captures);
    head["captures"] = std::move(captures);  // with the artifact hashes reconciled
    // A path that is not UTF-8 (imported_from, script) is stored with U+FFFD, not refused.
    row.reportText = head.dump(-1, ' ', false, json::error_handler_t::replace);
    if (row.reportText.size() > ArtifactFiles::kMaxReportBytes)
        throw LibraryError(Kind::Invalid, file,
            "cannot store a run: its report is " + std::to_string(row.reportText.size() >> 20)
                + " MiB, over the limit of " + std::to_string(ArtifactFiles::kMaxReportBytes >> 20) + " MiB");
    return row;
}

/// The runs row and its document; returns the run's id.
std::int64_t insertRun(Connection& db, const NewRun& run, const RunRow& row)
{
    Statement insertRun
        = db.prepare("INSERT INTO runs (created_at, name, status, origin, trusted, script_path, message) "
                     "VALUES (strftime('%Y-%m-%dT%H:%M:%fZ', 'now'), ?, ?, ?, ?, ?, ?)");
    insertRun.bind(1, std::string_view(row.name))
        .bind(2, std::string_view(row.status))
        .bind(3, toString(run.origin))
        .bind(4, std::int64_t{run.trusted ? 1 : 0})
        .bind(5, std::string_view(row.scriptPath))
        .bind(6, std::string_view(row.message));
    insertRun.run();
    const std::int64_t id = db.lastInsertRowid();

    Statement insertDocument
        = db.prepare("INSERT INTO run_documents (run_id, report_json, script_text) VALUES (?, ?, ?)");
    insertDocument.bind(1, id).bind(2, std::string_view(row.reportText)).bind(3, std::string_view(run.scriptText));
    insertDocument.run();
    return id;
}

/// One captures row per capture of the stored report, with its blobs' keys.
void insertCaptures(
    Connection& db, std::int64_t id, const json& storedCaptures, const std::vector<CaptureBlobs>& prepared)
{
    Statement insertCapture
        = db.prepare("INSERT INTO captures (run_id, idx, name, backend, tracer, status, invariant, message, "
                     "python_code_sha256, cache_sha256) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?)");
    for (std::size_t i = 0; i < storedCaptures.size(); ++i) {
        const json& c = storedCaptures[i];
        const std::string cName = stringField(c, "name"), backend = stringField(c, "backend"),
                          tracer = stringField(c, "tracer"), cStatus = stringField(c, "status"),
                          cMessage = stringField(c.value("violation", json()), "message");
        const auto invariant = invariantOf(c);
        insertCapture.bind(1, id)
            .bind(2, static_cast<std::int64_t>(i))
            .bind(3, std::string_view(cName))
            .bind(4, std::string_view(backend))
            .bind(5, std::string_view(tracer))
            .bind(6, std::string_view(cStatus))
            .bind(7, invariant ? std::optional<std::int64_t>(*invariant) : std::nullopt)
            .bind(8, std::string_view(cMessage))
            .bind(9, prepared[i].code ? std::optional<std::string>(prepared[i].code->sha256) : std::nullopt)
            .bind(10, prepared[i].cache ? std::optional<std::string>(prepared[i].cache->sha256) : std::nullopt);
        insertCapture.run();
        insertCapture.reset();
    }
}

void insertSearchRow(Connection& db, std::int64_t id, const NewRun& run, const RunRow& row)
{
    Statement index
        = db.prepare("INSERT INTO run_search (rowid, name, script_path, script_text, messages) VALUES (?, ?, ?, ?, ?)");
    index.bind(1, id)
        .bind(2, std::string_view(row.name))
        .bind(3, std::string_view(row.scriptPath))
        .bind(4, std::string_view(run.scriptText))
        .bind(5, std::string_view(row.messages));
    index.run();
}

}  // namespace

std::int64_t RunWriter::insert(const NewRun& run)
{
    SplitReport split = splitReport(run, db_.path());
    // Hash and compress before taking the write lock.
    BlobStore blobs(db_);
    std::vector<CaptureBlobs> prepared = prepareBlobs(blobs, split.captures, run.captures, db_.path());
    const RunRow row = describe(run, split, db_.path());

    Transaction tx(db_);
    for (auto& b : prepared) {
        if (b.code)
            blobs.put(*b.code);
        if (b.cache)
            blobs.put(*b.cache);
    }
    const std::int64_t id = insertRun(db_, run, row);
    insertCaptures(db_, id, split.head["captures"], prepared);
    insertSearchRow(db_, id, run, row);
    tx.commit();
    return id;
}

}  // namespace ps::library
