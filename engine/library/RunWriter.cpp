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

}  // namespace

std::int64_t RunWriter::insert(const NewRun& run)
{
    if (!run.report.is_object())
        throw LibraryError(Kind::Invalid, db_.path(), "cannot store a run: the report is not a JSON object");
    if (run.origin != "run" && run.origin != "import")
        throw LibraryError(Kind::Invalid, db_.path(), "cannot store a run of origin '" + run.origin + "'");
    // Copies and dump() below recurse: a report deeper than any reader would parse is refused
    // before it is copied (and it could never be shown again).
    if (nestingDepth(run.report, model::JsonLimits::kMaxDepth) > model::JsonLimits::kMaxDepth)
        throw LibraryError(Kind::Invalid, db_.path(),
            "cannot store a run: its report nests deeper than " + std::to_string(model::JsonLimits::kMaxDepth)
                + " levels");
    json head = run.report;
    head.erase("run_id");
    json captures = json::array();
    if (const auto it = head.find("captures"); it != head.end()) {
        if (!it->is_array())
            throw LibraryError(Kind::Invalid, db_.path(), "cannot store a run: report captures is not a list");
        captures = std::move(*it);
        head.erase("captures");
    }
    if (run.captures.size() > captures.size())
        throw LibraryError(Kind::Invalid, db_.path(),
            "cannot store a run: " + std::to_string(run.captures.size()) + " artifacts for "
                + std::to_string(captures.size()) + " captures");

    // Hash and compress before taking the write lock.
    BlobStore blobs(db_);
    struct Blobs {
        std::optional<BlobStore::Prepared> code, cache;
    };
    std::vector<Blobs> prepared(captures.size());
    for (std::size_t i = 0; i < captures.size(); ++i) {
        json& c = captures[i];
        if (!c.is_object())
            throw LibraryError(
                Kind::Invalid, db_.path(), "cannot store a run: capture " + std::to_string(i) + " is not an object");
        if (i >= run.captures.size())
            continue;
        const NewCapture& bytes = run.captures[i];
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
                throw LibraryError(Kind::Invalid, db_.path(),
                    "cannot store a run: capture " + std::to_string(i) + "'s " + shaKey + " " + recorded
                        + " is not the hash of its bytes (" + (*blob)->sha256 + ")");
            artifact[shaKey] = (*blob)->sha256;
            artifact[sizeKey] = (*blob)->size;
        }
    }

    const std::string scriptPath = stringField(head, "script");
    std::string name = run.name.empty() ? stringField(head, "name") : run.name;
    if (name.empty())
        name = fs::path(scriptPath).stem().string();
    if (name.empty() && !captures.empty())
        name = stringField(captures[0], "name");
    if (name.empty())
        name = "run";
    std::string status = stringField(head, "status");
    if (status.empty())
        status = "unknown";
    const std::string message = stringField(head, "message");
    const std::string messages = searchMessages(head, captures);
    head["captures"] = std::move(captures);  // with the artifact hashes reconciled
    // A path that is not UTF-8 (imported_from, script) is stored with U+FFFD, not refused.
    const std::string reportText = head.dump(-1, ' ', false, json::error_handler_t::replace);
    if (reportText.size() > ArtifactFiles::kMaxReportBytes)
        throw LibraryError(Kind::Invalid, db_.path(),
            "cannot store a run: its report is " + std::to_string(reportText.size() >> 20) + " MiB, over the limit of "
                + std::to_string(ArtifactFiles::kMaxReportBytes >> 20) + " MiB");
    const json& storedCaptures = head["captures"];

    Transaction tx(db_);
    for (auto& b : prepared) {
        if (b.code)
            blobs.put(*b.code);
        if (b.cache)
            blobs.put(*b.cache);
    }
    Statement insertRun
        = db_.prepare("INSERT INTO runs (created_at, name, status, origin, trusted, script_path, message) "
                      "VALUES (strftime('%Y-%m-%dT%H:%M:%fZ', 'now'), ?, ?, ?, ?, ?, ?)");
    insertRun.bind(1, std::string_view(name))
        .bind(2, std::string_view(status))
        .bind(3, std::string_view(run.origin))
        .bind(4, std::int64_t{run.trusted ? 1 : 0})
        .bind(5, std::string_view(scriptPath))
        .bind(6, std::string_view(message));
    insertRun.run();
    const std::int64_t id = db_.lastInsertRowid();

    Statement insertDocument
        = db_.prepare("INSERT INTO run_documents (run_id, report_json, script_text) VALUES (?, ?, ?)");
    insertDocument.bind(1, id).bind(2, std::string_view(reportText)).bind(3, std::string_view(run.scriptText));
    insertDocument.run();

    Statement insertCapture
        = db_.prepare("INSERT INTO captures (run_id, idx, name, backend, tracer, status, invariant, message, "
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

    Statement index = db_.prepare(
        "INSERT INTO run_search (rowid, name, script_path, script_text, messages) VALUES (?, ?, ?, ?, ?)");
    index.bind(1, id)
        .bind(2, std::string_view(name))
        .bind(3, std::string_view(scriptPath))
        .bind(4, std::string_view(run.scriptText))
        .bind(5, std::string_view(messages));
    index.run();
    tx.commit();
    return id;
}

}  // namespace ps::library
