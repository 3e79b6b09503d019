#pragma once

#include "model/StartFailure.h"

#include <string>

namespace ps::remote {

/// Why an ssh connection ended before the studio on the host answered, from ssh's exit code and
/// its last words: typed (unreachable, authentication, no_studio, died) with one line that
/// names the host, says which and what to do.
class SshFailure {
public:
    model::StartFailure cause = model::StartFailure::Died;
    std::string message;

    /// `host`: the destination as given; `exitCode`: ssh's (255: ssh's own error, else the
    /// remote command's); `words`: ssh's stderr (the tail is read).
    static SshFailure classify(const std::string& host, int exitCode, const std::string& words);
    /// The last non-empty line of `text`, trimmed and cut to 300 characters.
    static std::string lastLine(const std::string& text);
};

}  // namespace ps::remote
