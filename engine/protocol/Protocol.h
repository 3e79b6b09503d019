#pragma once

// The front end <-> worker protocol.
//
// Channel: a Unix socket pair. The worker gets its end as fd 3 at exec, moves it to a high,
// close-on-exec descriptor at once and closes fd 3, so no compiler or child the script starts
// inherits it and nothing written to fd 3 reaches it. The worker's fd 1 and fd 2 are pipes that
// the front end reads on its own; user output (Python-level or C-level) never reaches the
// channel. A script that looks for the socket can still write to it: every message is checked
// (WorkerMessage), and what is not the protocol ends the run as protocol_error.
//
// Framing: each message is a 4-byte little-endian length followed by that many bytes of UTF-8
// JSON, one object with a "type" field.
//
// Messages are typed and checked at the edge: WorkerMessage (hello, stage, result, fatal) and
// RunRequest (run); the front end also sends {"type":"quit"}. docs/design/protocol.md lists
// them; anything else on the channel is a ProtocolError that ends the run.

#include <cstdint>

namespace ps::protocol {

/// The largest frame either side accepts; a longer length prefix means a broken stream.
inline constexpr std::uint32_t kMaxFrameBytes = 256u * 1024u * 1024u;

/// The studio's version (`precompile-studio --version`, the report's worker.studio).
inline constexpr const char* kStudioVersion = "0.1.0";

/// The version of the front end <-> worker protocol, checked when a front end reaches a studio
/// on another host (remote::RemoteRelay's hello): a change to a message's fields raises it.
/// 2: the remote relay's messages (remote, script, output, file, chunk, exited) and the
/// worker's hello with hostname, cuda and devices. 3: a stage's detail (what it does now).
/// 4: a run request's cold_start and check (docs/design/deploy.md), the stages cold_start and check.
inline constexpr int kProtocolVersion = 4;

/// The descriptor number the worker finds its end of the channel on at exec.
inline constexpr int kWorkerChannelFd = 3;

}  // namespace ps::protocol
