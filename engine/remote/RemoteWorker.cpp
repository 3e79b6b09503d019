#include "remote/RemoteWorker.h"

#include "model/JsonLimits.h"
#include "protocol/Protocol.h"
#include "protocol/ProtocolError.h"
#include "protocol/WorkerProcess.h"
#include "remote/RemoteLayout.h"
#include "remote/SshCommand.h"
#include "remote/SshDestination.h"
#include "remote/SshFailure.h"

#include <fcntl.h>
#include <fstream>
#include <sstream>
#include <unistd.h>

namespace ps::remote {

namespace {

// ssh's stderr kept for its last words.
constexpr std::size_t kWordsKept = 8 * 1024;
// A Transfer event at most every this many bytes (and at each file's end).
constexpr std::uint64_t kProgressStep = 16u << 20;
// A script's text sent with the run, at most.
constexpr std::size_t kMaxScriptBytes = 64u << 20;

void replaceAll(std::string& text, const std::string& from, const std::string& to)
{
    if (from.empty())
        return;
    for (std::size_t at = text.find(from); at != std::string::npos; at = text.find(from, at + to.size()))
        text.replace(at, from.size(), to);
}

}  // namespace

RemoteWorker::RemoteWorker(RemoteTarget target)
    : m_target(std::move(target)), m_display(SshDestination::displayName(m_target.host))
{ }

RemoteWorker::~RemoteWorker()
{
    kill();
}

void RemoteWorker::start()
{
    if (auto problem = SshDestination::problem(m_target.host); !problem.empty())
        throw protocol::ProtocolError(problem);
    std::vector<std::string> serve = {"--protocol", std::to_string(protocol::kProtocolVersion)};
    if (!m_target.pythonEnv.empty())
        serve.insert(serve.end(), {"--python-env", m_target.pythonEnv});
    if (!m_target.remoteDir.empty())
        serve.insert(serve.end(), {"--remote-dir", m_target.remoteDir});
    m_ssh = std::make_unique<protocol::WorkerProcess>(
        SshCommand::argv(m_target, serve), protocol::WorkerProcess::Channel::Stdio);
    m_ssh->start();
}

bool RemoteWorker::send(const nlohmann::json& message)
{
    if (!m_ssh)
        return false;
    if (message.is_object() && message.value("type", "") == "run") {
        m_localScript = message.value("script", "");
        m_localOut = message.value("out_dir", "");
        const std::string name = RemoteLayout::scriptName(m_localScript);
        std::ifstream in(m_localScript, std::ios::binary);
        std::string text(kMaxScriptBytes, '\0');
        in.read(text.data(), static_cast<std::streamsize>(text.size()));
        text.resize(static_cast<std::size_t>(in.gcount()));
        const std::string folder = m_relay.value("folder", "");
        m_remoteScript = RemoteLayout::scriptPath(folder, name);
        m_remoteOut = RemoteLayout::outDir(folder);
        if (!m_ssh->send({{"type", "script"}, {"name", name}}) || !m_ssh->sendPayload(text))
            return false;
    }
    return m_ssh->send(message);
}

bool RemoteWorker::running() const
{
    return m_ssh && m_ssh->running() && !m_ended;
}

pid_t RemoteWorker::pid() const
{
    return m_ssh ? m_ssh->pid() : -1;
}

nlohmann::json RemoteWorker::where() const
{
    nlohmann::json where = {{"host", m_display}, {"destination", m_target.host}};
    if (m_relayHello) {
        where["studio"] = m_relay.value("studio", "");
        where["protocol"] = m_relay.value("protocol", 0);
    }
    if (!m_target.remoteDir.empty())
        where["remote_dir"] = m_target.remoteDir;
    return where;
}

void RemoteWorker::kill()
{
    dropFile();
    if (m_ssh)
        m_ssh->kill();
}

void RemoteWorker::dropFile()
{
    if (!m_file)
        return;
    if (m_file->handle)
        std::fclose(m_file->handle);
    if (m_file->done < m_file->size)
        ::unlink(m_file->path.c_str());  // a short file is no file: the pipeline says it is missing
    m_file.reset();
}

void RemoteWorker::rewritePaths(nlohmann::json& value) const
{
    if (value.is_string()) {
        auto& text = value.get_ref<std::string&>();
        if (text.find(m_remoteOut) != std::string::npos || text.find(m_remoteScript) != std::string::npos) {
            replaceAll(text, m_remoteScript, m_localScript);
            replaceAll(text, m_remoteOut, m_localOut);
        }
    } else if (value.is_structured()) {
        for (auto& item : value)
            rewritePaths(item);
    }
}

std::optional<RemoteWorker::Event> RemoteWorker::onSshExited(const protocol::ExitStatus& status)
{
    dropFile();
    m_ended = true;
    Event ev{Event::Kind::Exited, {}, 0, {}, {}};
    const std::string last = SshFailure::lastLine(m_sshWords);
    if (!m_relayHello) {
        const auto failure = SshFailure::classify(m_target.host, status.exited ? status.code : 255, m_sshWords);
        ev.status.startFailure = failure.cause;
        ev.status.connectionLost = failure.message;
        return ev;
    }
    ev.status.connectionLost = "the connection to " + m_display + " was lost"
        + (last.empty() ? std::string(" (ssh ") + status.describe() + ")" : " (ssh: " + last + ")");
    if (!m_workerHello)
        ev.status.startFailure = model::StartFailure::Died;
    return ev;
}

std::optional<RemoteWorker::Event> RemoteWorker::onChunk(std::string_view bytes)
{
    if (!m_file)
        throw protocol::ProtocolError("the host sent artifact bytes with no file");
    if (m_file->done + bytes.size() > m_file->size)
        throw protocol::ProtocolError(m_file->name + " arrived longer than announced");
    if (m_file->handle && std::fwrite(bytes.data(), 1, bytes.size(), m_file->handle) != bytes.size()) {
        std::fclose(m_file->handle);
        m_file->handle = nullptr;  // the pipeline reports the file as missing
        ::unlink(m_file->path.c_str());
    }
    m_file->done += bytes.size();
    Event progress{Event::Kind::Transfer, {}, 0, m_file->name, {}, m_file->done, m_file->size};
    const bool complete = m_file->done == m_file->size;
    const bool report = complete || m_file->done - m_file->reported >= kProgressStep;
    if (report)
        m_file->reported = m_file->done;
    if (complete) {
        if (m_file->handle)
            std::fclose(m_file->handle);
        m_file.reset();
    }
    if (report)
        return progress;
    return std::nullopt;
}

std::optional<RemoteWorker::Event> RemoteWorker::onFrame(std::string payload)
{
    if (m_expect != Raw::None) {
        const Raw raw = m_expect;
        m_expect = Raw::None;
        if (raw == Raw::Chunk)
            return onChunk(payload);
        return Event{Event::Kind::Output, {}, raw == Raw::Output1 ? 1 : 2, std::move(payload), {}};
    }
    std::string why;
    auto message = model::JsonLimits::parse(payload, protocol::kMaxFrameBytes, &why);
    if (!message || !message->is_object())
        throw protocol::ProtocolError("the studio on " + m_display + " sent a message that "
            + (why.empty() ? std::string("is not an object") : why));
    const std::string type = message->value("type", "");
    if (!m_relayHello) {
        if (type != "remote")
            throw protocol::ProtocolError("the studio on " + m_display + " sent '" + type + "' before its hello");
        m_relay = *message;
        m_relayHello = true;
        const auto protocolThere
            = m_relay.value("protocol", nlohmann::json()).is_number_integer() ? m_relay["protocol"].get<int>() : 0;
        if (protocolThere != protocol::kProtocolVersion) {
            Event ev{Event::Kind::Exited, {}, 0, {}, {}};
            ev.status.startFailure = model::StartFailure::Version;
            ev.status.connectionLost = m_display + " runs Precompile Studio "
                + (m_relay.value("studio", nlohmann::json()).is_string() ? m_relay["studio"].get<std::string>() : "?")
                + " (protocol " + std::to_string(protocolThere) + "); this studio (" + protocol::kStudioVersion
                + ") speaks protocol " + std::to_string(protocol::kProtocolVersion)
                + ": install the same version there (git pull && make), or name a matching one with --remote-studio";
            m_ssh->kill();
            m_ended = true;
            return ev;
        }
        return std::nullopt;
    }
    if (type == "output") {
        m_expect = message->value("stream", 2) == 1 ? Raw::Output1 : Raw::Output2;
        return std::nullopt;
    }
    if (type == "file") {
        dropFile();
        const std::string name = message->value("name", "");
        const auto size = message->value("size", nlohmann::json());
        if (!RemoteLayout::isArtifactName(name) || !size.is_number_unsigned())
            throw protocol::ProtocolError("the studio on " + m_display + " sent a file that is not an artifact");
        File file;
        file.name = name;
        file.path = m_localOut + "/" + name;
        file.size = size.get<std::uint64_t>();
        const int fd = m_localOut.empty()
            ? -1
            : ::open(file.path.c_str(), O_WRONLY | O_CREAT | O_EXCL | O_NOFOLLOW | O_CLOEXEC, 0600);
        file.handle = fd >= 0 ? ::fdopen(fd, "wb") : nullptr;
        m_file = std::move(file);
        if (m_file->size == 0) {
            dropFile();
            return Event{Event::Kind::Transfer, {}, 0, name, {}, 0, 0};
        }
        return std::nullopt;
    }
    if (type == "chunk") {
        m_expect = Raw::Chunk;
        return std::nullopt;
    }
    if (type == "chunk_end") {
        dropFile();
        return std::nullopt;
    }
    if (type == "exited") {
        dropFile();
        m_ended = true;
        Event ev{Event::Kind::Exited, {}, 0, {}, {}};
        ev.status.exited = message->value("exited", false);
        ev.status.code = message->value("code", 0);
        ev.status.signaled = message->value("signaled", false);
        ev.status.signal = message->value("signal", 0);
        ev.status.peakMemoryKiB = message->value("peak_kib", 0L);
        return ev;
    }
    // The worker's own messages, checked by RunClient as a local worker's are.
    if (type == "hello")
        m_workerHello = true;
    if (type == "result")
        rewritePaths(*message);
    return Event{Event::Kind::Message, std::move(*message), 0, {}, {}};
}

std::optional<RemoteWorker::Event> RemoteWorker::next(std::chrono::steady_clock::time_point deadline)
{
    if (!m_ssh || m_ended)
        return std::nullopt;
    for (;;) {
        auto ev = m_ssh->next(deadline);
        if (!ev)
            return std::nullopt;
        switch (ev->kind) {
        case Event::Kind::Frame:
            try {
                if (auto out = onFrame(std::move(ev->data)))
                    return out;
            } catch (const nlohmann::json::exception& e) {
                throw protocol::ProtocolError("the studio on " + m_display + " sent a malformed message: " + e.what());
            }
            break;
        case Event::Kind::Output:
            // ssh's own words (and anything the host's shell printed before the relay began).
            m_sshWords.append(ev->data);
            if (m_sshWords.size() > kWordsKept)
                m_sshWords.erase(0, m_sshWords.size() - kWordsKept);
            return ev;
        case Event::Kind::Exited:
            return onSshExited(ev->status);
        default:
            break;
        }
    }
}

}  // namespace ps::remote
