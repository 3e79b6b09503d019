#include "library/ArtifactLibrary.h"

#include <fcntl.h>
#include <sys/stat.h>
#include <unistd.h>

#include <algorithm>
#include <array>
#include <cctype>
#include <cerrno>
#include <cstring>
#include <filesystem>
#include <map>
#include <set>

#include "library/ArtifactFiles.h"
#include "library/BlobStore.h"
#include "library/Connection.h"
#include "library/LibraryError.h"
#include "library/Schema.h"
#include "library/Statement.h"
#include "library/Transaction.h"
#include "library/ZstdCodec.h"
#include "model/JsonLimits.h"

namespace ps::library {

namespace fs = std::filesystem;
using json = nlohmann::json;
using Kind = LibraryError::Kind;

namespace {

constexpr std::string_view kSqliteMagic{"SQLite format 3\0", 16};

std::uint32_t bigEndian(const unsigned char* p, int bytes)
{
    std::uint32_t v = 0;
    for (int i = 0; i < bytes; ++i)
        v = (v << 8) | p[i];
    return v;
}

/// Checks an existing file before SQLite touches it, so that nothing (not even a -wal beside
/// it) is made for a file we will refuse, and the refusal says what is wrong in plain words.
/// Whether SQLite may write the library's folder (its -wal and -shm live there), with why not.
std::optional<std::string> folderNotWritable(const std::string& path)
{
    const fs::path parent = fs::path(path).parent_path();
    const std::string folder = parent.empty() ? std::string(".") : parent.string();
    if (::access(folder.c_str(), W_OK | X_OK) == 0)
        return std::nullopt;
    return errno == EROFS ? "the library is on a read-only file system; left untouched"
                          : "the library is read-only: its folder " + folder
            + " cannot be written (SQLite keeps the library's -wal and -shm there); left untouched";
}

bool walPending(const std::string& path)
{
    struct stat wal { };
    return ::stat((path + "-wal").c_str(), &wal) == 0 && wal.st_size > 0;
}

void preflight(const std::string& path, bool create, bool readOnly)
{
    struct stat st { };
    if (::stat(path.c_str(), &st) != 0) {
        if (errno != ENOENT)
            throw LibraryError(Kind::CannotOpen, path, std::string("cannot be read: ") + std::strerror(errno));
        if (!create)
            throw LibraryError(Kind::CannotOpen, path, "no library file there");
        const fs::path parent = fs::path(path).parent_path();
        std::error_code ec;
        if (!parent.empty())
            fs::create_directories(parent, ec);
        if (ec)
            throw LibraryError(Kind::CannotOpen, path, "cannot create its folder: " + ec.message());
        return;
    }
    if (!S_ISREG(st.st_mode))
        throw LibraryError(Kind::CannotOpen, path, "not a regular file");
    // The permission bits, not only access(): root may write anything, but a file made
    // read-only says the user wants it left alone.
    if (!readOnly) {
        if (::access(path.c_str(), W_OK) != 0 && errno == EROFS)
            throw LibraryError(Kind::ReadOnly, path, "the library is on a read-only file system; left untouched");
        if ((st.st_mode & (S_IWUSR | S_IWGRP | S_IWOTH)) == 0 || ::access(path.c_str(), W_OK) != 0)
            throw LibraryError(Kind::ReadOnly, path, "the library file is read-only; left untouched");
        if (auto why = folderNotWritable(path))
            throw LibraryError(Kind::ReadOnly, path, *why);
    }
    if (st.st_size == 0)
        return;  // an empty file is an empty database

    std::array<unsigned char, 100> header{};
    const int fd = ::open(path.c_str(), O_RDONLY | O_CLOEXEC);
    if (fd < 0)
        throw LibraryError(Kind::CannotOpen, path, std::string("cannot be read: ") + std::strerror(errno));
    const ssize_t n = ::pread(fd, header.data(), header.size(), 0);
    ::close(fd);
    if (n < 16 || std::memcmp(header.data(), kSqliteMagic.data(), 16) != 0) {
        const bool startsLikeSqlite
            = n > 0 && n < 16 && std::memcmp(header.data(), kSqliteMagic.data(), static_cast<std::size_t>(n)) == 0;
        if (!startsLikeSqlite)
            throw LibraryError(Kind::NotSqlite, path, "not an SQLite database; left untouched");
    }
    if (n < static_cast<ssize_t>(header.size()))
        throw LibraryError(Kind::Corrupt, path,
            "truncated: " + std::to_string(st.st_size) + " bytes, less than an SQLite header; left untouched");
    // Bytes 28..31 count the pages, valid when the change counter (24) equals 92..95. With a
    // WAL beside the file, the pages may still be in the WAL: let SQLite judge then.
    std::uint32_t pageSize = bigEndian(&header[16], 2);
    if (pageSize == 1)
        pageSize = 65536;
    const std::uint32_t pages = bigEndian(&header[28], 4);
    const bool countValid = bigEndian(&header[24], 4) == bigEndian(&header[92], 4);
    if (countValid && !walPending(path) && pages > 0
        && static_cast<std::uint64_t>(st.st_size) < static_cast<std::uint64_t>(pages) * pageSize)
        throw LibraryError(Kind::Corrupt, path,
            "truncated: " + std::to_string(st.st_size) + " bytes, its header says "
                + std::to_string(static_cast<std::uint64_t>(pages) * pageSize) + "; left untouched");
}

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

/// User text to an FTS5 query: every word must match, each as a prefix; no operators, so any
/// input is a valid query.
std::string ftsQuery(const std::string& text)
{
    std::string query;
    std::string word;
    const auto flush = [&] {
        if (word.empty())
            return;
        query += (query.empty() ? "\"" : " \"") + word + "\"*";
        word.clear();
    };
    for (unsigned char c : text) {
        if (c >= 0x80 || std::isalnum(c))
            word += static_cast<char>(c);
        else
            flush();  // the tokenizer splits here too
    }
    flush();
    return query;
}

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

std::string captureOwner(const std::string& role, const std::string& name, std::int64_t runId)
{
    return role + " of capture '" + name + "' of run " + std::to_string(runId);
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
    s.origin = st.textView(6);
    s.trusted = st.integer(7) != 0;
}

constexpr const char* kSummaryColumns
    = "r.id, r.created_at, r.name, r.script_path, r.status, r.message, r.origin, r.trusted";

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

std::int64_t databaseBytes(Connection& db)
{
    return db.queryInt("PRAGMA page_count") * db.queryInt("PRAGMA page_size");
}

}  // namespace

ArtifactLibrary::ArtifactLibrary(const std::string& path) : ArtifactLibrary(path, OpenOptions{})
{ }

ArtifactLibrary::ArtifactLibrary(const std::string& path, OpenOptions options) : path_(path)
{
    if (options.readOnly) {
        openReadOnly();
        return;
    }
    preflight(path, options.create, false);
    db_ = std::make_unique<Connection>(path, options.create);
    if (db_->readOnly())
        throw LibraryError(Kind::ReadOnly, path, "the library file cannot be written; left untouched");
    // Read before any write: a foreign, damaged or newer file is refused here, unmodified.
    Schema::inspect(*db_);
    // Only possible while the file has no pages yet (before WAL writes the first): lets gc give
    // space back to the file system.
    if (db_->queryInt("PRAGMA page_count") == 0)
        db_->exec("PRAGMA auto_vacuum = INCREMENTAL");
    if (db_->queryText("PRAGMA journal_mode") != "wal") {
        const std::string mode = db_->queryText("PRAGMA journal_mode = WAL");
        if (mode != "wal")
            throw LibraryError(Kind::Sqlite, path, "cannot switch the library to WAL (journal mode " + mode + ")");
    }
    // NORMAL is durable against a crashed or killed process in WAL mode; only a power cut may
    // lose the last commits, never consistency.
    db_->exec("PRAGMA synchronous = NORMAL");
    db_->exec("PRAGMA journal_size_limit = 67108864");
    db_->exec("PRAGMA foreign_keys = ON");
    // Enough page cache to keep what listing scans (runs, captures, the search index) in memory.
    db_->exec("PRAGMA cache_size = -32768");
    Schema::migrate(*db_);
}

void ArtifactLibrary::openReadOnly()
{
    preflight(path_, false, true);
    db_ = std::make_unique<Connection>(path_, false, Connection::Access::ReadOnly);
    int version = 0;
    try {
        version = Schema::inspect(*db_);
    } catch (const LibraryError& e) {
        // A WAL reader needs the -shm, which SQLite must create when the last connection removed
        // it: impossible in a read-only folder or on a full disk. With no -wal beside the file
        // nothing is pending, and no writer can start either (it would have to create the -wal
        // in that same folder), so the file alone is the whole library: read it as immutable.
        if (e.kind() != Kind::ReadOnly && e.kind() != Kind::DiskFull && e.kind() != Kind::CannotOpen)
            throw;
        if (walPending(path_))
            throw LibraryError(e.kind(), path_,
                std::string("cannot be read: SQLite cannot create its -shm ")
                    + (e.kind() == Kind::DiskFull ? "(the disk is full)" : "(its folder cannot be written)")
                    + " and its -wal holds writes not yet in the file; open it once with write access");
        db_ = std::make_unique<Connection>(path_, false, Connection::Access::Immutable);
        version = Schema::inspect(*db_);
    }
    if (version < Schema::kVersion) {
        // An older library is upgraded once, which needs write access; then it is read as usual.
        db_.reset();
        try {
            ArtifactLibrary upgrade(path_, OpenOptions{false, false});
        } catch (const LibraryError& e) {
            if (e.kind() != Kind::ReadOnly && e.kind() != Kind::DiskFull)
                throw;
            throw LibraryError(e.kind(), path_,
                "its schema " + std::to_string(version) + " is older than this studio's "
                    + std::to_string(Schema::kVersion) + " and upgrading it needs write access, but "
                    + std::string(e.what()).substr(e.file().empty() ? 0 : e.file().size() + 2));
        }
        openReadOnly();
        return;
    }
    db_->exec("PRAGMA cache_size = -32768");
}

ArtifactLibrary::~ArtifactLibrary() = default;
ArtifactLibrary::ArtifactLibrary(ArtifactLibrary&&) noexcept = default;
ArtifactLibrary& ArtifactLibrary::operator=(ArtifactLibrary&&) noexcept = default;

int ArtifactLibrary::schemaVersion() const
{
    return static_cast<int>(db_->queryInt("PRAGMA user_version"));
}

std::int64_t ArtifactLibrary::insert(const NewRun& run)
{
    if (!run.report.is_object())
        throw LibraryError(Kind::Invalid, path_, "cannot store a run: the report is not a JSON object");
    if (run.origin != "run" && run.origin != "import")
        throw LibraryError(Kind::Invalid, path_, "cannot store a run of origin '" + run.origin + "'");
    // Copies and dump() below recurse: a report deeper than any reader would parse is refused
    // before it is copied (and it could never be shown again).
    if (nestingDepth(run.report, model::JsonLimits::kMaxDepth) > model::JsonLimits::kMaxDepth)
        throw LibraryError(Kind::Invalid, path_,
            "cannot store a run: its report nests deeper than " + std::to_string(model::JsonLimits::kMaxDepth)
                + " levels");
    json head = run.report;
    head.erase("run_id");
    json captures = json::array();
    if (const auto it = head.find("captures"); it != head.end()) {
        if (!it->is_array())
            throw LibraryError(Kind::Invalid, path_, "cannot store a run: report captures is not a list");
        captures = std::move(*it);
        head.erase("captures");
    }
    if (run.captures.size() > captures.size())
        throw LibraryError(Kind::Invalid, path_,
            "cannot store a run: " + std::to_string(run.captures.size()) + " artifacts for "
                + std::to_string(captures.size()) + " captures");

    // Hash and compress before taking the write lock.
    BlobStore blobs(*db_);
    struct Blobs {
        std::optional<BlobStore::Prepared> code, cache;
    };
    std::vector<Blobs> prepared(captures.size());
    for (std::size_t i = 0; i < captures.size(); ++i) {
        json& c = captures[i];
        if (!c.is_object())
            throw LibraryError(
                Kind::Invalid, path_, "cannot store a run: capture " + std::to_string(i) + " is not an object");
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
                throw LibraryError(Kind::Invalid, path_,
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
        throw LibraryError(Kind::Invalid, path_,
            "cannot store a run: its report is " + std::to_string(reportText.size() >> 20) + " MiB, over the limit of "
                + std::to_string(ArtifactFiles::kMaxReportBytes >> 20) + " MiB");
    const json& storedCaptures = head["captures"];

    Transaction tx(*db_);
    for (auto& b : prepared) {
        if (b.code)
            blobs.put(*b.code);
        if (b.cache)
            blobs.put(*b.cache);
    }
    Statement insertRun
        = db_->prepare("INSERT INTO runs (created_at, name, status, origin, trusted, script_path, message) "
                       "VALUES (strftime('%Y-%m-%dT%H:%M:%fZ', 'now'), ?, ?, ?, ?, ?, ?)");
    insertRun.bind(1, std::string_view(name))
        .bind(2, std::string_view(status))
        .bind(3, std::string_view(run.origin))
        .bind(4, std::int64_t{run.trusted ? 1 : 0})
        .bind(5, std::string_view(scriptPath))
        .bind(6, std::string_view(message));
    insertRun.run();
    const std::int64_t id = db_->lastInsertRowid();

    Statement insertDocument
        = db_->prepare("INSERT INTO run_documents (run_id, report_json, script_text) VALUES (?, ?, ?)");
    insertDocument.bind(1, id).bind(2, std::string_view(reportText)).bind(3, std::string_view(run.scriptText));
    insertDocument.run();

    Statement insertCapture
        = db_->prepare("INSERT INTO captures (run_id, idx, name, backend, tracer, status, invariant, message, "
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

    Statement index = db_->prepare(
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

std::vector<RunSummary> ArtifactLibrary::list(const ListQuery& q) const
{
    return query(q);
}

std::vector<RunSummary> ArtifactLibrary::search(const std::string& text) const
{
    ListQuery q;
    q.search = text;
    return query(q);
}

std::vector<RunSummary> ArtifactLibrary::query(const ListQuery& q) const
{
    std::string where;
    const std::string match = ftsQuery(q.search);
    if (!q.status.empty())
        where += " AND r.status = ?1";
    if (!q.backend.empty())
        where += " AND EXISTS (SELECT 1 FROM captures b WHERE b.run_id = r.id AND b.backend = ?2)";
    if (!match.empty())
        where += " AND r.id IN (SELECT rowid FROM run_search WHERE run_search MATCH ?3)";
    const bool searchHasNoWords = match.empty() && q.search.find_first_not_of(" \t\r\n") != std::string::npos;
    if (searchHasNoWords)
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

    Transaction snapshot(*db_, Transaction::Mode::Read);
    std::vector<RunSummary> out;
    std::int64_t bound = db_->queryInt("SELECT count(*) FROM runs");  // cheap; spares regrowth
    if (q.limit > 0)
        bound = std::min(bound, q.limit);
    out.reserve(static_cast<std::size_t>(bound));
    {
        Statement st = db_->prepare(runs);
        bindFilters(st);
        while (st.step())
            readSummary(st, out.emplace_back());
    }
    if (!out.empty()) {
        // Runs come newest first, captures in key order (oldest run first): merge from the back.
        Statement st = db_->prepare(captures);
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

RunRecord ArtifactLibrary::show(std::int64_t runId, bool checkBlobs) const
{
    Transaction snapshot(*db_, Transaction::Mode::Read);
    RunRecord record;
    {
        Statement st = db_->prepare(std::string("SELECT ") + kSummaryColumns
            + ", d.script_text, d.report_json FROM runs r "
              "JOIN run_documents d ON d.run_id = r.id WHERE r.id = ?");
        st.bind(1, runId);
        if (!st.step())
            throw LibraryError(Kind::NotFound, path_, "no run " + std::to_string(runId));
        readSummary(st, record.summary);
        record.scriptText = st.text(8);
        record.report = parseStored(st.textView(9), *db_, "the report of run " + std::to_string(runId));
    }
    {
        Statement st = db_->prepare(std::string("SELECT ") + kCaptureColumns
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
        BlobStore blobs(*db_);
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
                    record.damaged.push_back(
                        BlobDamage{**sha, role, captureOwner(role, c.name, runId) + ": " + *problem, {runId}});
                } else {
                    seen.emplace(**sha, SIZE_MAX);
                }
            }
        }
    }
    snapshot.commit();
    return record;
}

CaptureArtifact ArtifactLibrary::artifact(std::int64_t runId, int captureIndex) const
{
    Transaction snapshot(*db_, Transaction::Mode::Read);
    Statement st = db_->prepare(
        "SELECT name, status, python_code_sha256, cache_sha256 FROM captures WHERE run_id = ? AND idx = ?");
    st.bind(1, runId).bind(2, std::int64_t{captureIndex});
    if (!st.step()) {
        Statement run = db_->prepare("SELECT 1 FROM runs WHERE id = ?");
        run.bind(1, runId);
        throw LibraryError(Kind::NotFound, path_,
            run.step() ? "run " + std::to_string(runId) + " has no capture " + std::to_string(captureIndex)
                       : "no run " + std::to_string(runId));
    }
    CaptureArtifact out;
    out.index = captureIndex;
    out.name = st.text(0);
    const std::string status = st.text(1);
    const auto codeSha = st.optionalText(2), cacheSha = st.optionalText(3);
    if (!codeSha || !cacheSha)
        throw LibraryError(Kind::NotFound, path_,
            "capture '" + out.name + "' of run " + std::to_string(runId) + " has no artifact (status " + status + ")");
    BlobStore blobs(*db_);
    out.pythonCode = blobs.read(*codeSha, captureOwner("python_code", out.name, runId));
    out.cache = blobs.read(*cacheSha, captureOwner("cache", out.name, runId));
    snapshot.commit();
    return out;
}

std::vector<std::string> ArtifactLibrary::exportRun(std::int64_t runId, const std::string& dir) const
{
    const RunRecord record = show(runId, false);
    std::vector<CaptureArtifact> artifacts;
    for (const CaptureRecord& c : record.summary.captures)
        if (c.pythonCodeSha256 && c.cacheSha256)
            artifacts.push_back(artifact(runId, c.index));
    if (artifacts.empty())
        throw LibraryError(Kind::NotFound, path_,
            "run " + std::to_string(runId) + " has no artifact to export (status " + record.summary.status + ")");
    return ArtifactFiles::write(dir, record.report, artifacts);
}

std::int64_t ArtifactLibrary::importArtifact(const std::string& pythonCodePath)
{
    ArtifactFiles::Pair pair = ArtifactFiles::read(pythonCodePath);
    NewRun run;
    // Moved, not copied: the report is the imported file's, kept as found but for its captures.
    json capture = std::move(pair.report["captures"][pair.captureIndex]);
    run.report = std::move(pair.report);
    run.report["status"] = capture.value("status", std::string("ok"));
    run.report["captures"] = json::array();
    run.report["captures"].push_back(std::move(capture));
    std::error_code ec;
    const fs::path absolute = fs::absolute(pythonCodePath, ec);
    run.report["imported_from"] = ec ? pythonCodePath : absolute.string();
    run.name = pair.name;
    run.origin = "import";
    run.trusted = false;
    run.captures.push_back(NewCapture{std::move(pair.pythonCode), std::move(pair.cache)});
    return insert(run);
}

void ArtifactLibrary::trust(std::int64_t runId)
{
    Transaction tx(*db_);
    Statement st = db_->prepare("UPDATE runs SET trusted = 1 WHERE id = ?");
    st.bind(1, runId).run();
    if (db_->changes() == 0)
        throw LibraryError(Kind::NotFound, path_, "no run " + std::to_string(runId));
    tx.commit();
}

void ArtifactLibrary::remove(std::int64_t runId)
{
    Transaction tx(*db_);
    Statement st = db_->prepare("DELETE FROM runs WHERE id = ?");  // captures cascade, a trigger unindexes
    st.bind(1, runId).run();
    if (db_->changes() == 0)
        throw LibraryError(Kind::NotFound, path_, "no run " + std::to_string(runId));
    tx.commit();
}

VerifyReport ArtifactLibrary::verify() const
{
    VerifyReport report;
    const auto guarded = [&](const auto& check) {
        try {
            check();
        } catch (const LibraryError& e) {
            if (e.kind() != Kind::Corrupt && e.kind() != Kind::Sqlite)
                throw;
            report.integrityErrors.push_back(e.what());
        }
    };
    // One snapshot for every check: a run a writer commits meanwhile is either wholly seen or
    // not at all (never a capture whose blob seems missing), and no check needs the write lock.
    Transaction snapshot(*db_, Transaction::Mode::Read);
    guarded([&] {
        Statement st = db_->prepare("PRAGMA integrity_check");
        while (st.step())
            if (const std::string line = st.text(0); line != "ok")
                report.integrityErrors.push_back(line);
    });
    guarded([&] {
        Statement st = db_->prepare("PRAGMA foreign_key_check");
        while (st.step())
            report.integrityErrors.push_back(
                "table " + st.text(0) + " row " + st.text(1) + " refers to a missing row of " + st.text(2));
    });
    guarded([&] {
        // FTS5's own 'integrity-check' is an INSERT, which needs the write lock; read instead: one
        // index row per run, and a walk of every term of the index (fts5vocab, a temp table that
        // a read-only connection may create), which fails as corrupt on a damaged segment.
        const std::int64_t unindexed
            = db_->queryInt("SELECT count(*) FROM runs WHERE id NOT IN (SELECT rowid FROM run_search)");
        const std::int64_t stray
            = db_->queryInt("SELECT count(*) FROM run_search WHERE rowid NOT IN (SELECT id FROM runs)");
        if (unindexed > 0 || stray > 0)
            report.integrityErrors.push_back("the search index: " + std::to_string(unindexed)
                + " run(s) missing from it, " + std::to_string(stray) + " row(s) of removed runs in it");
        db_->exec("CREATE VIRTUAL TABLE IF NOT EXISTS temp.run_search_terms USING fts5vocab(main, run_search, "
                  "'instance')");
        try {
            db_->queryInt("SELECT count(*) FROM temp.run_search_terms");
        } catch (const LibraryError& e) {
            if (e.kind() != Kind::Corrupt)
                throw;
            report.integrityErrors.push_back(std::string("the search index is damaged: ") + e.what());
        }
    });

    std::map<std::string, std::string> damaged;  // sha256 -> detail
    guarded([&] {
        Statement st = db_->prepare("SELECT sha256, size, codec, data FROM blobs");
        while (st.step()) {
            const std::string sha = st.text(0);
            const std::int64_t size = st.integer(1);
            if (auto problem = BlobStore::decode(sha, size, st.text(2), st.blob(3), nullptr))
                damaged.emplace(sha, *problem);
            ++report.blobsChecked;
            report.bytesChecked += size;
        }
    });
    guarded([&] {
        Statement st = db_->prepare(
            "SELECT c.python_code_sha256 FROM captures c LEFT JOIN blobs b ON b.sha256 = c.python_code_sha256 "
            "WHERE c.python_code_sha256 IS NOT NULL AND b.sha256 IS NULL "
            "UNION SELECT c.cache_sha256 FROM captures c LEFT JOIN blobs b ON b.sha256 = c.cache_sha256 "
            "WHERE c.cache_sha256 IS NOT NULL AND b.sha256 IS NULL");
        while (st.step())
            damaged.emplace(st.text(0), "it is missing from the blobs table");
    });

    for (const auto& [sha, detail] : damaged) {
        BlobDamage d{sha, "", detail, {}};
        std::set<std::string> roles;
        guarded([&] {
            Statement st = db_->prepare("SELECT run_id, python_code_sha256 = ?1, cache_sha256 = ?1 FROM captures "
                                        "WHERE python_code_sha256 = ?1 OR cache_sha256 = ?1 ORDER BY run_id");
            st.bind(1, std::string_view(sha));
            while (st.step()) {
                if (d.runIds.empty() || d.runIds.back() != st.integer(0))
                    d.runIds.push_back(st.integer(0));
                if (st.integer(1))
                    roles.insert("python_code");
                if (st.integer(2))
                    roles.insert("cache");
            }
        });
        if (roles.size() == 1)
            d.role = *roles.begin();
        report.damaged.push_back(std::move(d));
    }
    try {
        snapshot.commit();  // it only read; an error ending it early was reported above
    } catch (const LibraryError&) {
    }
    return report;
}

GcResult ArtifactLibrary::gc()
{
    GcResult result;
    result.fileBytesBefore = databaseBytes(*db_);
    static constexpr const char* kUnreferenced
        = " FROM blobs WHERE NOT EXISTS (SELECT 1 FROM captures WHERE python_code_sha256 = blobs.sha256) "
          "AND NOT EXISTS (SELECT 1 FROM captures WHERE cache_sha256 = blobs.sha256)";
    {
        Transaction tx(*db_);
        Statement count = db_->prepare(std::string("SELECT count(*), coalesce(sum(length(data)), 0)") + kUnreferenced);
        if (count.step()) {
            result.blobsRemoved = count.integer(0);
            result.bytesRemoved = count.integer(1);
        }
        db_->exec(std::string("DELETE") + kUnreferenced);
        tx.commit();
    }
    // Hand the freed pages back to the file system (libraries created with auto_vacuum).
    if (db_->queryInt("PRAGMA auto_vacuum") == 2)
        db_->exec("PRAGMA incremental_vacuum");
    db_->exec("PRAGMA wal_checkpoint(PASSIVE)");
    result.fileBytesAfter = databaseBytes(*db_);
    return result;
}

std::optional<std::string> ArtifactLibrary::layout(const std::string& key)
{
    std::optional<std::string> bytes;
    bool found = false;
    try {
        // A lookup only reads: it never waits for a writer's lock.
        Transaction snapshot(*db_, Transaction::Mode::Read);
        Statement st = db_->prepare("SELECT size, codec, data FROM graph_layouts WHERE key = ?");
        st.bind(1, std::string_view(key));
        if (!st.step())
            return std::nullopt;
        found = true;
        const std::int64_t size = st.integer(0);
        const std::string codec = st.text(1);
        try {
            // A size past what storeLayout could have kept is damage, not an allocation to try.
            if (size >= 0 && size <= kLayoutBudget * 64) {
                bytes = codec == "zstd" ? ZstdCodec::decompress(st.blob(2), static_cast<std::size_t>(size))
                                        : std::string(st.blob(2));
                if (bytes->size() != static_cast<std::size_t>(size))
                    bytes.reset();
            }
        } catch (const std::exception&) {
            bytes.reset();
        }
    } catch (const std::exception&) {
        return std::nullopt;  // a cache never fails its caller: a locked library just means no layout
    }
    if (!found)
        return std::nullopt;
    // Then, best effort: a hit becomes the most recently used; a damaged row goes.
    try {
        Transaction tx(*db_);
        Statement st = db_->prepare(bytes
                ? "UPDATE graph_layouts SET used_at = (SELECT max(used_at) + 1 FROM graph_layouts) WHERE key = ?"
                : "DELETE FROM graph_layouts WHERE key = ?");
        st.bind(1, std::string_view(key)).run();
        tx.commit();
    } catch (const std::exception&) {
    }
    return bytes;
}

void ArtifactLibrary::storeLayout(const std::string& key, const std::string& bytes)
{
    std::string stored = ZstdCodec::compress(bytes);
    const bool zstd = stored.size() < bytes.size();
    if (!zstd)
        stored = bytes;
    if (static_cast<std::int64_t>(stored.size()) > kLayoutBudget)
        return;
    Transaction tx(*db_);
    Statement put = db_->prepare("INSERT OR REPLACE INTO graph_layouts (key, size, codec, data, used_at) "
                                 "VALUES (?, ?, ?, ?, (SELECT coalesce(max(used_at), 0) + 1 FROM graph_layouts))");
    put.bind(1, std::string_view(key))
        .bind(2, static_cast<std::int64_t>(bytes.size()))
        .bind(3, std::string_view(zstd ? "zstd" : "raw"))
        .bindBlob(4, stored)
        .run();
    // Past the budget, the least recently used go first.
    std::int64_t total = db_->queryInt("SELECT coalesce(sum(length(data)), 0) FROM graph_layouts");
    if (total > kLayoutBudget) {
        Statement oldest = db_->prepare("SELECT key, length(data) FROM graph_layouts ORDER BY used_at");
        std::vector<std::string> drop;
        while (total > kLayoutBudget && oldest.step()) {
            drop.push_back(oldest.text(0));
            total -= oldest.integer(1);
        }
        oldest.reset();
        Statement del = db_->prepare("DELETE FROM graph_layouts WHERE key = ?");
        for (const auto& k : drop) {
            del.bind(1, std::string_view(k)).run();
            del.reset();
        }
    }
    tx.commit();
}

std::pair<std::int64_t, std::int64_t> ArtifactLibrary::layoutUsage() const
{
    Statement st = db_->prepare("SELECT count(*), coalesce(sum(length(data)), 0) FROM graph_layouts");
    st.step();
    return {st.integer(0), st.integer(1)};
}

}  // namespace ps::library
