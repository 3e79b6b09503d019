#include "run/RunPipeline.h"

#include "library/core/ArtifactFiles.h"
#include "library/core/ArtifactLibrary.h"
#include "library/core/LibraryError.h"
#include "library/core/LibraryLocator.h"
#include "library/core/PreparedRun.h"
#include "library/core/Sha256.h"
#include "protocol/ProcessTree.h"
#include "protocol/ProtocolError.h"
#include "protocol/RunClient.h"
#include "protocol/StartError.h"
#include "protocol/WorkerLocator.h"
#include "remote/RemoteTarget.h"
#include "remote/RemoteWorker.h"
#include "remote/SshDestination.h"
#include "run/TempFolder.h"

#include <chrono>
#include <filesystem>
#include <fstream>
#include <mutex>
#include <sstream>

namespace ps::run {

namespace fs = std::filesystem;

namespace {

// The script's text kept with the run (for display and search) is cut here.
constexpr std::size_t kMaxScriptText = 16 * 1024 * 1024;

std::optional<std::string> readFile(const fs::path& path, std::size_t limit = std::string::npos)
{
    std::ifstream f(path, std::ios::binary);
    if (!f)
        return std::nullopt;
    // Sized once and read in one call: a 200 MiB cache reads at about 1 GB/s this way, at
    // about 0.4 GB/s through a stringstream (bench_remote measured both).
    std::error_code ec;
    const std::uintmax_t size = fs::file_size(path, ec);
    std::string text(ec ? std::min<std::size_t>(limit, 64u << 20) : std::min<std::uintmax_t>(size, limit), '\0');
    f.read(text.data(), static_cast<std::streamsize>(text.size()));
    text.resize(static_cast<std::size_t>(f.gcount()));
    return text;
}

}  // namespace

namespace {
void sweepOnce()
{
    // What a front end killed with kill -9 left behind: its workers' processes and folders.
    // Once per process: the lessons and the window make several pipelines.
    static std::once_flag swept;
    std::call_once(swept, []() {
        protocol::ProcessTree::sweepOrphans();
        TempFolder::sweepStale();
    });
}
}  // namespace

RunPipeline::RunPipeline(protocol::ChannelFactory factory, bool keepWarm)
{
    sweepOnce();
    m_client = std::make_unique<protocol::RunClient>(std::move(factory), keepWarm);
}

RunPipeline RunPipeline::forHost(const remote::RemoteTarget& target, bool keepWarm)
{
    if (auto problem = remote::SshDestination::problem(target.host); !problem.empty())
        return RunPipeline(std::nullopt, keepWarm, problem, model::StartFailure::Unreachable);
    return RunPipeline(
        [target]() -> std::unique_ptr<protocol::WorkerChannel> {
            return std::make_unique<remote::RemoteWorker>(target);
        },
        keepWarm);
}

bool RunPipeline::worthStoring(const model::Report& report, bool storeCancelled)
{
    if (report.status == model::RunStatus::Cancelled)
        return storeCancelled;
    if (report.status == model::RunStatus::ConnectionLost)
        return false;
    if (report.startFailure && model::isHostFailure(*report.startFailure))
        return false;
    return true;
}

RunPipeline::RunPipeline(std::optional<protocol::WorkerLaunch> launch, bool keepWarm, std::string launchProblem,
    std::optional<model::StartFailure> launchCause)
    : m_launchProblem(std::move(launchProblem)), m_launchCause(launchCause)
{
    sweepOnce();
    if (launch)
        m_client = std::make_unique<protocol::RunClient>(std::move(*launch), keepWarm);
    else if (m_launchProblem.empty())
        m_launchProblem = "no worker was given to run scripts with";
}

RunPipeline RunPipeline::forEnvironment(const std::optional<std::string>& pythonEnv, bool keepWarm)
{
    try {
        return RunPipeline(protocol::WorkerLocator::locate(pythonEnv), keepWarm);
    } catch (const protocol::StartError& e) {
        return RunPipeline(std::nullopt, keepWarm, e.what(), e.cause());
    } catch (const protocol::ProtocolError& e) {
        return RunPipeline(std::nullopt, keepWarm, e.what(), model::StartFailure::Spawn);
    }
}

RunPipeline::~RunPipeline() = default;
RunPipeline::RunPipeline(RunPipeline&&) noexcept = default;

void RunPipeline::prewarm()
{
    if (!m_client)
        return;
    try {
        m_client->prewarm();
    } catch (const protocol::ProtocolError&) {
        // The next run reports it, in the run's words.
    }
}

bool RunPipeline::warmUp(std::chrono::milliseconds timeout, const protocol::RunObserver& observer, std::string& problem)
{
    problem.clear();
    if (!m_client) {
        problem = m_launchProblem;
        return false;
    }
    try {
        return m_client->warmUp(protocol::RunClient::Clock::now() + timeout, observer, problem);
    } catch (const protocol::ProtocolError& e) {
        problem = std::string("the worker could not be started: ") + e.what();
        return false;
    }
}

void RunPipeline::cancel()
{
    if (m_client)
        m_client->cancel();
}

void RunPipeline::clearCancel()
{
    if (m_client)
        m_client->clearCancel();
}

void RunPipeline::shutdown()
{
    if (m_client)
        m_client->shutdown();
}

std::optional<nlohmann::json> RunPipeline::hello() const
{
    return m_client ? m_client->hello() : std::nullopt;
}

RunResult RunPipeline::run(const PipelineOptions& options, const protocol::RunObserver& observer)
{
    const auto started = std::chrono::steady_clock::now();
    m_exportError.clear();
    RunResult result;
    std::error_code ec;
    const std::string script
        = options.run.script.empty() ? std::string() : fs::absolute(options.run.script, ec).lexically_normal().string();
    auto finish = [&]() -> RunResult {
        if (options.libraryPath && worthStoring(result.report, options.storeCancelled))
            store(options, result, observer);
        if (options.exportDir)
            exportTo(*options.exportDir, result);
        result.elapsedSeconds = std::chrono::duration<double>(std::chrono::steady_clock::now() - started).count();
        return std::move(result);
    };

    if (script.empty() || !fs::is_regular_file(script, ec)) {
        result.report = model::Report::failed(script, model::RunStatus::Error,
            script.empty()               ? std::string("no script was given")
                : fs::exists(script, ec) ? script + " is not a regular file"
                                         : "no such file: " + script);
        return finish();
    }
    result.scriptText = readFile(script, kMaxScriptText).value_or("");
    if (!m_client) {
        result.report = model::Report::failed(script, model::RunStatus::Error, m_launchProblem);
        result.report.startFailure = m_launchCause.value_or(model::StartFailure::Environment);
        return finish();
    }

    TempFolder folder;
    if (folder.path().empty()) {
        result.report = model::Report::failed(script, model::RunStatus::Error,
            "no temporary folder could be made under " + fs::temp_directory_path(ec).string());
        return finish();
    }
    protocol::RunOptions o = options.run;
    o.script = script;
    o.outDir = folder.path();
    try {
        result.report = m_client->run(o, observer);
        readArtifacts(folder.path(), result);
    } catch (const std::exception& e) {
        // A bug of ours, not the script's: said as such, and the run still ends in a report.
        m_client->shutdown();
        result.artifacts.clear();
        result.report = model::Report::failed(
            script, model::RunStatus::Error, std::string("the studio failed while running the script: ") + e.what());
    }
    return finish();
}

void RunPipeline::readArtifacts(const std::string& folder, RunResult& result) const
{
    auto& captures = result.report.captures;
    result.artifacts.assign(captures.size(), CaptureBytes{});
    for (std::size_t i = 0; i < captures.size(); ++i) {
        auto& c = captures[i];
        // The worker's files live in `folder`, which is removed when the run returns: nothing
        // in the report may point there.
        if (auto a = c.json.find("artifact"); a != c.json.end() && a->is_object())
            a->erase("files");
        if (!c.artifact)
            continue;
        auto& bytes = result.artifacts[i];
        const fs::path base = fs::path(folder) / ("capture-" + std::to_string(i));
        bytes.pythonCode = readFile(base.string() + ".py");
        bytes.cache = readFile(base.string() + ".cache");
        if (!bytes.pythonCode || !bytes.cache) {
            bytes.error = "the worker wrote no artifact files for capture " + std::to_string(i);
        } else if (library::Sha256::hex(*bytes.pythonCode) != c.artifact->pythonCodeSha256
            || library::Sha256::hex(*bytes.cache) != c.artifact->cacheSha256) {
            bytes.error = "the worker's artifact files for capture " + std::to_string(i)
                + " do not match the hashes its report records";
        } else {
            continue;
        }
        bytes.pythonCode.reset();
        bytes.cache.reset();
        // The artifact the report describes is not there: the capture did not produce what it
        // says, and the run is not ok.
        c.status = model::CaptureStatus::Error;
        c.outcome = model::Violation{};
        c.outcome->rule = "artifact-missing";
        c.outcome->message = bytes.error;
        c.outcomeStage = model::Stage::Artifact;
        c.json["outcome"]
            = {{"where", "artifact"}, {"invariant", nullptr}, {"rule", "artifact-missing"}, {"message", bytes.error}};
        if (model::ranToTheEnd(result.report.status) && result.report.status != model::RunStatus::Error) {
            result.report.status = model::RunStatus::Error;
            result.report.message = c.name + ": " + bytes.error;
        }
    }
}

void RunPipeline::store(const PipelineOptions& options, RunResult& result, const protocol::RunObserver& observer)
{
    const std::string& libraryPath = *options.libraryPath;
    auto& report = result.report;
    if (observer.onStage)
        observer.onStage(model::Stage::Store, "");
    library::NewRun run;
    report.stored = true;  // as the library will hold it
    report.storeError.reset();
    report.runId.reset();
    run.report = report.toJson();
    for (const auto& bytes : result.artifacts)
        run.captures.push_back({bytes.pythonCode, bytes.cache});
    run.scriptText = result.scriptText;
    run.uid = library::PreparedRun::newUid();  // the same here and, if kept locally, when pushed
    try {
        if (!m_library || m_libraryLocation != libraryPath) {
            m_library.reset();
            m_library = std::make_unique<library::ArtifactLibrary>(libraryPath);
            m_libraryLocation = libraryPath;
        }
        report.runId = m_library->insert(run);
    } catch (const library::LibraryError& e) {
        m_library.reset();  // the next run opens the library again
        report.stored = false;
        report.storeError = e.what();
        if (e.kind() == library::LibraryError::Kind::Unreachable && options.fallbackLibraryPath)
            keepLocally(options, run, result, e.what());
    } catch (const std::exception& e) {
        m_library.reset();
        report.stored = false;
        report.storeError = e.what();
    }
}

void RunPipeline::keepLocally(
    const PipelineOptions& options, const library::NewRun& run, RunResult& result, const std::string& why)
{
    auto& report = result.report;
    const std::string target = library::LibraryLocator::redacted(*options.libraryPath);
    try {
        library::ArtifactLibrary local(*options.fallbackLibraryPath);
        const std::int64_t id = local.insert(run);
        local.keepForPush(id, target, why);
        report.storeError = "the team library " + target + " cannot be reached; the run is kept in " + local.path()
            + " as run " + std::to_string(id)
            + ", to send with `precompile-studio library push` when the server is back";
        report.extra()["kept"] = {{"library", local.path()}, {"run_id", id}, {"target", target}, {"reason", why}};
    } catch (const std::exception& e) {
        report.storeError = why + "; and it could not be kept locally either: " + e.what();
    }
}

void RunPipeline::exportTo(const std::string& dir, RunResult& result)
{
    std::vector<library::CaptureArtifact> artifacts;
    for (std::size_t i = 0; i < result.artifacts.size(); ++i) {
        const auto& bytes = result.artifacts[i];
        if (!bytes.pythonCode || !bytes.cache)
            continue;
        artifacts.push_back({static_cast<int>(i), result.report.captures[i].name, *bytes.pythonCode, *bytes.cache});
    }
    try {
        result.exported = library::ArtifactFiles::write(dir, result.report.toJson(), artifacts);
    } catch (const std::exception& e) {
        m_exportError = e.what();
    }
}

}  // namespace ps::run
