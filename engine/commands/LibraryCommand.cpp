#include "commands/LibraryCommand.h"

#include "commands/GraphExport.h"
#include "commands/LibrarySync.h"
#include "commands/NodeStackPrinter.h"
#include "library/core/LibraryLocator.h"
#include "library/core/LoaderScript.h"

#include "model/ChromeTrace.h"
#include "model/JsonFields.h"
#include "model/Report.h"
#include "model/WorkerInfo.h"

#include "commands/LibraryCheck.h"
#include "commands/LibraryDiff.h"
#include "library/core/ArtifactLibrary.h"
#include "library/core/LibraryError.h"
#include "library/core/RunSideLoader.h"
#include "library/core/TerminalText.h"
#include "share/HtmlReport.h"

#include <cstdint>
#include <filesystem>
#include <fstream>
#include <iomanip>
#include <iostream>
#include <set>
#include <sstream>

namespace ps::commands {

namespace {

using ps::library::ArtifactLibrary;
using ps::library::LibraryError;
using json = nlohmann::json;

/// Every text from the library, an imported file or an error goes through this before it is
/// printed for a person (JSON output does not: it is exact).
using library::TerminalText;

/// JSON output: exact, except that bytes that are not UTF-8 (a file name need not be) become
/// U+FFFD instead of failing the command.
std::string dumpJson(const json& value, int indent = -1)
{
    return value.dump(indent, ' ', false, json::error_handler_t::replace);
}

/// For the commands that only read: works on a read-only library and never takes its write lock.
constexpr ArtifactLibrary::OpenOptions kReadOnly{.create = false, .readOnly = true};
constexpr ArtifactLibrary::OpenOptions kExisting{.create = false, .readOnly = false};

int exitCodeFor(LibraryError::Kind kind)
{
    switch (kind) {
    case LibraryError::Kind::NotFound:
    case LibraryError::Kind::Damaged:
    case LibraryError::Kind::Mismatch:
        return 1;
    default:
        return 2;
    }
}

/// Runs a command body, turning errors into a message on stderr and an exit code. An error
/// about another file (an import's cache, say) still names the library it was for.
template <class Body> int guarded(const std::string& libraryPath, Body&& body)
{
    const auto report = [&](const std::string& file, const char* what) {
        std::cerr << "precompile-studio: ";
        if (file != libraryPath && file != library::LibraryLocator::redacted(libraryPath))
            std::cerr << "library " << TerminalText::location(libraryPath) << ": ";
        std::cerr << TerminalText::safe(what) << "\n";
    };
    try {
        return body();
    } catch (const LibraryError& e) {
        report(e.file(), e.what());
        return exitCodeFor(e.kind());
    } catch (const std::exception& e) {
        report(std::string(), e.what());
        return 2;
    }
}

std::string humanBytes(std::int64_t bytes)
{
    std::ostringstream out;
    if (bytes < 1024) {
        out << bytes << " B";
    } else {
        static const char* kUnits[] = {"KiB", "MiB", "GiB", "TiB"};
        double v = static_cast<double>(bytes);
        int unit = -1;
        while (v >= 1024 && unit < 3) {
            v /= 1024;
            ++unit;
        }
        out << std::fixed << std::setprecision(1) << v << " " << kUnits[unit];
    }
    return out.str();
}

/// The first line of a message, terminal-safe, at most `width` bytes (cut between characters).
std::string shortLine(const std::string& text, std::size_t width)
{
    std::string line = TerminalText::safe(std::string_view(text).substr(0, text.find('\n')));
    if (line.size() > width) {
        std::size_t cut = width - 3;
        while (cut > 0 && (static_cast<unsigned char>(line[cut]) & 0xc0) == 0x80)
            --cut;  // not inside a UTF-8 sequence
        line = line.substr(0, cut) + "...";
    }
    return line;
}

/// A text printed on several lines: each line terminal-safe, continuation lines indented.
std::string indentedLines(const std::string& text, const std::string& indent)
{
    std::string out = ps::library::TerminalText::safe(text, true);
    for (std::size_t at = out.find('\n'); at != std::string::npos; at = out.find('\n', at + 1))
        out.insert(at + 1, indent);
    return out;
}

std::string backendsOf(const ps::library::RunSummary& run)
{
    std::set<std::string> seen;
    std::string out;
    for (const auto& c : run.captures)
        if (seen.insert(c.backend).second)
            out += (out.empty() ? "" : ",") + c.backend;
    return out.empty() ? "-" : out;
}

json captureJson(const ps::library::CaptureRecord& c)
{
    json j = {{"index", c.index}, {"name", c.name}, {"backend", c.backend}, {"tracer", c.tracer},
        {"status", ps::library::statusWord(c.status)}, {"message", c.message}};
    j["invariant"] = c.invariant ? json(*c.invariant) : json(nullptr);
    j["python_code_sha256"] = c.pythonCodeSha256 ? json(*c.pythonCodeSha256) : json(nullptr);
    j["cache_sha256"] = c.cacheSha256 ? json(*c.cacheSha256) : json(nullptr);
    return j;
}

json summaryJson(const ps::library::RunSummary& s, const ps::library::RunTrust& trust)
{
    json captures = json::array();
    for (const auto& c : s.captures)
        captures.push_back(captureJson(c));
    return {{"run_id", s.id}, {"created_at", s.createdAt}, {"name", s.name}, {"script", s.scriptPath},
        {"status", ps::library::statusWord(s.status)}, {"message", s.message}, {"origin", toString(s.origin)},
        {"trusted", trust.trusted()}, {"untrusted_because", trust.why()}, {"uid", s.uid}, {"ran_on", s.ranOn},
        {"stored_by", {{"user", s.storedBy.user}, {"role", s.storedBy.role}}}, {"captures", captures}};
}

/// "alice", or the role when the OS user is unknown, or "-".
std::string storedByText(const ps::library::Identity& by)
{
    if (!by.user.empty())
        return by.user;
    return by.role.empty() ? std::string("-") : by.role;
}

json damageJson(const ps::library::BlobDamage& d)
{
    return {{"sha256", d.sha256}, {"role", d.role}, {"detail", d.detail}, {"runs", d.runIds}};
}

// A subcommand that wrote one file (`trace`, `html`) says which: its path, or with --json the
// library, run and file.
int saidWritten(const std::string& path, const LibraryOptions& o)
{
    if (o.json)
        std::cout << dumpJson(
            {{"library", library::LibraryLocator::redacted(path)}, {"run_id", o.id}, {"file", o.path}})
                  << "\n";
    else
        std::cout << TerminalText::safe(o.path) << "\n";
    return 0;
}

int listRuns(const std::string& path, const LibraryOptions& o)
{
    std::vector<ps::library::RunSummary> runs;
    std::vector<ps::library::RunTrust> trust;  // each run's, for this user
    using Kind = ps::library::LibraryLocator::Kind;
    if (ps::library::LibraryLocator::kindOf(path) != Kind::File || std::filesystem::exists(path)) {
        ArtifactLibrary library(path, kReadOnly);
        ps::library::ListQuery query;
        query.search = o.search;
        if (!o.status.empty()) {
            query.status = ps::model::runStatusFromString(o.status);
            if (!query.status) {
                std::cerr << "precompile-studio: library ls --status " << TerminalText::safe(o.status)
                          << ": not a run status (ok, mismatch, violation, error, timeout, worker_died, cancelled, "
                             "protocol_error, connection_lost)\n";
                return 2;
            }
        }
        query.backend = o.backend;
        runs = library.list(query);
        for (const auto& r : runs)
            trust.push_back(library.trustOf(r));
    }
    if (o.json) {
        json out = {{"schema", 1}, {"library", library::LibraryLocator::redacted(path)}, {"runs", json::array()}};
        for (std::size_t i = 0; i < runs.size(); ++i)
            out["runs"].push_back(summaryJson(runs[i], trust[i]));
        std::cout << dumpJson(out) << "\n";
        return 0;
    }
    if (runs.empty()) {
        std::cout << "no runs in " << TerminalText::location(path) << "\n";
        return 0;
    }
    std::cout << std::left << std::setw(7) << "ID" << std::setw(21) << "CREATED (UTC)" << std::setw(11) << "STATUS"
              << std::setw(15) << "BACKEND" << std::setw(9) << "TRUSTED" << std::setw(25) << "WHERE" << std::setw(13)
              << "BY" << std::setw(28) << "NAME"
              << "MESSAGE\n";
    for (std::size_t i = 0; i < runs.size(); ++i) {
        const auto& r = runs[i];
        std::string created = shortLine(r.createdAt.substr(0, 19), 20);
        if (created.size() > 10)
            created[10] = ' ';
        std::cout << std::left << std::setw(7) << r.id << std::setw(21) << created << std::setw(11)
                  << shortLine(std::string(ps::library::statusWord(r.status)), 10) << std::setw(15)
                  << shortLine(backendsOf(r), 14) << std::setw(9) << (trust[i].trusted() ? "yes" : "no")
                  << std::setw(25) << shortLine(r.ranOn.empty() ? "-" : r.ranOn, 24) << std::setw(13)
                  << shortLine(storedByText(r.storedBy), 12) << std::setw(28) << shortLine(r.name, 27)
                  << shortLine(r.message, 60) << "\n";
    }
    return 0;
}

int showRun(const std::string& path, const LibraryOptions& o)
{
    ArtifactLibrary library(path, kReadOnly);
    const ps::library::RunRecord record = library.show(o.id);
    const auto& s = record.summary;
    if (!o.node.empty()) {
        const int found = NodeStackPrinter::print(record.report, o.node, o.json, std::cout, std::cerr);
        for (const auto& d : record.damaged)
            std::cerr << "precompile-studio: " << TerminalText::location(path) << ": run " << s.id << ": damaged blob "
                      << TerminalText::safe(d.sha256) << ": " << TerminalText::safe(d.detail) << "\n";
        return found != 0 || !record.damaged.empty() ? 1 : 0;
    }
    if (o.json) {
        std::cout << dumpJson(record.report, 2) << "\n";
    } else {
        std::cout << "run " << s.id << "  " << TerminalText::safe(s.name) << "  " << ps::library::statusWord(s.status)
                  << "  " << TerminalText::safe(s.createdAt) << "\n"
                  << "script    " << TerminalText::safe(s.scriptPath) << "\n"
                  << "origin    " << toString(s.origin) << "\n";
        if (const auto trust = library.trustOf(s); trust.trusted())
            std::cout << "trust     trusted\n";
        else
            std::cout << "trust     not trusted: " << TerminalText::safe(trust.why())
                      << "\n          once you trust it: precompile-studio library trust " << s.id << "\n";
        if (const auto worker = ps::model::WorkerInfo::fromJson(ps::model::JsonFields::member(record.report, "worker")))
            std::cout << "where     " << TerminalText::safe(worker->machine())
                      << (worker->torch.empty() ? std::string() : " \u00b7 torch " + TerminalText::safe(worker->torch))
                      << " \u00b7 " << TerminalText::safe(worker->deviceSummary()) << "\n";
        if (const auto stamps = ps::model::Stamps::fromJson(ps::model::JsonFields::member(record.report, "stamps")))
            std::cout << "stamps    " << TerminalText::safe(stamps->summary()) << "\n";
        if (!s.storedBy.user.empty() || !s.storedBy.role.empty())
            std::cout << "stored by " << TerminalText::safe(storedByText(s.storedBy))
                      << (s.storedBy.role.empty() ? std::string()
                                                  : " (database role " + TerminalText::safe(s.storedBy.role) + ")")
                      << "\n";
        if (!s.message.empty())
            std::cout << "message   " << indentedLines(s.message, "          ") << "\n";
        for (const auto& c : s.captures) {
            std::cout << "capture " << c.index << "  " << TerminalText::safe(c.name) << "  "
                      << TerminalText::safe(c.backend) << "/" << TerminalText::safe(c.tracer) << "  "
                      << ps::library::statusWord(c.status);
            if (c.invariant)
                std::cout << "  invariant " << *c.invariant;
            std::cout << "\n";
            if (!c.message.empty())
                std::cout << "    " << shortLine(c.message, 100) << "\n";
            if (c.pythonCodeSha256)
                std::cout << "    python_code  " << humanBytes(c.pythonCodeBytes.value_or(0)) << "  sha256 "
                          << TerminalText::safe(*c.pythonCodeSha256) << "\n";
            if (c.cacheSha256)
                std::cout << "    cache        " << humanBytes(c.cacheBytes.value_or(0)) << "  sha256 "
                          << TerminalText::safe(*c.cacheSha256) << "\n";
        }
    }
    for (const auto& d : record.damaged)
        std::cerr << "precompile-studio: " << TerminalText::location(path) << ": run " << s.id << ": damaged blob "
                  << TerminalText::safe(d.sha256) << ": " << TerminalText::safe(d.detail) << "\n";
    return record.damaged.empty() ? 0 : 1;
}

/// export --with-loader: load_NAME.py beside each NAME.py written (LoaderScript), added to `written`.
void writeLoaders(const ArtifactLibrary& library, const LibraryOptions& o, std::vector<std::string>& written)
{
    const nlohmann::json report = library.show(o.id, false).report;
    std::string torch = ps::model::JsonFields::text(ps::model::JsonFields::member(report, "worker"), "torch");
    if (torch.empty())
        torch = ps::model::JsonFields::text(
            ps::model::JsonFields::member(ps::model::JsonFields::member(report, "provenance"), "torch"), "version");
    const nlohmann::json& stamps = ps::model::JsonFields::member(report, "stamps");
    std::vector<std::string> loaders;
    for (const auto& file : written) {
        const std::filesystem::path p(file);
        if (p.extension() != ".py")
            continue;
        const std::string stem = p.stem().string();
        const std::filesystem::path loader = p.parent_path() / library::LoaderScript::fileName(stem);
        std::ofstream f(loader, std::ios::binary | std::ios::trunc);
        f << library::LoaderScript::text(stem, stamps, torch);
        f.close();
        if (!f.good())
            throw LibraryError(LibraryError::Kind::Io, loader.string(), "cannot write " + loader.string());
        loaders.push_back(loader.string());
    }
    written.insert(written.end(), loaders.begin(), loaders.end());
}

int exportRun(const std::string& path, const LibraryOptions& o)
{
    ArtifactLibrary library(path, kReadOnly);
    auto written = library.exportRun(o.id, o.dir);
    if (o.withLoader)
        writeLoaders(library, o, written);
    if (o.json) {
        std::cout << dumpJson(
            {{"library", library::LibraryLocator::redacted(path)}, {"run_id", o.id}, {"files", written}})
                  << "\n";
    } else {
        for (const auto& file : written)
            std::cout << TerminalText::safe(file) << "\n";
    }
    return 0;
}

// A stored run's compile-time events as a Chrome trace (model::ChromeTrace) in o.path: 1 when no
// capture of the run has a compile profile (a run of an older studio), 2 when the file cannot be written.
int traceRun(const std::string& path, const LibraryOptions& o)
{
    ArtifactLibrary library(path, kReadOnly);
    const ps::model::Report report = ps::model::Report::fromJson(library.show(o.id).report);
    if (!ps::model::ChromeTrace::available(report)) {
        std::cerr << "precompile-studio: " << TerminalText::location(path) << ": run " << o.id
                  << " has no compile-time profile (it was stored by an older studio)\n";
        return 1;
    }
    std::ofstream file(o.path, std::ios::binary | std::ios::trunc);
    file << dumpJson(ps::model::ChromeTrace::fromReport(report)) << "\n";
    file.close();
    if (!file) {
        std::cerr << "precompile-studio: cannot write " << TerminalText::safe(o.path) << "\n";
        return 2;
    }
    return saidWritten(path, o);
}

// A stored run's graphs for Model Explorer or Graphviz (GraphExport): 1 no such capture or no
// graph, 2 a file cannot be written.
int exportGraph(const std::string& path, const LibraryOptions& o)
{
    ArtifactLibrary library(path, kReadOnly);
    GraphExport::Options options;
    options.run = o.id;
    options.file = o.path;
    options.format = o.format;
    options.captures = o.captures;
    options.nodeData = !o.noNodeData;
    options.lens = o.lens;
    options.json = o.json;
    return GraphExport::run(library, path, options, std::cout, std::cerr);
}

// `library html RUN FILE`: a stored run as one HTML page (share::HtmlReport) with its script and
// python_code read back against their hashes; 1 when the run is not there, 2 when the file cannot
// be written.
int htmlRun(const std::string& path, const LibraryOptions& o)
{
    ArtifactLibrary library(path, kReadOnly);
    const ps::compare::RunSide side = ps::library::RunSideLoader::load(library, o.id);
    const std::string error = ps::share::HtmlReport::save(o.path,
        ps::share::HtmlReport::forRun(ps::model::Report::fromJson(side.report), side.scriptText, side.pythonCode));
    if (!error.empty()) {
        std::cerr << "precompile-studio: " << TerminalText::safe(error) << "\n";
        return 2;
    }
    return saidWritten(path, o);
}

int importPair(const std::string& path, const LibraryOptions& o)
{
    ArtifactLibrary library(path);
    const std::int64_t id = library.importArtifact(o.path);
    if (o.json) {
        std::cout << dumpJson(
            {{"library", library::LibraryLocator::redacted(path)}, {"run_id", id}, {"trusted", false}})
                  << "\n";
    } else {
        std::cout << "imported " << TerminalText::safe(o.path) << " into " << TerminalText::location(path) << " as run "
                  << id << "\n"
                  << "it is untrusted: python_code and the cache are executable; once you trust where it "
                     "came from, run: precompile-studio library trust "
                  << id << "\n";
    }
    return 0;
}

int trustRun(const std::string& path, const LibraryOptions& o)
{
    ArtifactLibrary library(path, kExisting);
    library.trust(o.id);
    const auto trust = library.trustOf(library.show(o.id, false).summary);
    std::cout << TerminalText::location(path) << ": run " << o.id << " trusted";
    if (trust.someoneElses())
        std::cout << " by you (it is " << TerminalText::safe(trust.owner()) << "'s; recorded in your own "
                  << TerminalText::safe(library::TrustStore::defaultPath()) << ")";
    std::cout << "\n";
    return 0;
}

int verifyLibrary(const std::string& path, const LibraryOptions& o)
{
    ArtifactLibrary library(path, kReadOnly);
    const ps::library::VerifyReport report = library.verify();
    if (o.json) {
        json damaged = json::array();
        for (const auto& d : report.damaged)
            damaged.push_back(damageJson(d));
        std::cout << dumpJson({{"library", library::LibraryLocator::redacted(path)}, {"ok", report.ok()},
            {"blobs_checked", report.blobsChecked}, {"bytes_checked", report.bytesChecked},
            {"integrity_errors", report.integrityErrors}, {"damaged", damaged}, {"run_problems", report.runProblems}})
                  << "\n";
    } else {
        for (const auto& e : report.integrityErrors)
            std::cout << TerminalText::location(path) << ": integrity: " << TerminalText::safe(e) << "\n";
        for (const auto& d : report.damaged) {
            std::cout << TerminalText::location(path) << ": damaged blob " << TerminalText::safe(d.sha256);
            if (!d.role.empty())
                std::cout << " (" << TerminalText::safe(d.role) << ")";
            if (!d.runIds.empty()) {
                std::cout << " of run";
                if (d.runIds.size() > 1)
                    std::cout << "s";
                for (std::size_t i = 0; i < d.runIds.size(); ++i)
                    std::cout << (i ? ", " : " ") << d.runIds[i];
            }
            std::cout << ": " << TerminalText::safe(d.detail) << "\n";
        }
        for (const auto& problem : report.runProblems)
            std::cout << TerminalText::location(path) << ": " << TerminalText::safe(problem) << "\n";
        std::cout << TerminalText::location(path) << ": checked " << report.blobsChecked << " blobs ("
                  << humanBytes(report.bytesChecked) << "), every run's rows and the database structure: "
                  << (report.ok() ? std::string("ok")
                                  : std::to_string(report.integrityErrors.size() + report.damaged.size()
                                        + report.runProblems.size())
                                 + " problem(s)")
                  << "\n";
    }
    return report.ok() ? 0 : 1;
}

int removeRun(const std::string& path, const LibraryOptions& o)
{
    ArtifactLibrary library(path, kExisting);
    library.remove(o.id);
    std::cout << TerminalText::location(path) << ": removed run " << o.id << " (its blobs stay until `library gc`)\n";
    return 0;
}

int collectGarbage(const std::string& path, const LibraryOptions& o)
{
    ArtifactLibrary library(path, kExisting);
    const ps::library::GcResult gc = library.gc();
    if (o.json) {
        std::cout << dumpJson({{"library", library::LibraryLocator::redacted(path)}, {"blobs_removed", gc.blobsRemoved},
            {"bytes_removed", gc.bytesRemoved}, {"database_bytes_before", gc.fileBytesBefore},
            {"database_bytes_after", gc.fileBytesAfter}})
                  << "\n";
    } else {
        std::cout << TerminalText::location(path) << ": removed " << gc.blobsRemoved << " unreferenced blob(s), "
                  << humanBytes(gc.bytesRemoved) << " stored; database " << humanBytes(gc.fileBytesBefore) << " -> "
                  << humanBytes(gc.fileBytesAfter) << "\n";
    }
    return 0;
}

/// `library diff A B`: 0 equivalent, 1 they differ, 2 a run that is not there (nothing compared).
int diffRuns(const std::string& path, const LibraryOptions& o)
{
    ArtifactLibrary library(path, kReadOnly);
    try {
        return LibraryDiff::run(library, o.id, o.other, o.json, std::cout, o.html, &std::cerr);
    } catch (const LibraryError& e) {
        if (e.kind() != LibraryError::Kind::NotFound)
            throw;
        std::cerr << "precompile-studio: " << TerminalText::safe(e.what()) << " (see `library ls`)\n";
        return 2;
    }
}

/// `library check RUN`: LibraryCheck, over the library opened read-only.
int checkRun(const std::string& path, const LibraryOptions& o)
{
    ArtifactLibrary library(path, kReadOnly);
    return LibraryCheck::run(library, o, std::cout, std::cerr);
}

}  // namespace

int LibraryCommand::run(Action action, const std::string& libraryPath, const LibraryOptions& options)
{
    int (*body)(const std::string&, const LibraryOptions&) = nullptr;
    switch (action) {
    case Action::List:
        body = listRuns;
        break;
    case Action::Show:
        body = showRun;
        break;
    case Action::Export:
        body = exportRun;
        break;
    case Action::Import:
        body = importPair;
        break;
    case Action::Trust:
        body = trustRun;
        break;
    case Action::Verify:
        body = verifyLibrary;
        break;
    case Action::Remove:
        body = removeRun;
        break;
    case Action::Diff:
        body = diffRuns;
        break;
    case Action::Gc:
        body = collectGarbage;
        break;
    case Action::Push:
        body = LibrarySync::push;
        break;
    case Action::Copy:
        return guarded(options.to, [&] { return LibrarySync::copy(options); });
    case Action::Trace:
        body = traceRun;
        break;
    case Action::Html:
        body = htmlRun;
        break;
    case Action::ExportGraph:
        body = exportGraph;
        break;
    case Action::Check:
        body = checkRun;
        break;
    }
    return guarded(libraryPath, [&] { return body(libraryPath, options); });
}

}  // namespace ps::commands
