#include "library/core/PreparedRun.h"

#include <algorithm>
#include <chrono>
#include <cstdio>
#include <ctime>
#include <filesystem>
#include <random>
#include <tuple>
#include <utility>

#include "library/core/ArtifactFiles.h"
#include "library/core/LibraryError.h"
#include "model/JsonFields.h"
#include "model/JsonLimits.h"
#include "model/WorkerInfo.h"

namespace ps::library {

namespace fs = std::filesystem;
using json = nlohmann::json;
using Kind = LibraryError::Kind;

namespace {

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
    std::string words = model::JsonFields::text(head, "message");
    const auto add = [&words](const std::string& w) {
        if (!w.empty())
            words += (words.empty() ? "" : " ") + w;
    };
    for (const auto& c : captures) {
        add(model::JsonFields::text(c, "name"));
        add(model::JsonFields::text(c, "backend"));
        add(model::JsonFields::text(c, "status"));
        if (const auto v = c.find("violation"); v != c.end() && v->is_object())
            for (const char* key : {"kind", "rule", "message"})
                add(model::JsonFields::text(*v, key));
        if (const auto w = c.find("warnings"); w != c.end() && w->is_array())
            for (const auto& warning : *w)
                for (const char* key : {"rule", "message"})
                    add(model::JsonFields::text(warning, key));
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

/// Hashes each capture's bytes and writes the hashes and sizes into the capture's artifact; a
/// hash the report gives must be that of the bytes. Every capture must be an object.
void hashArtifacts(PreparedRun& out, json& captures, const std::vector<NewCapture>& bytesOf, const std::string& file)
{
    out.captures.resize(captures.size());
    for (std::size_t i = 0; i < captures.size(); ++i) {
        json& c = captures[i];
        if (!c.is_object())
            throw LibraryError(
                Kind::Invalid, file, "cannot store a run: capture " + std::to_string(i) + " is not an object");
        if (i >= bytesOf.size())
            continue;
        const NewCapture& bytes = bytesOf[i];
        PreparedRun::Capture& prepared = out.captures[i];
        if (bytes.pythonCode)
            prepared.code = BlobCodec::hash(*bytes.pythonCode);
        if (bytes.cache)
            prepared.cache = BlobCodec::hash(*bytes.cache);
        if (!prepared.code && !prepared.cache)
            continue;
        json& artifact = c["artifact"];
        if (!artifact.is_object())
            artifact = json::object();
        for (const auto& [blob, shaKey, sizeKey] :
            {std::tuple{&prepared.code, "python_code_sha256", "python_code_bytes"},
                std::tuple{&prepared.cache, "cache_sha256", "cache_bytes"}}) {
            if (!*blob)
                continue;
            const std::string recorded = model::JsonFields::text(artifact, shaKey);
            if (!recorded.empty() && recorded != (*blob)->sha256)
                throw LibraryError(Kind::Invalid, file,
                    "cannot store a run: capture " + std::to_string(i) + "'s " + shaKey + " " + recorded
                        + " is not the hash of its bytes (" + (*blob)->sha256 + ")");
            artifact[shaKey] = (*blob)->sha256;
            artifact[sizeKey] = (*blob)->size;
        }
    }
}

}  // namespace

PreparedRun PreparedRun::from(const NewRun& run, const std::string& file)
{
    SplitReport split = splitReport(run, file);
    PreparedRun out;
    hashArtifacts(out, split.captures, run.captures, file);
    json& head = split.head;
    json& captures = split.captures;
    out.uid = run.uid.empty() ? newUid() : run.uid;
    out.createdAt = run.createdAt.empty() ? now() : run.createdAt;
    out.scriptPath = model::JsonFields::text(head, "script");
    out.name = run.name.empty() ? model::JsonFields::text(head, "name") : run.name;
    if (out.name.empty())
        out.name = fs::path(out.scriptPath).stem().string();
    if (out.name.empty() && !captures.empty())
        out.name = model::JsonFields::text(captures[0], "name");
    if (out.name.empty())
        out.name = "run";
    out.status = model::JsonFields::text(head, "status");
    if (out.status.empty())
        out.status = "unknown";
    out.message = model::JsonFields::text(head, "message");
    if (const auto worker = model::WorkerInfo::fromJson(model::JsonFields::member(head, "worker")))
        out.ranOn = worker->where();
    out.searchWords = searchMessages(head, captures);
    for (std::size_t i = 0; i < captures.size(); ++i) {
        const json& c = captures[i];
        Capture& row = out.captures[i];
        row.name = model::JsonFields::text(c, "name");
        row.backend = model::JsonFields::text(c, "backend");
        row.tracer = model::JsonFields::text(c, "tracer");
        row.status = model::JsonFields::text(c, "status");
        row.message = model::JsonFields::text(c.value("violation", json()), "message");
        row.invariant = invariantOf(c);
    }
    head["captures"] = std::move(captures);  // with the artifact hashes reconciled
    // A path that is not UTF-8 (imported_from, script) is stored with U+FFFD, not refused.
    out.reportText = head.dump(-1, ' ', false, json::error_handler_t::replace);
    if (out.reportText.size() > ArtifactFiles::kMaxReportBytes)
        throw LibraryError(Kind::Invalid, file,
            "cannot store a run: its report is " + std::to_string(out.reportText.size() >> 20)
                + " MiB, over the limit of " + std::to_string(ArtifactFiles::kMaxReportBytes >> 20) + " MiB");
    return out;
}

std::string PreparedRun::now()
{
    const auto at = std::chrono::system_clock::now();
    const std::time_t seconds = std::chrono::system_clock::to_time_t(at);
    const auto millis = std::chrono::duration_cast<std::chrono::milliseconds>(at.time_since_epoch()).count() % 1000;
    std::tm utc{};
    gmtime_r(&seconds, &utc);
    char text[64];
    std::snprintf(text, sizeof text, "%04d-%02d-%02dT%02d:%02d:%02d.%03dZ", utc.tm_year + 1900, utc.tm_mon + 1,
        utc.tm_mday, utc.tm_hour, utc.tm_min, utc.tm_sec, static_cast<int>(millis));
    return text;
}

std::string PreparedRun::newUid()
{
    static thread_local std::random_device source;
    std::string uid;
    uid.reserve(32);
    static constexpr char kHex[] = "0123456789abcdef";
    for (int word = 0; word < 4; ++word) {
        std::uint32_t bits = source();
        for (int i = 0; i < 8; ++i, bits >>= 4)
            uid += kHex[bits & 0xF];
    }
    return uid;
}

}  // namespace ps::library
