#include "commands/LibraryCheck.h"

#include "commands/LibraryCommand.h"
#include "library/core/ArtifactFiles.h"
#include "library/core/ArtifactLibrary.h"
#include "library/core/TerminalText.h"
#include "model/JsonFields.h"
#include "model/Report.h"
#include "protocol/Protocol.h"
#include "remote/RemoteTarget.h"
#include "remote/SshDestination.h"
#include "run/RunPipeline.h"
#include "run/TempFolder.h"

#include <nlohmann/json.hpp>

#include <cstdio>
#include <filesystem>
#include <fstream>
#include <optional>
#include <ostream>
#include <sstream>

namespace ps::commands {

namespace fs = std::filesystem;
using library::TerminalText;

namespace {

struct Target {
    std::optional<std::string> pythonEnv;      ///< nullopt: the studio's own environment
    std::optional<remote::RemoteTarget> host;  ///< a host over ssh (the studio's environment there)
    std::string label;
    model::Report report;
    std::optional<model::LoadCheck> check;
};

bool writeFile(const fs::path& path, const std::string& bytes)
{
    std::ofstream f(path, std::ios::binary | std::ios::trunc);
    f << bytes;
    f.close();
    return f.good();
}

std::string readFile(const fs::path& path)
{
    std::ifstream f(path, std::ios::binary);
    std::ostringstream s;
    s << f.rdbuf();
    return s.str();
}

/// The script the check runs: the run's own file where it is still there unchanged (its
/// neighbours import as they did), else the stored text written into `folder` under its name.
std::string scriptFor(const library::RunRecord& record, const fs::path& folder)
{
    const std::string original = model::JsonFields::text(record.report, "script");
    std::error_code ec;
    if (!original.empty() && fs::is_regular_file(original, ec) && readFile(original) == record.scriptText)
        return original;
    const std::string name = original.empty() ? std::string("script.py") : fs::path(original).filename().string();
    const fs::path copy = folder / name;
    if (!writeFile(copy, record.scriptText))
        throw std::runtime_error("cannot write the run's script into " + folder.string());
    return copy.string();
}

std::string seconds(const std::optional<double>& s)
{
    if (!s)
        return "-";
    char buf[32];
    std::snprintf(buf, sizeof buf, *s < 10 ? "%.2f s" : "%.1f s", *s);
    return buf;
}

std::string outcomeWords(const Target& t)
{
    if (!t.check)
        return "not checked";
    return std::string(model::words(t.check->outcome));
}

std::string reasonOf(const Target& t)
{
    return t.check ? t.check->reason : t.report.message;
}

/// "runs on 2 of 2 targets (1 with its cache, 1 compiling its kernels)", then what failed.
std::string headline(const std::vector<Target>& targets)
{
    int loads = 0, fallback = 0, refused = 0, wrong = 0, unchecked = 0;
    for (const auto& t : targets) {
        if (!t.check || t.check->outcome == model::CheckOutcome::Error)
            ++unchecked;
        else if (t.check->outcome == model::CheckOutcome::Refused)
            ++refused;
        else if (!t.check->runs())
            ++wrong;
        else if (t.check->outcome == model::CheckOutcome::Loads)
            ++loads;
        else
            ++fallback;
    }
    const int n = static_cast<int>(targets.size());
    std::ostringstream s;
    s << (loads + fallback == n ? "runs" : "does not run everywhere: runs") << " on " << loads + fallback << " of " << n
      << (n == 1 ? " target" : " targets");
    if (loads + fallback > 0)
        s << " (" << loads << " with its cache, " << fallback << " compiling its kernels)";
    if (refused)
        s << "; refused on " << refused;
    if (wrong)
        s << "; other numbers than eager on " << wrong;
    if (unchecked)
        s << "; not checked on " << unchecked;
    return s.str();
}

int exitCode(const std::vector<Target>& targets)
{
    int code = 0;
    for (const auto& t : targets) {
        if (!t.check || t.check->outcome == model::CheckOutcome::Error)
            return 2;
        if (!t.check->runs())
            code = 1;
    }
    return code;
}

nlohmann::json toJson(std::int64_t runId, const std::string& capture, const nlohmann::json& made,
    const std::vector<Target>& targets, int code)
{
    nlohmann::json rows = nlohmann::json::array();
    for (const auto& t : targets)
        rows.push_back(
            {{"target", t.label}, {"python_env", t.pythonEnv ? nlohmann::json(*t.pythonEnv) : nlohmann::json(nullptr)},
                {"host", t.host ? nlohmann::json(t.host->host) : nlohmann::json(nullptr)},
                {"status", model::toString(t.report.status)}, {"message", t.report.message},
                {"check", model::JsonFields::member(t.report.extra(), "check")}});
    return {{"run_id", runId}, {"capture", capture}, {"made", made}, {"summary", headline(targets)},
        {"exit_code", code}, {"targets", rows}};
}

void printMatrix(std::ostream& out, const std::vector<Target>& targets)
{
    std::size_t width = 6;
    for (const auto& t : targets)
        width = std::max(width, std::min<std::size_t>(TerminalText::safe(t.label).size(), 48));
    char buf[256];
    std::snprintf(buf, sizeof buf, "  %-*s  %-16s  %-22s  %10s  %s\n", static_cast<int>(width), "target", "torch",
        "outcome", "first call", "matches eager");
    out << buf;
    for (const auto& t : targets) {
        std::string label = TerminalText::safe(t.label);
        if (label.size() > width)
            label = "..." + label.substr(label.size() - width + 3);
        const std::string torch = t.check && t.check->target ? t.check->target->torch : "-";
        std::snprintf(buf, sizeof buf, "  %-*s  %-16s  %-22s  %10s  %s\n", static_cast<int>(width), label.c_str(),
            TerminalText::safe(torch).c_str(), outcomeWords(t).c_str(),
            seconds(t.check ? t.check->firstCallS : std::nullopt).c_str(),
            t.check ? t.check->matchesWords().c_str() : "-");
        out << buf;
    }
    for (const auto& t : targets) {
        out << "  " << TerminalText::safe(t.label) << ": " << TerminalText::safe(reasonOf(t)) << "\n";
        if (t.check && !t.check->verdictMessage.empty() && t.check->verdict != "matches")
            out << "    against eager there: " << TerminalText::safe(t.check->verdictMessage) << "\n";
    }
}

}  // namespace

int LibraryCheck::run(
    library::ArtifactLibrary& library, const LibraryOptions& options, std::ostream& out, std::ostream& err)
{
    const library::RunRecord record = library.show(options.id);
    const std::string where = TerminalText::location(library.path());
    if (!record.damaged.empty()) {
        err << "precompile-studio: " << where << ": run " << options.id
            << " has damaged blobs; `library verify` names them\n";
        return 1;
    }
    const library::RunTrust trust = library.trustOf(record.summary);
    if (!trust.trusted()) {
        err << "precompile-studio: " << where << ": run " << options.id
            << " is not checked: its script and python_code would execute here, and " << TerminalText::safe(trust.why())
            << " (`library trust " << options.id << "` once you have read them)\n";
        return 1;
    }
    const model::Report stored = model::Report::fromJson(record.report);
    int index = -1;
    for (std::size_t i = 0; i < stored.captures.size(); ++i)
        if (stored.captures[i].artifact) {
            index = static_cast<int>(i);
            break;
        }
    if (index < 0) {
        err << "precompile-studio: " << where << ": run " << options.id
            << " has no artifact to check (no capture of it made a pair)\n";
        return 1;
    }
    const library::CaptureArtifact artifact = library.artifact(options.id, index);
    const model::Capture& capture = stored.captures[static_cast<std::size_t>(index)];

    run::TempFolder folder;
    if (folder.path().empty())
        throw std::runtime_error("cannot make a temporary folder for the check");
    const fs::path dir(folder.path());
    const std::string stem = library::ArtifactFiles::fileStem(capture.name);
    const fs::path codePath = dir / (stem + ".py"), cachePath = dir / (stem + ".cache");
    if (!writeFile(codePath, artifact.pythonCode) || !writeFile(cachePath, artifact.cache))
        throw std::runtime_error("cannot write the pair into " + dir.string());

    protocol::PairCheck pair;
    pair.pythonCode = codePath.string();
    pair.cache = cachePath.string();
    pair.backend = capture.backend;
    pair.tracer = capture.tracer;
    pair.stamps = model::JsonFields::member(record.report, "stamps");
    if (const auto& devices = model::JsonFields::member(capture.json, "devices"); devices.is_array())
        for (const auto& d : devices)
            pair.usesGpu = pair.usesGpu || (d.is_string() && d.get<std::string>().rfind("cuda", 0) == 0);

    std::vector<Target> targets;
    for (const auto& e : options.pythonEnvs)
        targets.push_back({.pythonEnv = e, .label = e});
    for (const auto& h : options.hosts)
        targets.push_back({.host = remote::RemoteTarget{h, options.remoteStudio, options.remoteDir, ""},
            .label = remote::SshDestination::displayName(h)});
    if (targets.empty())
        targets.push_back({.label = "the studio's environment"});
    if (!options.hosts.empty())
        for (const std::string* bytes : {&artifact.pythonCode, &artifact.cache})
            if (bytes->size() >= protocol::kMaxFrameBytes) {
                err << "precompile-studio: " << where << ": run " << options.id << "'s pair is too large to check on "
                    << "a host: a file of it is " << bytes->size() / (1 << 20)
                    << " MiB, and a check sends each whole, under 256 MiB\n";
                return 2;
            }

    const std::string script = scriptFor(record, dir);
    for (auto& t : targets) {
        if (!options.json)
            err << "checking run " << options.id << (t.host ? " on " : " in ") << TerminalText::safe(t.label)
                << "...\n";
        run::RunPipeline pipeline
            = t.host ? run::RunPipeline::forHost(*t.host) : run::RunPipeline::forEnvironment(t.pythonEnv);
        run::PipelineOptions po;
        po.run.script = script;
        po.run.timeoutSeconds = options.timeoutSeconds;
        po.run.check = pair;
        t.report = pipeline.run(po).report;
        t.check = t.report.check;
        pipeline.shutdown();
    }
    const int code = exitCode(targets);
    if (options.json) {
        out << toJson(options.id, capture.name, pair.stamps, targets, code).dump(2) << "\n";
        return code;
    }
    out << "run " << options.id << " (" << TerminalText::safe(capture.name) << "): " << headline(targets) << "\n";
    if (const auto made = model::Stamps::fromJson(pair.stamps))
        out << "  made with " << TerminalText::safe(made->summary()) << "\n";
    printMatrix(out, targets);
    return code;
}

}  // namespace ps::commands
