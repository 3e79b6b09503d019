#pragma once

#include "protocol/WorkerChannel.h"

#include <cstdint>
#include <cstdio>
#include <optional>
#include <string>

namespace ps::remote {

/// The front end's reading of what a host's studio sends (RemoteWorker's frames, after ssh):
/// the relay's hello and its protocol, the worker's messages with the relay's paths turned back
/// into the local ones, `output` frames, the artifact files arriving in chunks, `exited`.
///
/// Everything here comes from another machine and is treated as a hostile worker's words: a
/// message that is not a capped JSON object, a file that is not an artifact's name or arrives
/// longer than announced or announced larger than kMaxArtifactBytes or the disk's free space,
/// bytes with no file, a frame before the hello: each a ProtocolError naming the host. Files are only ever created
/// inside the run's own folder (O_EXCL, O_NOFOLLOW) and a file that arrives short is removed. No I/O but those files:
/// fuzzable on its own.
class RemoteFrameReader {
public:
    using Event = protocol::WorkerChannel::Event;
    /// The most bytes one artifact file may be announced with (a real cache is a few GiB).
    static constexpr std::uint64_t kMaxArtifactBytes = std::uint64_t{64} << 30;

    /// `display`: the host's name for people (SshDestination::displayName).
    explicit RemoteFrameReader(std::string display) : m_display(std::move(display)) { }
    ~RemoteFrameReader() { dropFile(); }
    RemoteFrameReader(const RemoteFrameReader&) = delete;
    RemoteFrameReader& operator=(const RemoteFrameReader&) = delete;

    /// The run's paths on both sides, set when the run request goes out: the report's paths
    /// naming the remote ones are rewritten to the local ones; files arrive in `localOut`.
    void setPaths(std::string localScript, std::string localOut, std::string remoteScript, std::string remoteOut);

    /// One frame's payload: an event for RunClient, or nothing yet. An Exited event ends the
    /// run (the host said so, or its protocol is not this studio's: startFailure Version).
    /// Throws protocol::ProtocolError, and nlohmann::json's exceptions on a malformed member.
    std::optional<Event> onFrame(std::string payload);
    /// Closes and, when short, removes the file being received.
    void dropFile();

    bool relayHello() const { return m_relayHello; }
    bool workerHello() const { return m_workerHello; }
    /// The relay's hello (protocol, studio, folder, host name); null before it.
    const nlohmann::json& relay() const { return m_relay; }
    /// The relay's folder for this run, as its hello named it ("" when it did not).
    std::string folder() const;

private:
    std::optional<Event> onHello(nlohmann::json message);
    std::optional<Event> onFile(const nlohmann::json& message);
    std::optional<Event> onChunk(std::string_view bytes);
    void rewritePaths(nlohmann::json& value) const;

    std::string m_display;
    enum class Raw { None, Output1, Output2, Chunk };
    Raw m_expect = Raw::None;
    bool m_relayHello = false;
    bool m_workerHello = false;
    nlohmann::json m_relay;
    std::string m_localScript, m_localOut, m_remoteScript, m_remoteOut;
    struct File {
        std::string name;
        std::string path;
        std::FILE* handle = nullptr;
        std::uint64_t size = 0;
        std::uint64_t done = 0;
        std::uint64_t reported = 0;
    };
    std::optional<File> m_file;
};

}  // namespace ps::remote
