#pragma once

#include "protocol/ExitStatus.h"

#include <nlohmann/json.hpp>

#include <chrono>
#include <cstdint>
#include <functional>
#include <memory>
#include <optional>
#include <string>
#include <sys/types.h>

namespace ps::protocol {

/// One worker as RunClient sees it, whatever carries its frames: a process of this computer
/// (WorkerProcess) or one on another host reached over ssh (remote::RemoteWorker). Both turn
/// what happens into the same events.
///
/// Thread contract: one thread owns an instance; nothing here is thread-safe. pid() names a
/// process of this computer whose process group a cancel may kill from any thread.
class WorkerChannel {
public:
    struct Event {
        enum class Kind {
            Message,   ///< one protocol message of the worker, parsed
            Output,    ///< the worker's fd 1 or 2
            Exited,    ///< the worker ended (status)
            Transfer,  ///< artifact bytes arriving from another host: data names the file
            Frame,     ///< a raw frame (WorkerProcess in stdio mode: its owner parses it)
            Wake,      ///< the descriptor given to WorkerProcess::setWakeFd is readable
        };
        Kind kind;
        nlohmann::json message;   ///< Message
        int stream = 0;           ///< Output: 1 or 2
        std::string data;         ///< Output, Frame, Transfer
        ExitStatus status;        ///< Exited
        std::uint64_t done = 0;   ///< Transfer: bytes arrived
        std::uint64_t total = 0;  ///< Transfer: bytes expected
    };

    virtual ~WorkerChannel() = default;

    /// Throws ProtocolError when the worker cannot be started.
    virtual void start() = 0;
    /// Sends one message; returns false when the channel is closed (the worker died).
    virtual bool send(const nlohmann::json& message) = 0;
    /// The next event, or nothing when the deadline passes first.
    virtual std::optional<Event> next(std::chrono::steady_clock::time_point deadline) = 0;
    /// Ends the worker and whatever it started, then reaps it.
    virtual void kill() = 0;
    virtual bool running() const = 0;
    /// The local process to kill for a cancel (the worker, or the ssh that carries it).
    virtual pid_t pid() const = 0;
    /// Where the worker runs, for the report's `worker` object: {"host": null} on this
    /// computer; a remote worker adds its host, the studio's version and protocol there.
    virtual nlohmann::json where() const = 0;
};

/// Makes the next worker (RunClient starts one per run).
using ChannelFactory = std::function<std::unique_ptr<WorkerChannel>()>;

}  // namespace ps::protocol
