#pragma once

#include "model/VisibleStream.h"
#include "protocol/WorkerChannel.h"
#include "remote/RemoteFrameReader.h"
#include "remote/RemoteTarget.h"

#include <memory>
#include <optional>
#include <string>

namespace ps::protocol {
class WorkerProcess;
}

namespace ps::remote {

/// A worker on another host, as RunClient sees any worker (protocol::WorkerChannel): ssh
/// (SshCommand) runs `precompile-studio remote serve` there (RemoteRelay) and carries the same
/// frames on its stdin and stdout, read by RemoteFrameReader. The script's text goes with the
/// run request; the artifact files come back in chunks into the run's local folder, where
/// RunPipeline checks them against the report's sha256 before anything is stored; paths in the
/// report that name the relay's folder are turned back into the local script's.
///
/// Faults are events, never hangs: ssh that ends before the host's studio answered is an
/// Exited whose startFailure says why (SshFailure); a connection lost later is an Exited with
/// connectionLost (the host and ssh's last words). kill() ends ssh; the relay, its input
/// closed, ends the worker there and removes its folder.
///
/// The host is another machine's word: what it prints (the script's output, its shell's and
/// ssh's lines) reaches the terminal and the window only as model::VisibleStream makes it
/// (newlines, tabs and carriage returns kept; escape sequences and bidi controls shown).
class RemoteWorker : public protocol::WorkerChannel {
public:
    explicit RemoteWorker(RemoteTarget target);
    ~RemoteWorker() override;

    void start() override;
    bool send(const nlohmann::json& message) override;
    std::optional<Event> next(std::chrono::steady_clock::time_point deadline) override;
    void kill() override;
    bool running() const override;
    pid_t pid() const override;
    nlohmann::json where() const override;

private:
    std::optional<Event> onSshExited(const protocol::ExitStatus& status);

    RemoteTarget m_target;
    std::string m_display;  ///< the host's name for people
    RemoteFrameReader m_reader;
    std::unique_ptr<protocol::WorkerProcess> m_ssh;
    std::string m_sshWords;  ///< the tail of ssh's stderr
    /// The host's output made visible, per source: its stdout and stderr frames, ssh's stderr.
    model::VisibleStream m_shown[3];
    bool m_ended = false;  ///< an Exited was returned: nothing more comes
};

}  // namespace ps::remote
