#include "protocol/RunClient.h"

#include "protocol/Protocol.h"
#include "protocol/ProtocolError.h"
#include "protocol/RunRequest.h"
#include "protocol/WorkerMessage.h"
#include "protocol/WorkerProcess.h"

#include <algorithm>
#include <charconv>
#include <cmath>
#include <csignal>
#include <sstream>
#include <vector>

namespace ps::protocol {

namespace {

// After the result arrives, how long the worker gets to exit (and its last output to drain).
constexpr auto kQuitGrace = std::chrono::seconds(5);

std::string lastLines(const std::string& text, int count)
{
    std::size_t pos = text.size();
    while (pos > 0 && (text[pos - 1] == '\n' || text[pos - 1] == ' '))
        --pos;
    const std::size_t end = pos;
    for (int i = 0; i < count && pos > 0; ++i) {
        pos = text.rfind('\n', pos - 1);
        if (pos == std::string::npos) {
            pos = 0;
            break;
        }
    }
    return text.substr(pos == 0 ? 0 : pos + 1, end - (pos == 0 ? 0 : pos + 1));
}

std::string seconds(double s)
{
    std::ostringstream out;
    out << s << " s";
    return out.str();
}

}  // namespace

RunClient::RunClient(WorkerLaunch launch, bool keepWarm)
    : RunClient([launch = std::move(
                     launch)]() -> std::unique_ptr<WorkerChannel> { return std::make_unique<WorkerProcess>(launch); },
        keepWarm)
{ }

RunClient::RunClient(ChannelFactory factory, bool keepWarm) : m_factory(std::move(factory)), m_keepWarm(keepWarm)
{ }

nlohmann::json RunClient::workerInfo() const
{
    if (!m_hello)
        return nullptr;
    nlohmann::json info = m_where.is_object() ? m_where : nlohmann::json{{"host", nullptr}};
    if (!info.contains("studio"))
        info["studio"] = kStudioVersion;
    if (!info.contains("protocol"))
        info["protocol"] = kProtocolVersion;
    // The worker's own words from its hello, said before any script ran; each checked for its type.
    auto copyString = [&](const char* key) {
        auto it = m_hello->find(key);
        info[key] = it != m_hello->end() && it->is_string() ? *it : nlohmann::json(nullptr);
    };
    for (const char* key : {"hostname", "python", "torch", "precompile_api", "cuda"})
        copyString(key);
    nlohmann::json devices = nlohmann::json::array();
    if (auto it = m_hello->find("devices"); it != m_hello->end() && it->is_array()) {
        for (const auto& d : *it) {
            if (!d.is_object() || devices.size() >= 64)
                continue;
            nlohmann::json device;
            device["index"] = d.value("index", nlohmann::json()).is_number_integer() ? d["index"] : nlohmann::json(0);
            device["name"] = d.value("name", nlohmann::json()).is_string() ? d["name"] : nlohmann::json("?");
            device["memory_bytes"] = d.value("memory_bytes", nlohmann::json()).is_number_integer()
                ? d["memory_bytes"]
                : nlohmann::json(nullptr);
            device["capability"]
                = d.value("capability", nlohmann::json()).is_string() ? d["capability"] : nlohmann::json(nullptr);
            devices.push_back(std::move(device));
        }
    }
    info["devices"] = std::move(devices);
    return info;
}

RunClient::~RunClient()
{
    shutdown();
}

void RunClient::shutdown()
{
    if (m_worker && m_worker->running()) {
        m_worker->send({{"type", "quit"}});
        auto deadline = Clock::now() + std::chrono::seconds(2);
        try {
            while (m_worker->running()) {
                auto ev = m_worker->next(deadline);
                if (!ev || ev->kind == WorkerProcess::Event::Kind::Exited)
                    break;
            }
        } catch (const ProtocolError&) {
            // A worker that breaks the protocol while quitting is killed below.
        }
    }
    dropWorker();
}

void RunClient::prewarm()
{
    if (m_worker && m_worker->running())
        return;
    m_worker = m_factory();
    m_worker->start();
    m_activePid = m_worker->pid();
    m_workerReady = false;
}

bool RunClient::warmUp(
    Clock::time_point deadline, const RunObserver& observer, std::string& problem, model::StartFailure* cause)
{
    problem.clear();
    if (m_workerReady && m_worker && m_worker->running())
        return true;
    if (m_cancelled)  // a cancel no run has consumed: this client is being stopped
        return false;
    StartProblem start;
    if (startWorker(deadline, observer, start))
        return true;
    if (m_cancelled) {
        dropWorker();
        return false;
    }
    if (start.cause == model::StartFailure::Timeout)
        return false;
    dropWorker();
    problem = start.message;
    if (cause)
        *cause = start.cause;
    return false;
}

void RunClient::dropWorker()
{
    m_activePid = 0;
    m_worker.reset();
    m_workerReady = false;
}

void RunClient::clearCancel()
{
    m_cancelled = false;
}

void RunClient::cancel()
{
    m_cancelled = true;
    if (const int pid = m_activePid.load(); pid > 0) {
        ::kill(-pid, SIGKILL);
        ::kill(pid, SIGKILL);
    }
}

void RunClient::addOutput(const RunObserver& observer, int stream, std::string_view data)
{
    m_log.append(data);
    if (observer.onOutput)
        observer.onOutput(stream, data);
}

bool RunClient::startWorker(Clock::time_point deadline, const RunObserver& observer, StartProblem& problem)
{
    if (!m_worker || !m_worker->running()) {
        try {
            prewarm();
        } catch (const ProtocolError& e) {
            problem = {model::StartFailure::Spawn, std::string("the worker could not be started: ") + e.what()};
            return false;
        }
    }
    while (!m_workerReady) {
        std::optional<WorkerProcess::Event> ev;
        try {
            ev = m_worker->next(deadline);
        } catch (const ProtocolError& e) {
            problem = {model::StartFailure::Protocol,
                std::string("the worker broke the protocol while starting: ") + e.what()};
            m_worker->kill();
            return false;
        }
        if (!ev) {
            problem = {model::StartFailure::Timeout, "timeout"};
            return false;
        }
        switch (ev->kind) {
        case WorkerProcess::Event::Kind::Output:
            addOutput(observer, ev->stream, ev->data);
            break;
        case WorkerChannel::Event::Kind::Transfer:
        case WorkerChannel::Event::Kind::Frame:
        case WorkerChannel::Event::Kind::Wake:
            break;
        case WorkerProcess::Event::Kind::Exited:
            if (ev->status.startFailure) {
                // The connection to another host ended first: why, in the transport's words.
                problem = {*ev->status.startFailure, ev->status.connectionLost};
                return false;
            }
            problem = {model::StartFailure::Died, "the worker " + ev->status.describe() + " while starting"};
            if (auto tail = lastLines(m_log.text(), 3); !tail.empty())
                problem.message += ": " + tail;
            return false;
        case WorkerProcess::Event::Kind::Message:
            try {
                const WorkerMessage message = WorkerMessage::parse(ev->message);
                if (const auto* hello = message.get<HelloMessage>()) {
                    m_hello = hello->json;
                    m_where = m_worker->where();  // a remote one knows its host's studio by now
                    m_workerReady = true;
                } else if (const auto* fatal = message.get<FatalMessage>()) {
                    problem = fatal->environment ? StartProblem{model::StartFailure::Environment, fatal->message}
                                                 : StartProblem{model::StartFailure::Python,
                                                     "the worker could not start Python: " + fatal->message};
                    m_worker->kill();
                    return false;
                } else {
                    throw ProtocolError(std::string("the worker sent '") + message.type() + "' before 'hello'");
                }
            } catch (const ProtocolError& e) {
                problem = {model::StartFailure::Protocol,
                    std::string("the worker broke the protocol while starting: ") + e.what()};
                m_worker->kill();
                return false;
            }
            break;
        }
    }
    return true;
}

void RunClient::retireWorker(const RunObserver& observer)
{
    if (m_worker && m_worker->running()) {
        m_worker->send({{"type", "quit"}});
        auto deadline = Clock::now() + kQuitGrace;
        try {
            while (m_worker->running()) {
                auto ev = m_worker->next(deadline);
                if (!ev)
                    break;
                if (ev->kind == WorkerProcess::Event::Kind::Output)
                    addOutput(observer, ev->stream, ev->data);
            }
        } catch (const ProtocolError&) {
            // Whatever came after the result is not the run's: the report stands, the worker goes.
        }
    }
    dropWorker();  // kills whatever is left, the process group included
    if (m_keepWarm) {
        try {
            prewarm();
        } catch (const ProtocolError&) {
            // The next run reports it.
        }
    }
}

model::Report RunClient::diedReport(const RunOptions& options, model::Stage stage, const ExitStatus& status)
{
    std::string message
        = "the worker " + status.describe() + " during stage '" + std::string(model::toString(stage)) + "'";
    if (status.exited && stage == model::Stage::Script)
        message += " (did the script call os._exit?)";
    if (status.signaled && status.signal == SIGKILL) {
        // The studio did not send it (a cancel or a timeout is reported as such): the kernel's
        // out-of-memory killer is the usual sender.
        message += "; the studio did not send that signal: the system may have run out of memory (the worker's peak "
                   "memory was "
            + std::to_string(status.peakMemoryKiB / 1024) + " MiB)";
    }
    auto report = model::Report::failed(options.script, model::RunStatus::WorkerDied, message);
    // faulthandler prints the Python stack of a fatal signal, most recent call first.
    // faulthandler's stack is near the end; the script controls the output, so only the last
    // 64 KiB are searched, with a plain scan (no regex recursion) and a bounded line number.
    std::string text = m_log.text();
    if (text.size() > 64 * 1024)
        text.erase(0, text.size() - 64 * 1024);
    if (auto fatal = text.rfind("Fatal Python error"); fatal != std::string::npos) {
        std::vector<std::pair<std::string, int>> frames;  // most recent first
        static constexpr std::string_view kFile = "File \"";
        for (std::size_t at = text.find(kFile, fatal); at != std::string::npos; at = text.find(kFile, at + 1)) {
            const std::size_t begin = at + kFile.size();
            const std::size_t end = text.find('"', begin);
            if (end == std::string::npos || end - begin > 4096)
                break;
            static constexpr std::string_view kLine = "\", line ";
            if (text.compare(end, kLine.size(), kLine) != 0)
                continue;
            int line = 0;
            const char* digits = text.data() + end + kLine.size();
            const auto [ptr, ec] = std::from_chars(digits, text.data() + text.size(), line);
            if (ec == std::errc() && ptr != digits && line > 0)
                frames.emplace_back(text.substr(begin, end - begin), line);
        }
        auto isLibrary = [](const std::string& f) {
            return f.find("/site-packages/") != std::string::npos || f.find("/lib/python3") != std::string::npos;
        };
        auto pick = std::find_if(frames.begin(), frames.end(), [&](auto& f) { return f.first == options.script; });
        if (pick == frames.end())
            pick = std::find_if(frames.begin(), frames.end(), [&](auto& f) { return !isLibrary(f.first); });
        if (pick != frames.end()) {
            report.extra()["location"] = {{"file", pick->first}, {"line", pick->second}};
            report.message = pick->first + ":" + std::to_string(pick->second) + ": " + message;
        }
    }
    return report;
}

model::Report RunClient::stoppedReport(
    Stop why, const RunOptions& options, model::Stage stage, const RunObserver& observer, const std::string& what)
{
    const std::string where = std::string(model::toString(stage));
    model::Report r;
    switch (why) {
    case Stop::Timeout:
        if (m_worker)
            m_worker->kill();
        m_workerReady = false;
        r = model::Report::failed(options.script, model::RunStatus::Timeout,
            "the run was stopped after the timeout of " + seconds(options.timeoutSeconds) + " (stage '" + where
                + "'); raise it with --timeout");
        if (stage == model::Stage::Start)
            r.startFailure = model::StartFailure::Timeout;
        break;
    case Stop::Cancelled:
        dropWorker();
        r = model::Report::failed(
            options.script, model::RunStatus::Cancelled, "the run was cancelled (stage '" + where + "')");
        break;
    case Stop::Protocol:
        dropWorker();  // kills it: a worker that breaks the protocol is not trusted with another run
        r = model::Report::failed(
            options.script, model::RunStatus::ProtocolError, "the run was stopped in stage '" + where + "': " + what);
        if (observer.onWorkerEvent)
            observer.onWorkerEvent(r.message);
        break;
    }
    retireWorker(observer);
    return r;
}

model::Report RunClient::connectionLostReport(const RunOptions& options, model::Stage stage, const ExitStatus& status)
{
    dropWorker();
    return model::Report::failed(options.script, model::RunStatus::ConnectionLost,
        status.connectionLost + " (stage '" + std::string(model::toString(stage)) + "'); nothing was stored");
}

model::Report RunClient::notStartedReport(const RunOptions& options, const StartProblem& problem)
{
    dropWorker();
    // An environment the worker refused is an error like a missing one, not a death; so is a
    // host that cannot be reached or logged into, has no studio or another version of it.
    const auto status = problem.cause == model::StartFailure::Protocol ? model::RunStatus::ProtocolError
        : problem.cause == model::StartFailure::Environment || model::isHostFailure(problem.cause)
        ? model::RunStatus::Error
        : model::RunStatus::WorkerDied;
    auto r = model::Report::failed(options.script, status, problem.message);
    r.startFailure = problem.cause;
    return r;
}

std::optional<model::Report> RunClient::onMessage(
    const WorkerMessage& message, const RunOptions& options, model::Stage& stage, const RunObserver& observer)
{
    if (const auto* s = message.get<StageMessage>()) {
        if (!s->detail.empty() && s->stage == stage) {
            if (observer.onStageDetail)
                observer.onStageDetail(s->detail);
            return std::nullopt;
        }
        stage = s->stage;
        if (observer.onStage)
            observer.onStage(stage, s->capture);
        return std::nullopt;
    }
    if (const auto* result = message.get<ResultMessage>()) {
        model::Report report = result->report;
        // What only the front end may say is never taken from the worker.
        report.stored = false;
        report.runId.reset();
        report.storeError.reset();
        report.startFailure.reset();
        return report;
    }
    if (const auto* fatal = message.get<FatalMessage>()) {
        auto report = model::Report::failed(
            options.script, model::RunStatus::Error, "the studio's worker failed: " + fatal->message);
        report.extra()["error"] = {{"kind", "HostError"}, {"message", fatal->message}, {"traceback", fatal->traceback}};
        return report;
    }
    throw ProtocolError(std::string("the worker sent '") + message.type() + "' during a run");
}

model::Report RunClient::run(const RunOptions& options, const RunObserver& observer)
{
    m_runWorker = nullptr;
    auto report = runOnWorker(options, observer);
    // Where it ran, from the front end's side: the transport and the worker's hello.
    if (!m_runWorker.is_null())
        report.extra()["worker"] = m_runWorker;
    return report;
}

model::Report RunClient::runOnWorker(const RunOptions& options, const RunObserver& observer)
{
    m_log.clear();
    // A cancel that came before this run began is this run's: the flag is cleared when a run
    // ends, not when it starts (see cancel()).
    struct ClearCancelOnExit {
        std::atomic<bool>& flag;
        ~ClearCancelOnExit() { flag = false; }
    } clearCancel{m_cancelled};
    const auto deadline
        = Clock::now() + std::chrono::milliseconds(static_cast<long long>(options.timeoutSeconds * 1000));
    model::Stage stage = model::Stage::Start;
    const auto stop
        = [&](Stop why, const std::string& what = {}) { return stoppedReport(why, options, stage, observer, what); };

    if (m_cancelled)  // asked before this run began (while a warm-up was waited for, say)
        return stop(Stop::Cancelled);
    StartProblem problem;
    if (!startWorker(deadline, observer, problem)) {
        if (m_cancelled)
            return stop(Stop::Cancelled);
        if (problem.cause == model::StartFailure::Timeout)
            return stop(Stop::Timeout);
        return notStartedReport(options, problem);
    }
    if (m_cancelled)  // asked while no worker process was there to kill
        return stop(Stop::Cancelled);
    m_runWorker = workerInfo();

    stage = model::Stage::Script;
    m_worker->send(RunRequest::from(options).toJson());
    std::optional<model::Report> report;
    while (!report) {
        std::optional<WorkerProcess::Event> ev;
        try {
            ev = m_worker->next(deadline);
        } catch (const ProtocolError& e) {
            return stop(m_cancelled ? Stop::Cancelled : Stop::Protocol, e.what());
        }
        if (!ev)
            return stop(Stop::Timeout);
        if (ev->kind == WorkerProcess::Event::Kind::Output) {
            addOutput(observer, ev->stream, ev->data);
        } else if (ev->kind == WorkerChannel::Event::Kind::Transfer) {
            if (observer.onTransfer)
                observer.onTransfer(ev->data, ev->done, ev->total);
        } else if (ev->kind == WorkerChannel::Event::Kind::Frame || ev->kind == WorkerChannel::Event::Kind::Wake) {
            continue;
        } else if (ev->kind == WorkerProcess::Event::Kind::Exited) {
            if (m_cancelled)
                return stop(Stop::Cancelled);
            if (!ev->status.connectionLost.empty()) {
                auto r = connectionLostReport(options, stage, ev->status);
                if (observer.onWorkerEvent)
                    observer.onWorkerEvent(r.message);
                retireWorker(observer);
                return r;
            }
            auto r = diedReport(options, stage, ev->status);
            dropWorker();
            if (observer.onWorkerEvent)
                observer.onWorkerEvent(r.message);
            retireWorker(observer);
            return r;
        } else {
            try {
                report = onMessage(WorkerMessage::parse(ev->message), options, stage, observer);
            } catch (const ProtocolError& e) {
                return stop(Stop::Protocol, e.what());
            }
        }
    }
    retireWorker(observer);
    report->extra()["log"] = {{"bytes", m_log.totalBytes()}, {"dropped_bytes", m_log.droppedBytes()}};
    return *report;
}

}  // namespace ps::protocol
