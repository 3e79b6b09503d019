#include <pybind11/embed.h>
#include <pybind11/functional.h>

#include "host/WorkerServer.h"

#include "host/GilAcquire.h"
#include "host/LibTorchComparator.h"
#include "host/LibTorchLink.h"
#include "host/PythonError.h"
#include "host/RunWatchdog.h"
#include "model/JsonLimits.h"
#include "protocol/FrameDecoder.h"
#include "protocol/FrameEncoder.h"
#include "protocol/Protocol.h"
#include "protocol/ProtocolError.h"
#include "protocol/RunRequest.h"

#include <nlohmann/json.hpp>

#include <algorithm>
#include <cerrno>
#include <cstdio>
#include <cstdlib>
#include <fcntl.h>
#include <memory>
#include <unistd.h>

namespace py = pybind11;

namespace ps::host {

namespace {

// Far above anything a script opens, and close-on-exec: no child of the worker inherits it.
constexpr int kChannelFloor = 200;

// The front end kills the worker at its timeout; the worker's own copy fires this much later
// (PS_WORKER_WATCHDOG_GRACE_S overrides it, for tests).
double watchdogGraceSeconds()
{
    if (const char* text = std::getenv("PS_WORKER_WATCHDOG_GRACE_S"); text && *text)
        return std::max(0.0, std::atof(text));
    return 30;
}

void flushPythonStreams()
{
    try {
        auto sys = py::module_::import("sys");
        for (const char* name : {"stdout", "stderr"})
            if (py::hasattr(sys, name) && !sys.attr(name).is_none())
                sys.attr(name).attr("flush")();
    } catch (const py::error_already_set&) {
        PyErr_Clear();
    }
}

}  // namespace

WorkerServer::WorkerServer(int channelFd, InterpreterConfig config) : m_config(std::move(config))
{
    adoptChannel(channelFd);
}

void WorkerServer::servePool(std::string socketPath, double idleSeconds, int lockFd)
{
    m_poolSocket = std::move(socketPath);
    m_poolIdleSeconds = idleSeconds;
    m_poolLock = lockFd;
}

void WorkerServer::adoptChannel(int channelFd)
{
    m_channel = channelFd < 0 ? -1 : ::fcntl(channelFd, F_DUPFD_CLOEXEC, kChannelFloor);
    if (m_channel < 0)
        m_channel = channelFd;
    else
        ::close(channelFd);
}

void WorkerServer::send(const std::string& payload)
{
    const std::string frame = protocol::FrameEncoder::encodePayload(payload);
    std::size_t done = 0;
    while (done < frame.size()) {
        const ssize_t n = ::write(m_channel, frame.data() + done, frame.size() - done);
        if (n > 0)
            done += static_cast<std::size_t>(n);
        else if (n < 0 && errno == EINTR)
            continue;
        else
            ::_exit(4);  // the front end is gone: nobody is left to report to
    }
}

bool WorkerServer::receive(std::string& payload)
{
    char buf[64 * 1024];
    for (;;) {
        try {
            if (auto p = m_decoder.next()) {
                payload = std::move(*p);
                return true;
            }
        } catch (const protocol::ProtocolError& e) {
            // A corrupt stream cannot be resynchronised: say so and end, never abort.
            send(nlohmann::json{
                {"type", "fatal"}, {"message", std::string("the worker's channel is corrupt: ") + e.what()}}
                     .dump());
            return false;
        }
        const ssize_t n = ::read(m_channel, buf, sizeof buf);
        if (n == 0)
            return false;
        if (n < 0) {
            if (errno == EINTR)
                continue;
            return false;
        }
        m_decoder.feed(buf, static_cast<std::size_t>(n));
    }
}

int WorkerServer::run()
{
    std::unique_ptr<Interpreter> interpreter;
    try {
        interpreter = std::make_unique<Interpreter>(m_config);
    } catch (const std::exception& e) {
        send(nlohmann::json{{"type", "fatal"}, {"message", e.what()}}.dump());
        return 3;
    }
    interpreter->abandon();  // see Interpreter.h: the worker ends with _exit

    GilAcquire gil;
    py::object runFn;
    try {
        py::module_::import("faulthandler").attr("enable")(py::arg("all_threads") = true);
        auto worker = py::module_::import("precompile_studio.worker");
        if (!m_poolSocket.empty()) {
            // A pool (precompile_studio/pool.py): warm once here, then each run's worker is a
            // fork of this process, and only the fork comes back, holding its run's channel.
            // CUDA is left alone here: once asked about, it is unusable in every fork.
            worker.attr("warm_up")(py::arg("devices") = false);
            adoptChannel(py::module_::import("precompile_studio.pool")
                             .attr("serve")(m_poolSocket, m_poolIdleSeconds, m_poolLock)
                             .cast<int>());
        }
        auto hello = nlohmann::json::parse(worker.attr("warm_up")().cast<std::string>());
        hello["type"] = "hello";
        hello["libtorch"] = LibTorchLink::version();
        hello["pid"] = static_cast<int>(::getpid());
        const std::string torchDir
            = py::str(py::module_::import("os.path").attr("dirname")(py::module_::import("torch").attr("__file__")));
        if (auto problem = LibTorchLink::mismatch(torchDir); !problem.empty()) {
            send(nlohmann::json{{"type", "fatal"}, {"message", problem}}.dump());
            return 3;
        }
        // The user's own packages (their venv, PYTHONPATH), now that torch is the studio's.
        py::list siteDirs;
        for (const auto& dir : m_config.userSiteDirs)
            siteDirs.append(dir);
        auto environment = nlohmann::json::parse(py::module_::import("precompile_studio.script.environment")
                                                     .attr("attach")(m_config.userEnv, siteDirs)
                                                     .cast<std::string>());
        if (environment.contains("problem")) {
            send(nlohmann::json{{"type", "fatal"}, {"cause", "environment"}, {"message", environment["problem"]}}
                     .dump());
            return 3;
        }
        hello["environment"] = std::move(environment);
        LibTorchComparator::install();
        runFn = worker.attr("run");
        flushPythonStreams();
        send(hello.dump());
    } catch (py::error_already_set& e) {
        e.restore();
        const PythonError err = PythonError::fetch();
        send(nlohmann::json{{"type", "fatal"}, {"message", err.what()}, {"traceback", err.traceback()}}.dump());
        return 3;
    }

    auto emit = py::cpp_function([this](const std::string& event) { send(event); });
    std::string payload;
    while (receive(payload)) {
        // Every request is checked at the edge: what is not the protocol gets a fatal reply,
        // so the front end ends the run at once instead of waiting for its timeout.
        std::string unreadable;
        const nlohmann::json message
            = model::JsonLimits::parse(payload, protocol::kMaxFrameBytes, &unreadable).value_or(nlohmann::json());
        const auto type = message.is_object() ? message.find("type") : message.end();
        if (message.is_object() && type != message.end() && type->is_string() && *type == "quit")
            break;
        std::string request;
        double timeout = 0;
        try {
            if (!unreadable.empty())
                throw protocol::ProtocolError("a request that " + unreadable);
            const auto parsed = protocol::RunRequest::parse(message);
            timeout = parsed.timeoutSeconds;
            request = parsed.toJson().dump();
        } catch (const protocol::ProtocolError& e) {
            send(
                nlohmann::json{{"type", "fatal"}, {"message", std::string("the worker refused a request: ") + e.what()}}
                    .dump());
            continue;
        }
        // The worker's own copy of the timeout: should the front end be gone, the run still ends.
        RunWatchdog watchdog(timeout > 0 ? timeout + watchdogGraceSeconds() : 0);
        try {
            auto reportText = runFn(request, emit).cast<std::string>();
            flushPythonStreams();
            std::fflush(nullptr);
            send("{\"type\":\"result\",\"report\":" + reportText + "}");
        } catch (py::error_already_set& e) {
            e.restore();
            const PythonError err = PythonError::fetch();
            flushPythonStreams();
            send(nlohmann::json{{"type", "fatal"}, {"message", err.what()}, {"traceback", err.traceback()}}.dump());
        }
    }
    flushPythonStreams();
    std::fflush(nullptr);
    runFn.release();  // never decref after the process stops caring: we _exit next
    emit.release();
    return 0;
}

}  // namespace ps::host
