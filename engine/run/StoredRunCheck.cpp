#include "run/StoredRunCheck.h"

#include "library/core/ArtifactFiles.h"
#include "library/core/ArtifactLibrary.h"
#include "library/core/LibraryError.h"
#include "model/JsonFields.h"
#include "protocol/Protocol.h"
#include "run/RunPipeline.h"
#include "run/StoredRunScript.h"
#include "run/TempFolder.h"

#include <algorithm>
#include <cmath>
#include <filesystem>
#include <fstream>
#include <sstream>

namespace ps::run {

namespace fs = std::filesystem;

namespace {

bool writeWhole(const fs::path& path, const std::string& bytes)
{
    std::ofstream f(path, std::ios::binary | std::ios::trunc);
    f << bytes;
    f.close();
    return f.good();
}

}  // namespace

StoredRunCheck::StoredRunCheck(const library::ArtifactLibrary& library, std::int64_t runId) : m_runId(runId)
{
    prepare(library);
}

StoredRunCheck::StoredRunCheck(const std::string& libraryLocation, std::int64_t runId) : m_runId(runId)
{
    const library::ArtifactLibrary library(libraryLocation, {.create = false, .readOnly = true});
    prepare(library);
}

StoredRunCheck::~StoredRunCheck() = default;

void StoredRunCheck::prepare(const library::ArtifactLibrary& library)
{
    const library::RunRecord record = library.show(m_runId);
    const std::string run = "run " + std::to_string(m_runId);
    m_refusal = StoredRunScript::refusal(
        library, record, m_runId, "is not checked: its script and python_code would execute here");
    if (!m_refusal.empty())
        return;
    const model::Report stored = model::Report::fromJson(record.report);
    int index = -1;
    for (std::size_t i = 0; i < stored.captures.size() && index < 0; ++i)
        if (stored.captures[i].artifact)
            index = static_cast<int>(i);
    if (index < 0) {
        m_refusal = run + " has no artifact to check (no capture of it made a pair)";
        return;
    }
    const model::Capture& capture = stored.captures[static_cast<std::size_t>(index)];
    const library::CaptureArtifact artifact = library.artifact(m_runId, index);
    m_capture = capture.name;
    m_backend = capture.backend;
    m_tracer = capture.tracer;
    m_stamps = model::JsonFields::member(record.report, "stamps");
    if (const auto& devices = model::JsonFields::member(capture.json, "devices"); devices.is_array())
        for (const auto& d : devices)
            m_usesGpu = m_usesGpu || (d.is_string() && d.get<std::string>().rfind("cuda", 0) == 0);
    m_largestFile = std::max(artifact.pythonCode.size(), artifact.cache.size());

    m_folder = std::make_unique<TempFolder>();
    if (m_folder->path().empty())
        throw std::runtime_error("cannot make a temporary folder for the check");
    const fs::path dir(m_folder->path());
    const std::string stem = library::ArtifactFiles::fileStem(capture.name);
    m_codePath = (dir / (stem + ".py")).string();
    m_cachePath = (dir / (stem + ".cache")).string();
    if (!writeWhole(m_codePath, artifact.pythonCode) || !writeWhole(m_cachePath, artifact.cache))
        throw std::runtime_error("cannot write the pair into " + dir.string());
    m_script = StoredRunScript::place(record, dir.string());
}

StoredRunCheck::Outcome StoredRunCheck::check(const Target& target, double timeoutSeconds, bool coldStart)
{
    Outcome out{target, model::Report::failed(m_script, model::RunStatus::Error, ""), std::nullopt};
    if (target.host && m_largestFile >= protocol::kMaxFrameBytes) {
        out.report.message = "the pair is too large to check on a host: a file of it is "
            + std::to_string(m_largestFile >> 20) + " MiB, and a check sends each whole, under 256 MiB";
        return out;
    }
    RunPipeline pipeline
        = target.host ? RunPipeline::forHost(*target.host) : RunPipeline::forEnvironment(target.pythonEnv);
    {
        std::lock_guard lock(m_mutex);
        if (m_cancelled) {
            out.report = model::Report::failed(m_script, model::RunStatus::Cancelled, "cancelled");
            return out;
        }
        m_running = &pipeline;
    }
    PipelineOptions options;
    options.run.script = m_script;
    // The ledger is five more fresh processes, each about as long as the check's own load.
    options.run.timeoutSeconds = coldStart ? timeoutSeconds * 6 : timeoutSeconds;
    protocol::PairCheck pair;
    pair.pythonCode = m_codePath;
    pair.cache = m_cachePath;
    pair.backend = m_backend;
    pair.tracer = m_tracer;
    pair.stamps = m_stamps;
    pair.usesGpu = m_usesGpu;
    pair.coldStart = coldStart;
    options.run.check = pair;
    out.report = pipeline.run(options).report;
    out.check = out.report.check;
    {
        std::lock_guard lock(m_mutex);
        m_running = nullptr;
    }
    pipeline.shutdown();
    return out;
}

void StoredRunCheck::cancel()
{
    std::lock_guard lock(m_mutex);
    m_cancelled = true;
    if (m_running)
        m_running->cancel();
}

std::string StoredRunCheck::outcomeWords(const Outcome& o)
{
    return o.check ? std::string(model::words(o.check->outcome)) : std::string("not checked");
}

std::string StoredRunCheck::reasonOf(const Outcome& o)
{
    return o.check ? o.check->reason : o.report.message;
}

std::string StoredRunCheck::headline(const std::vector<Outcome>& outcomes)
{
    int loads = 0, fallback = 0, refused = 0, wrong = 0, unchecked = 0;
    for (const auto& o : outcomes) {
        if (!o.check || o.check->outcome == model::CheckOutcome::Error)
            ++unchecked;
        else if (o.check->outcome == model::CheckOutcome::Refused)
            ++refused;
        else if (!o.check->runs())
            ++wrong;
        else if (o.check->outcome == model::CheckOutcome::Loads)
            ++loads;
        else
            ++fallback;
    }
    const int n = static_cast<int>(outcomes.size());
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

std::optional<library::CheckRecord> StoredRunCheck::recordOf(const Outcome& o)
{
    if (!learned(o))
        return std::nullopt;
    library::CheckRecord r;
    r.target = o.target.label;
    r.outcome = std::string(model::toString(o.check->outcome));
    r.runs = o.check->runs();
    // A worker's number (a host's, maybe): only a finite, sane one becomes milliseconds.
    if (o.check->firstCallS && std::isfinite(*o.check->firstCallS) && *o.check->firstCallS >= 0
        && *o.check->firstCallS < 1e9)
        r.firstCallMs = static_cast<std::int64_t>(*o.check->firstCallS * 1000.0 + 0.5);
    if (o.check->target)
        r.torch = o.check->target->torch;
    r.reason = o.check->reason;
    r.check = model::JsonFields::member(o.report.extra(), "check");
    return r;
}

int StoredRunCheck::keep(library::ArtifactLibrary& library, const std::vector<Outcome>& outcomes) const
{
    int kept = 0;
    const auto learnedCount = std::count_if(outcomes.begin(), outcomes.end(), learned);
    for (const auto& o : outcomes)
        if (const auto record = recordOf(o)) {
            try {
                library.addCheck(m_runId, *record);
            } catch (const library::LibraryError& e) {
                if (kept == 0)
                    throw;
                // Some are kept already: the message says how many, never "not kept" of all.
                std::string why = e.what();
                if (!e.file().empty() && why.rfind(e.file() + ": ", 0) == 0)
                    why = why.substr(e.file().size() + 2);
                throw library::LibraryError(e.kind(), e.file(),
                    "kept " + std::to_string(kept) + " of " + std::to_string(learnedCount)
                        + " checks, not the rest: " + why);
            }
            ++kept;
        }
    return kept;
}

std::string StoredRunCheck::keep(const std::string& location, const std::vector<Outcome>& outcomes) const
{
    try {
        library::ArtifactLibrary library(location, {.create = false, .readOnly = false});
        if (const std::string why = library.readOnlyReason(); !why.empty())
            return why;
        keep(library, outcomes);
        return {};
    } catch (const std::exception& e) {
        return e.what();
    }
}

int StoredRunCheck::exitCode(const std::vector<Outcome>& outcomes)
{
    int code = 0;
    for (const auto& o : outcomes) {
        if (!o.check || o.check->outcome == model::CheckOutcome::Error)
            return 2;
        if (!o.check->runs())
            code = 1;
    }
    return code;
}

}  // namespace ps::run
