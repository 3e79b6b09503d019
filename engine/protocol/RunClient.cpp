#include "protocol/RunClient.h"

#include "protocol/ProtocolError.h"
#include "protocol/WorkerProcess.h"

#include <algorithm>
#include <csignal>
#include <cmath>
#include <vector>
#include <regex>
#include <sstream>

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

} // namespace

RunClient::RunClient(WorkerLaunch launch, bool keepWarm)
    : m_launch(std::move(launch)), m_keepWarm(keepWarm)
{
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
        while (m_worker->running()) {
            auto ev = m_worker->next(deadline);
            if (!ev || ev->kind == WorkerProcess::Event::Kind::Exited)
                break;
        }
    }
    dropWorker();
}

void RunClient::prewarm()
{
    if (m_worker && m_worker->running())
        return;
    m_worker = std::make_unique<WorkerProcess>(m_launch);
    m_worker->start();
    m_activePid = m_worker->pid();
    m_workerReady = false;
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

bool RunClient::startWorker(Clock::time_point deadline, const RunObserver& observer, std::string& failure)
{
    if (!m_worker || !m_worker->running()) {
        try {
            prewarm();
        } catch (const ProtocolError& e) {
            failure = std::string("the worker could not be started: ") + e.what();
            return false;
        }
    }
    while (!m_workerReady) {
        auto ev = m_worker->next(deadline);
        if (!ev) {
            failure = "timeout";
            return false;
        }
        switch (ev->kind) {
        case WorkerProcess::Event::Kind::Output:
            addOutput(observer, ev->stream, ev->data);
            break;
        case WorkerProcess::Event::Kind::Exited:
            failure = "the worker " + ev->status.describe() + " while starting";
            if (auto tail = lastLines(m_log.text(), 3); !tail.empty())
                failure += ": " + tail;
            return false;
        case WorkerProcess::Event::Kind::Message:
            if (ev->message.value("type", "") == "hello") {
                m_hello = ev->message;
                m_workerReady = true;
            } else if (ev->message.value("type", "") == "fatal") {
                failure = "the worker could not start Python: " + ev->message.value("message", "");
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
        while (m_worker->running()) {
            auto ev = m_worker->next(deadline);
            if (!ev)
                break;
            if (ev->kind == WorkerProcess::Event::Kind::Output)
                addOutput(observer, ev->stream, ev->data);
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

model::Report RunClient::diedReport(const RunOptions& options, const std::string& stage, const std::string& how)
{
    std::string message = "the worker " + how + " during stage '" + stage + "'";
    if (how.rfind("exited with status", 0) == 0 && stage == "script")
        message += " (did the script call os._exit?)";
    auto report = model::Report::failed(options.script, "worker_died", message);
    // faulthandler prints the Python stack of a fatal signal, most recent call first.
    const std::string text = m_log.text();
    if (auto fatal = text.rfind("Fatal Python error"); fatal != std::string::npos) {
        static const std::regex frame(R"re(File "([^"]+)", line (\d+))re");
        std::string rest = text.substr(fatal);
        std::vector<std::pair<std::string, std::string>> frames;  // most recent first
        for (auto it = std::sregex_iterator(rest.begin(), rest.end(), frame); it != std::sregex_iterator(); ++it)
            frames.emplace_back((*it)[1], (*it)[2]);
        auto isLibrary = [](const std::string& f) {
            return f.find("/site-packages/") != std::string::npos || f.find("/lib/python3") != std::string::npos;
        };
        auto pick = std::find_if(frames.begin(), frames.end(), [&](auto& f) { return f.first == options.script; });
        if (pick == frames.end())
            pick = std::find_if(frames.begin(), frames.end(), [&](auto& f) { return !isLibrary(f.first); });
        if (pick != frames.end()) {
            report.extra()["location"] = {{"file", pick->first}, {"line", std::stoi(pick->second)}};
            report.message = pick->first + ":" + pick->second + ": " + message;
        }
    }
    return report;
}

model::Report RunClient::run(const RunOptions& options, const RunObserver& observer)
{
    m_log.clear();
    // A cancel that came before this run began is this run's: the flag is cleared when a run
    // ends, not when it starts (see cancel()).
    struct ClearCancelOnExit {
        std::atomic<bool>& flag;
        ~ClearCancelOnExit() { flag = false; }
    } clearCancel{m_cancelled};
    const auto started = Clock::now();
    const auto deadline = started + std::chrono::milliseconds(static_cast<long long>(options.timeoutSeconds * 1000));
    std::string stage = "start";
    auto timedOut = [&]() {
        if (m_worker)
            m_worker->kill();
        m_workerReady = false;
        auto r = model::Report::failed(options.script, "timeout",
                                       "the run was stopped after the timeout of " + seconds(options.timeoutSeconds)
                                           + " (stage '" + stage + "'); raise it with --timeout");
        retireWorker(observer);
        return r;
    };

    auto cancelledReport = [&]() {
        dropWorker();
        auto r = model::Report::failed(options.script, "cancelled", "the run was cancelled (stage '" + stage + "')");
        retireWorker(observer);
        return r;
    };

    std::string failure;
    if (!startWorker(deadline, observer, failure)) {
        if (m_cancelled)
            return cancelledReport();
        if (failure == "timeout")
            return timedOut();
        dropWorker();
        return model::Report::failed(options.script, "worker_died", failure);
    }
    if (m_cancelled)  // asked while no worker process was there to kill
        return cancelledReport();

    nlohmann::json request = {{"type", "run"}, {"script", options.script}, {"verify", options.verify},
                              {"out_dir", options.outDir}};
    request["backend"] = options.backend ? nlohmann::json(*options.backend) : nlohmann::json(nullptr);
    request["tracer"] = options.tracer ? nlohmann::json(*options.tracer) : nlohmann::json(nullptr);
    stage = "script";
    m_worker->send(request);

    std::optional<model::Report> report;
    while (!report) {
        auto ev = m_worker->next(deadline);
        if (!ev)
            return timedOut();
        switch (ev->kind) {
        case WorkerProcess::Event::Kind::Output:
            addOutput(observer, ev->stream, ev->data);
            break;
        case WorkerProcess::Event::Kind::Exited: {
            if (m_cancelled)
                return cancelledReport();
            auto r = diedReport(options, stage, ev->status.describe());
            dropWorker();
            if (observer.onWorkerEvent)
                observer.onWorkerEvent(r.message);
            retireWorker(observer);
            return r;
        }
        case WorkerProcess::Event::Kind::Message: {
            const std::string type = ev->message.value("type", "");
            if (type == "stage") {
                stage = ev->message.value("stage", stage);
                if (observer.onStage)
                    observer.onStage(stage, ev->message.value("capture", ""));
            } else if (type == "result") {
                report = model::Report::fromJson(ev->message.at("report"));
            } else if (type == "fatal") {
                report = model::Report::failed(options.script, "error",
                                               "the studio's worker failed: " + ev->message.value("message", ""));
                report->extra()["error"] = {{"kind", "HostError"}, {"message", ev->message.value("message", "")},
                                            {"traceback", ev->message.value("traceback", "")}};
            }
            break;
        }
        }
    }
    retireWorker(observer);
    report->extra()["log"] = {{"bytes", m_log.totalBytes()}, {"dropped_bytes", m_log.droppedBytes()}};
    return *report;
}

} // namespace ps::protocol
