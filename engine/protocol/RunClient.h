#pragma once

#include "model/Report.h"
#include "protocol/LogBuffer.h"
#include "protocol/RunObserver.h"
#include "protocol/RunOptions.h"
#include "protocol/WorkerChannel.h"
#include "protocol/WorkerLaunch.h"

#include <nlohmann/json.hpp>

#include <atomic>
#include <chrono>
#include <memory>
#include <optional>
#include <string>

namespace ps::protocol {

class WorkerMessage;

/// Runs scripts in worker processes and turns every outcome into a Report: what the worker
/// reported, or a timeout, or a worker that died (with its exit status or signal and, where
/// faulthandler printed one, the script line it died on), or a worker that broke the protocol
/// (status ProtocolError: the worker is killed). Every message is checked at the edge
/// (WorkerMessage::parse). Never throws for what a script or a worker does.
///
/// A worker serves one run: its interpreter is left in whatever state the script made, so the
/// next run gets a fresh one. With keepWarm, the next worker is started (and imports torch)
/// as soon as a run ends, so it is ready when the next run comes.
///
/// Thread contract: one thread owns an instance and calls everything but cancel(), which any
/// thread may call at any time (the window's Cancel while a run blocks its worker thread).
class RunClient {
public:
    using Clock = std::chrono::steady_clock;

    explicit RunClient(WorkerLaunch launch, bool keepWarm = false);
    /// Workers made by `factory`: one on another host (remote::RemoteWorker), say.
    explicit RunClient(ChannelFactory factory, bool keepWarm = false);
    ~RunClient();

    model::Report run(const RunOptions& options, const RunObserver& observer = {});

    /// Starts a worker now if none is running (for a warm first run).
    void prewarm();
    /// Starts a worker if none is running and waits until it says hello (torch imported) or
    /// `deadline` passes; its output goes to `observer`. True when a worker is ready. False
    /// with `problem` when it could not become ready (it died, sent `fatal` or broke the
    /// protocol: it is dropped, and the next run starts another and reports why), and its
    /// typed cause in `cause` when given; false with an empty `problem` when the deadline passed
    /// (it is kept) or cancel() interrupted it.
    bool warmUp(Clock::time_point deadline, const RunObserver& observer, std::string& problem,
        model::StartFailure* cause = nullptr);
    /// The worker's hello message from the last start (python, torch and libtorch versions).
    const std::optional<nlohmann::json>& hello() const { return m_hello; }
    /// Where the last worker ran and what it has (the report's `worker`): host (null for this
    /// computer), hostname, studio, protocol, python, torch, cuda, devices. Null before a hello.
    nlohmann::json workerInfo() const;
    /// Output of the last run, bounded.
    const LogBuffer& log() const { return m_log; }
    void shutdown();
    /// Kills the running worker; the run in progress returns status Cancelled. Called before
    /// run() begins (from another thread, as the window's Cancel may be), it cancels that run.
    /// Thread-safe.
    void cancel();
    /// Withdraws a cancel no run has consumed (one that came just after a run ended).
    void clearCancel();

private:
    struct StartProblem {
        model::StartFailure cause = model::StartFailure::Died;
        std::string message;
    };
    bool startWorker(Clock::time_point deadline, const RunObserver& observer, StartProblem& problem);
    void retireWorker(const RunObserver& observer);
    void dropWorker();
    void addOutput(const RunObserver& observer, int stream, std::string_view data);
    model::Report diedReport(const RunOptions& options, model::Stage stage, const ExitStatus& status);
    /// The steps of run(): each report that ends a run early retires the worker as it must.
    enum class Stop { Timeout, Cancelled, Protocol };
    model::Report stoppedReport(
        Stop why, const RunOptions& options, model::Stage stage, const RunObserver& observer, const std::string& what);
    model::Report notStartedReport(const RunOptions& options, const StartProblem& problem);
    model::Report runOnWorker(const RunOptions& options, const RunObserver& observer);
    model::Report connectionLostReport(const RunOptions& options, model::Stage stage, const ExitStatus& status);
    /// One message of the worker during a run: a stage is announced to the observer, a result
    /// or a fatal error becomes the report; anything else throws ProtocolError.
    std::optional<model::Report> onMessage(
        const WorkerMessage& message, const RunOptions& options, model::Stage& stage, const RunObserver& observer);

    ChannelFactory m_factory;
    bool m_keepWarm;
    std::unique_ptr<WorkerChannel> m_worker;
    nlohmann::json m_where;      ///< the last worker's where()
    nlohmann::json m_runWorker;  ///< workerInfo() of the run in progress (null before its hello)
    bool m_workerReady = false;
    std::optional<nlohmann::json> m_hello;
    LogBuffer m_log;
    std::atomic<int> m_activePid{0};
    std::atomic<bool> m_cancelled{false};
};

}  // namespace ps::protocol
