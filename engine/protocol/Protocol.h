#pragma once

// The front end <-> worker protocol.
//
// Channel: a Unix socket pair. The worker gets its end as fd 3 at exec, moves it to a high,
// close-on-exec descriptor at once and closes fd 3, so neither a user script nor a compiler
// the script starts can write to it. The worker's fd 1 and fd 2 are pipes that the front end
// reads on its own; user output (Python-level or C-level) can never reach the channel.
//
// Framing: each message is a 4-byte little-endian length followed by that many bytes of UTF-8
// JSON, one object with a "type" field.
//
// Worker -> front end
//   {"type":"hello", "python":..., "torch":..., "libtorch":..., "pid":N}   once, when warm
//   {"type":"stage", "stage":"script|capture|lower|verify|store", "capture":NAME?}
//   {"type":"result", "report":{...schema-1 report...}}                     once per run
//   {"type":"fatal", "message":..., "traceback":...}  the host itself failed (not the script)
// Front end -> worker
//   {"type":"run", "script":PATH, "backend":B|null, "tracer":T|null, "verify":bool,
//    "out_dir":DIR}
//   {"type":"quit"}   the worker exits at once without finalizing the interpreter

#include <cstdint>

namespace ps::protocol {

/// The largest frame either side accepts; a longer length prefix means a broken stream.
inline constexpr std::uint32_t kMaxFrameBytes = 256u * 1024u * 1024u;

/// The descriptor number the worker finds its end of the channel on at exec.
inline constexpr int kWorkerChannelFd = 3;

} // namespace ps::protocol
