#include "commands/LibraryCommand.h"

#include "commands/GraphExport.h"
#include "commands/LibrarySync.h"
#include "commands/NodeStackPrinter.h"
#include "library/core/LibraryLocator.h"
#include "library/core/LoaderScript.h"

#include "model/CheckOutcome.h"
#include "model/ChromeTrace.h"
#include "model/JsonFields.h"
#include "model/Report.h"
#include "model/WorkerInfo.h"

#include "commands/LibraryCheck.h"
#include "commands/LibraryDiff.h"
#include "commands/LibraryListing.h"
#include "commands/LibraryRepro.h"
#include "commands/LibraryText.h"
#include "library/core/ArtifactLibrary.h"
#include "library/core/LibraryError.h"
#include "library/core/RunSideLoader.h"
#include "library/core/TerminalText.h"
#include "share/HtmlReport.h"

#include <cstdint>
#include <cstdio>
#include <filesystem>
#include <fstream>
#include <iomanip>
#include <iostream>
#include <optional>
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

std::string dumpJson(const json& value, int indent = -1)
{
    return LibraryText::dumpJson(value, indent);
}

std::string humanBytes(std::int64_t bytes)
{
    return LibraryText::humanBytes(bytes);
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

/// `library check RUN`: LibraryCheck, which keeps its outcomes with the run; a library that
/// cannot be written is checked all the same, read-only, and the check says it was not kept.
int checkRun(const std::string& path, const LibraryOptions& o)
{
    std::optional<ArtifactLibrary> library;
    std::string cannotKeep;
    try {
        library.emplace(path, ArtifactLibrary::OpenOptions{.create = false, .readOnly = false});
    } catch (const LibraryError& e) {
        if (e.kind() != LibraryError::Kind::ReadOnly && e.kind() != LibraryError::Kind::DiskFull
            && e.kind() != LibraryError::Kind::NewerSchema)
            throw;
        cannotKeep = e.what();
        library.emplace(path, kReadOnly);
    }
    return LibraryCheck::run(*library, o, std::cout, std::cerr, cannotKeep);
}

/// `library repro RUN DIR`: LibraryRepro (the run's script runs again; nothing is stored).
int reproRun(const std::string& path, const LibraryOptions& o)
{
    const ArtifactLibrary library(path, kReadOnly);
    return LibraryRepro::run(library, o, std::cout, std::cerr);
}

}  // namespace

int LibraryCommand::run(Action action, const std::string& libraryPath, const LibraryOptions& options)
{
    int (*body)(const std::string&, const LibraryOptions&) = nullptr;
    switch (action) {
    case Action::List:
        body = LibraryListing::list;
        break;
    case Action::Show:
        body = LibraryListing::show;
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
    case Action::Repro:
        body = reproRun;
        break;
    }
    return guarded(libraryPath, [&] { return body(libraryPath, options); });
}

}  // namespace ps::commands
