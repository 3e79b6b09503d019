#pragma once

#include "protocol/FrameDecoder.h"
#include "protocol/WorkerChannel.h"
#include "protocol/WorkerLaunch.h"

#include <nlohmann/json.hpp>

#include <chrono>
#include <optional>
#include <string>
#include <string_view>
#include <sys/types.h>
#include <vector>

namespace ps::protocol {

/// One worker process: spawns it with the channel on fd 3 and its fd 1/2 on pipes, and turns
/// whatever happens into events. POSIX only (fork/exec, poll); no threads.
///
/// Thread contract: one thread owns an instance; nothing here is thread-safe.
/// With PRECOMPILE_STUDIO_WORKER_POOL set, a worker is forked by a warm pool instead
/// (WorkerPool), with the same descriptors, environment and process group of its own; the pool
/// says how it ended and kills it when this front end goes.
/// The worker runs in a process group of its own and carries a ProcessTree token, so kill()
/// (and the reaping of a worker that died) also ends what it started (g++ compiling Inductor
/// kernels, a user's subprocesses, a child that called setsid()). It dies with the thread that
/// started it (PR_SET_PDEATHSIG), so a front end killed with kill -9 leaves no worker behind.
///
/// The same process handling serves two kinds of child: the worker itself (the channel on fd 3,
/// messages parsed and returned as Message) and a program that carries the channel on its
/// stdin and stdout (Channel::Stdio: ssh to a remote worker; frames are returned raw, as
/// Frame, for remote::RemoteWorker to read).
class WorkerProcess : public WorkerChannel {
public:
    using Event = WorkerChannel::Event;
    enum class Channel { Fd3, Stdio };

    explicit WorkerProcess(WorkerLaunch launch);
    WorkerProcess(std::vector<std::string> argv, Channel channel);
    ~WorkerProcess() override;
    WorkerProcess(const WorkerProcess&) = delete;
    WorkerProcess& operator=(const WorkerProcess&) = delete;

    void start() override;
    bool send(const nlohmann::json& message) override;
    /// Sends one frame whose payload is any bytes (a raw frame after its header).
    bool sendPayload(std::string_view payload);
    std::optional<Event> next(std::chrono::steady_clock::time_point deadline) override;
    /// SIGKILL to the worker's process group, then reap it.
    void kill() override;
    bool running() const override { return m_pid > 0 && !m_reaped; }
    pid_t pid() const override { return m_pid; }
    nlohmann::json where() const override;
    /// next() also returns Wake when `fd` is readable (a relay's own input); -1: none.
    void setWakeFd(int fd) { m_wakeFd = fd; }

private:
    void closeAll();
    std::optional<Event> reap(bool block);
    /// Takes the front end's ends of a started worker's descriptors and closes the worker's.
    void adopt(int sv[2], int out[2], int err[2]);
    /// A worker forked by a pool (WorkerPool) with these descriptors; `sent`: the pool has them.
    bool startPooled(const std::vector<std::string>& environment, int channel, int out, int err, bool& sent);

    std::vector<std::string> m_argv;
    Channel m_mode = Channel::Fd3;
    int m_wakeFd = -1;
    pid_t m_pid = -1;
    bool m_reaped = false;
    std::string m_token;        ///< ProcessTree token of this worker and its descendants
    std::string m_libraryPath;  ///< WorkerLaunch::libraryPath: ahead in LD_LIBRARY_PATH ("" unchanged)
    int m_channel = -1;
    int m_out = -1;
    int m_err = -1;
    std::string m_packageDir;  ///< WorkerLaunch::pythonPackageDir: part of a pool's key
    int m_pool = -1;           ///< a pooled worker: where its pool says how it ended (WorkerPool)
    std::string m_poolAnswer;
    FrameDecoder m_decoder;
    std::optional<std::chrono::steady_clock::time_point> m_channelClosedAt;
};

}  // namespace ps::protocol
