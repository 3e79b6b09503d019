#include "remote/RemoteFrameReader.h"

#include "model/JsonLimits.h"
#include "protocol/Protocol.h"
#include "protocol/ProtocolError.h"
#include "remote/RemoteLayout.h"

#include <fcntl.h>
#include <sys/statvfs.h>
#include <unistd.h>

namespace ps::remote {

namespace {

// A Transfer event at most every this many bytes (and at each file's end).
constexpr std::uint64_t kProgressStep = 16u << 20;

void replaceAll(std::string& text, const std::string& from, const std::string& to)
{
    if (from.empty())
        return;
    for (std::size_t at = text.find(from); at != std::string::npos; at = text.find(from, at + to.size()))
        text.replace(at, from.size(), to);
}

}  // namespace

void RemoteFrameReader::setPaths(
    std::string localScript, std::string localOut, std::string remoteScript, std::string remoteOut)
{
    m_localScript = std::move(localScript);
    m_localOut = std::move(localOut);
    m_remoteScript = std::move(remoteScript);
    m_remoteOut = std::move(remoteOut);
}

std::string RemoteFrameReader::folder() const
{
    const auto it = m_relay.is_object() ? m_relay.find("folder") : m_relay.end();
    return it != m_relay.end() && it->is_string() ? it->get<std::string>() : std::string();
}

void RemoteFrameReader::dropFile()
{
    if (!m_file)
        return;
    if (m_file->handle)
        std::fclose(m_file->handle);
    if (m_file->done < m_file->size)
        ::unlink(m_file->path.c_str());  // a short file is no file: the pipeline says it is missing
    m_file.reset();
}

void RemoteFrameReader::rewritePaths(nlohmann::json& value) const
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

std::optional<RemoteFrameReader::Event> RemoteFrameReader::onChunk(std::string_view bytes)
{
    if (!m_file)
        throw protocol::ProtocolError("the studio on " + m_display + " sent artifact bytes with no file");
    if (m_file->done + bytes.size() > m_file->size)
        throw protocol::ProtocolError(
            "the studio on " + m_display + " sent " + m_file->name + " longer than it announced");
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

std::optional<RemoteFrameReader::Event> RemoteFrameReader::onHello(nlohmann::json message)
{
    m_relay = std::move(message);
    m_relayHello = true;
    const auto protocolThere
        = m_relay.value("protocol", nlohmann::json()).is_number_integer() ? m_relay["protocol"].get<int>() : 0;
    if (protocolThere == protocol::kProtocolVersion)
        return std::nullopt;
    Event ev{Event::Kind::Exited, {}, 0, {}, {}};
    ev.status.startFailure = model::StartFailure::Version;
    ev.status.connectionLost = m_display + " runs Precompile Studio "
        + (m_relay.value("studio", nlohmann::json()).is_string() ? m_relay["studio"].get<std::string>() : "?")
        + " (protocol " + std::to_string(protocolThere) + "); this studio (" + protocol::kStudioVersion
        + ") speaks protocol " + std::to_string(protocol::kProtocolVersion)
        + ": install the same version there (git pull && make), or name a matching one with --remote-studio";
    return ev;
}

std::optional<RemoteFrameReader::Event> RemoteFrameReader::onFile(const nlohmann::json& message)
{
    dropFile();
    const std::string name = message.value("name", "");
    const auto size = message.value("size", nlohmann::json());
    if (!RemoteLayout::isArtifactName(name) || !size.is_number_unsigned())
        throw protocol::ProtocolError("the studio on " + m_display + " sent a file that is not an artifact");
    File file;
    file.name = name;
    file.path = m_localOut + "/" + name;
    file.size = size.get<std::uint64_t>();
    // A host that announces more than an artifact can be, or than this disk can take, is
    // refused before a byte is written: the run ends with a named outcome, the disk stays usable.
    if (file.size > kMaxArtifactBytes)
        throw protocol::ProtocolError("the studio on " + m_display + " announced " + name + " of "
            + std::to_string(file.size) + " bytes, over the " + std::to_string(kMaxArtifactBytes >> 30)
            + " GiB an artifact may have");
    struct statvfs disk { };
    if (!m_localOut.empty() && ::statvfs(m_localOut.c_str(), &disk) == 0) {
        const std::uint64_t free = static_cast<std::uint64_t>(disk.f_bavail) * disk.f_frsize;
        if (file.size > free)
            throw protocol::ProtocolError("the studio on " + m_display + " announced " + name + " of "
                + std::to_string(file.size) + " bytes; the disk holding " + m_localOut + " has " + std::to_string(free)
                + " free");
    }
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

std::optional<RemoteFrameReader::Event> RemoteFrameReader::onFrame(std::string payload)
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
        return onHello(std::move(*message));
    }
    if (type == "output") {
        m_expect = message->value("stream", 2) == 1 ? Raw::Output1 : Raw::Output2;
        return std::nullopt;
    }
    if (type == "file")
        return onFile(*message);
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
    if (type == "result") {
        rewritePaths(*message);
        // Which script ran is the front end's word, whatever the host says.
        if (auto report = message->find("report");
            report != message->end() && report->is_object() && !m_localScript.empty())
            (*report)["script"] = m_localScript;
    }
    return Event{Event::Kind::Message, std::move(*message), 0, {}, {}};
}

}  // namespace ps::remote
