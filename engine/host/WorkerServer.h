#pragma once

#include "host/Interpreter.h"
#include "protocol/FrameDecoder.h"

#include <string>

namespace ps::host {

/// The worker's main loop: starts the interpreter, imports torch (a warm worker), says hello,
/// then serves run requests from the channel until quit or EOF (protocol/Protocol.h).
///
/// Runs on the main thread and holds the GIL only while Python runs. Frames go out from
/// whatever thread calls emit (always one holding the GIL), under the GIL.
class WorkerServer {
public:
    WorkerServer(int channelFd, InterpreterConfig config);
    /// Instead of serving one channel: warm up, then serve forks on the Unix socket
    /// `socketPath` (precompile_studio/pool.py) until idle for `idleSeconds`; run() then goes on
    /// in each fork, with the channel its front end sent. `lockFd`: the key's lock, held.
    void servePool(std::string socketPath, double idleSeconds, int lockFd);
    /// Returns the exit code; the caller ends the process with _exit (see Interpreter.h).
    int run();

private:
    void send(const std::string& payload);
    bool receive(std::string& payload);
    void adoptChannel(int channelFd);

    int m_channel;
    protocol::FrameDecoder m_decoder;
    InterpreterConfig m_config;
    std::string m_poolSocket;
    double m_poolIdleSeconds = 0;
    int m_poolLock = -1;
};

}  // namespace ps::host
