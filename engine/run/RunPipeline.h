#pragma once

#include "protocol/RunObserver.h"
#include "protocol/RunOptions.h"
#include "protocol/WorkerChannel.h"
#include "protocol/WorkerLaunch.h"
#include "run/RunResult.h"

#include <nlohmann/json.hpp>

#include <chrono>
#include <memory>
#include <optional>
#include <string>

namespace ps::protocol {
class RunClient;
}
namespace ps::library {
class ArtifactLibrary;
struct NewRun;
}  // namespace ps::library
namespace ps::remote {
struct RemoteTarget;
}

namespace ps::run {

/// What a run should do besides running.
struct PipelineOptions {
    protocol::RunOptions run;                ///< script, backend, tracer, timeout, verify (outDir is ours)
    std::optional<std::string> libraryPath;  ///< store the run here; nullopt: keep nothing
    std::optional<std::string> exportDir;    ///< also write NAME.py, NAME.cache and NAME.json here
    /// Where a run is kept, marked for `library push`, when libraryPath is a team library that
    /// cannot be reached (a local file library, e.g. the default one); nullopt: nowhere.
    std::optional<std::string> fallbackLibraryPath;
    /// Store cancelled runs too (the command line never cancels; the window keeps none).
    bool storeCancelled = false;
};

/// The one path every run takes (docs/ARCHITECTURE.md, "Data flow of a run"): a private
/// temporary folder, the worker (RunClient), the artifact bytes read back and checked against
/// the report's hashes, the store into the library, the export, each step once; the folder is
/// removed before run() returns, and nothing in the report points into it. `precompile-studio
/// run`, `lessons run`, the window and its Lessons dock are adapters over this class.
///
/// Never throws for what a script, a worker or a library file does: every failure ends up in
/// the report (status, start_failure, store_error) or, for an export, in exportError().
///
/// Thread contract: one thread owns an instance and calls everything but cancel(), which any
/// thread may call at any time.
class RunPipeline {
public:
    /// `launchProblem`: why no worker can start (from WorkerLocator), or empty. A pipeline
    /// made with a problem answers every run with a report that says it (start_failure set).
    explicit RunPipeline(std::optional<protocol::WorkerLaunch> launch, bool keepWarm = false,
        std::string launchProblem = {}, std::optional<model::StartFailure> launchCause = {});
    /// Workers made by `factory` (a remote one, say).
    RunPipeline(protocol::ChannelFactory factory, bool keepWarm);
    /// Locates the worker (WorkerLocator) for `pythonEnv` (nullopt: the build's environment).
    static RunPipeline forEnvironment(const std::optional<std::string>& pythonEnv, bool keepWarm = false);
    /// Runs on another host over ssh (remote::RemoteWorker); a destination that cannot be one
    /// makes a pipeline that says why (start_failure unreachable).
    static RunPipeline forHost(const remote::RemoteTarget& target, bool keepWarm = false);
    /// Whether a report is kept in the library: not a cancelled run (unless asked), not a run
    /// whose connection to its host was lost or never made (the script did nothing to be kept).
    static bool worthStoring(const model::Report& report, bool storeCancelled);
    ~RunPipeline();
    RunPipeline(RunPipeline&&) noexcept;

    RunResult run(const PipelineOptions& options, const protocol::RunObserver& observer = {});

    /// Why no worker can start ("" when one can).
    const std::string& launchProblem() const { return m_launchProblem; }
    /// Starts a worker now, so that the first run finds torch imported. Never throws.
    void prewarm();
    /// Starts a worker if none is running and waits up to `timeout` for its hello (see
    /// RunClient::warmUp). True when a worker is ready; false with `problem` when none can be
    /// (`problem` empty: the wait timed out or was cancelled). Never throws.
    bool warmUp(std::chrono::milliseconds timeout, const protocol::RunObserver& observer, std::string& problem);
    /// Kills the running worker; see RunClient::cancel. Thread-safe.
    void cancel();
    void clearCancel();
    /// Stops the worker kept warm.
    void shutdown();
    /// The worker's hello from its last start.
    std::optional<nlohmann::json> hello() const;
    /// Why the last export failed ("" when it worked or none was asked for).
    const std::string& exportError() const { return m_exportError; }

private:
    void readArtifacts(const std::string& folder, RunResult& result) const;
    void store(const PipelineOptions& options, RunResult& result, const protocol::RunObserver& observer);
    /// Keeps a run the team library could not take in the fallback library, marked for push.
    void keepLocally(
        const PipelineOptions& options, const library::NewRun& run, RunResult& result, const std::string& why);
    void exportTo(const std::string& dir, RunResult& result);

    std::unique_ptr<protocol::RunClient> m_client;
    std::string m_launchProblem;
    std::optional<model::StartFailure> m_launchCause;
    std::unique_ptr<library::ArtifactLibrary> m_library;
    std::string m_libraryLocation;  ///< what m_library was opened with (a password included)
    std::string m_exportError;
};

}  // namespace ps::run
