#include "remote/RemoteWorker.h"

#include "protocol/Protocol.h"
#include "protocol/ProtocolError.h"
#include "protocol/WorkerProcess.h"
#include "remote/RemoteFrameReader.h"
#include "remote/RemoteLayout.h"
#include "remote/SshCommand.h"
#include "remote/SshDestination.h"
#include "remote/SshFailure.h"

#include <fstream>

namespace ps::remote {

namespace {

// ssh's stderr kept for its last words.
constexpr std::size_t kWordsKept = 8 * 1024;
// A script's text sent with the run, at most.
constexpr std::size_t kMaxScriptBytes = 64u << 20;

/// A file of the pair `library check` sends, whole: one frame each, within the frame limit.
bool readWhole(const std::string& path, std::string& bytes)
{
    std::ifstream in(path, std::ios::binary | std::ios::ate);
    if (!in)
        return false;
    const auto size = static_cast<std::size_t>(in.tellg());
    if (size >= protocol::kMaxFrameBytes)
        return false;
    bytes.resize(size);
    in.seekg(0);
    in.read(bytes.data(), static_cast<std::streamsize>(size));
    return static_cast<std::size_t>(in.gcount()) == size;
}

}  // namespace

RemoteWorker::RemoteWorker(RemoteTarget target)
    : m_target(std::move(target)), m_display(SshDestination::displayName(m_target.host)), m_reader(m_display)
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
        const std::string localScript = message.value("script", "");
        const std::string name = RemoteLayout::scriptName(localScript);
        std::ifstream in(localScript, std::ios::binary);
        std::string text(kMaxScriptBytes, '\0');
        in.read(text.data(), static_cast<std::streamsize>(text.size()));
        text.resize(static_cast<std::size_t>(in.gcount()));
        const std::string folder = m_reader.folder();
        m_reader.setPaths(localScript, message.value("out_dir", ""), RemoteLayout::scriptPath(folder, name),
            RemoteLayout::outDir(folder));
        if (!m_ssh->send({{"type", "script"}, {"name", name}}) || !m_ssh->sendPayload(text))
            return false;
        // `library check`: the stored pair goes along; the relay points the request at its copy.
        if (const auto check = message.find("check"); check != message.end() && check->is_object())
            for (const char* part : {"python_code", "cache"}) {
                std::string bytes;  // LibraryCheck sends no file past the frame limit
                if (!readWhole(check->value(part, ""), bytes) || !m_ssh->send({{"type", "pair"}, {"part", part}})
                    || !m_ssh->sendPayload(bytes))
                    return false;
            }
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
    if (m_reader.relayHello()) {
        const nlohmann::json& relay = m_reader.relay();
        const auto studio = relay.value("studio", nlohmann::json());
        const auto protocolThere = relay.value("protocol", nlohmann::json());
        where["studio"] = studio.is_string() ? studio.get<std::string>() : std::string();
        where["protocol"] = protocolThere.is_number_integer() ? protocolThere.get<int>() : 0;
    }
    if (!m_target.remoteDir.empty())
        where["remote_dir"] = m_target.remoteDir;
    return where;
}

void RemoteWorker::kill()
{
    m_reader.dropFile();
    if (m_ssh)
        m_ssh->kill();
}

std::optional<RemoteWorker::Event> RemoteWorker::onSshExited(const protocol::ExitStatus& status)
{
    m_reader.dropFile();
    m_ended = true;
    Event ev{Event::Kind::Exited, {}, 0, {}, {}};
    const std::string last = SshFailure::lastLine(m_sshWords);
    if (!m_reader.relayHello()) {
        const auto failure = SshFailure::classify(m_target.host, status.exited ? status.code : 255, m_sshWords);
        ev.status.startFailure = failure.cause;
        ev.status.connectionLost = failure.message;
        return ev;
    }
    ev.status.connectionLost = "the connection to " + m_display + " was lost"
        + (last.empty() ? std::string(" (ssh ") + status.describe() + ")" : " (ssh: " + last + ")");
    if (!m_reader.workerHello())
        ev.status.startFailure = model::StartFailure::Died;
    return ev;
}

std::optional<RemoteWorker::Event> RemoteWorker::next(std::chrono::steady_clock::time_point deadline)
{
    if (!m_ssh || m_ended)
        return std::nullopt;
    for (;;) {
        std::optional<Event> ev;
        try {
            ev = m_ssh->next(deadline);
        } catch (const protocol::ProtocolError& e) {
            // The frames themselves are broken (a length over the limit): the host's doing.
            throw protocol::ProtocolError("the studio on " + m_display + " broke the channel: " + e.what());
        }
        if (!ev)
            return std::nullopt;
        switch (ev->kind) {
        case Event::Kind::Frame:
            try {
                if (auto out = m_reader.onFrame(std::move(ev->data))) {
                    if (out->kind == Event::Kind::Output)
                        out->data = m_shown[out->stream == 1 ? 0 : 1].feed(out->data);
                    if (out->kind == Event::Kind::Exited) {
                        m_ended = true;
                        if (out->status.startFailure == model::StartFailure::Version)
                            m_ssh->kill();
                    }
                    return out;
                }
            } catch (const nlohmann::json::exception& e) {
                throw protocol::ProtocolError("the studio on " + m_display + " sent a malformed message: " + e.what());
            }
            break;
        case Event::Kind::Output:
            // ssh's own words (and anything the host's shell printed before the relay began).
            m_sshWords.append(ev->data);
            if (m_sshWords.size() > kWordsKept)
                m_sshWords.erase(0, m_sshWords.size() - kWordsKept);
            ev->data = m_shown[2].feed(ev->data);
            return ev;
        case Event::Kind::Exited:
            return onSshExited(ev->status);
        default:
            break;
        }
    }
}

}  // namespace ps::remote
