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
    /// Returns the exit code; the caller ends the process with _exit (see Interpreter.h).
    int run();

private:
    void send(const std::string& payload);
    bool receive(std::string& payload);

    int m_channel;
    protocol::FrameDecoder m_decoder;
    InterpreterConfig m_config;
};

}  // namespace ps::host
