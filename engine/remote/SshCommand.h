#pragma once

#include "remote/RemoteTarget.h"

#include <string>
#include <vector>

namespace ps::remote {

/// The command line that reaches a studio on another host: the system's OpenSSH client (keys,
/// the agent, ProxyJump and ControlMaster work as for git), in batch mode (a password prompt
/// would hang a window: a login that needs one is refused, and said so), with keep-alives so
/// that a silently dropped connection ends within seconds, running the studio there as
/// `precompile-studio remote serve`.
///
/// PS_SSH_COMMAND replaces `ssh` (like GIT_SSH_COMMAND): "ssh -F /path/ssh_config", say; it is
/// split on spaces, with '...' and "..." quoting.
class SshCommand {
public:
    /// argv for `target`, the relay told `serveArgs` (--protocol, --python-env, --remote-dir).
    static std::vector<std::string> argv(const RemoteTarget& target, const std::vector<std::string>& serveArgs);
    /// The POSIX sh line run on the host: finds the studio in `remoteStudio` (its build/bin,
    /// bin, or itself) or on PATH, and execs `precompile-studio remote serve ARGS`; without one it
    /// prints a line marked kNoStudio and exits 127.
    static std::string remoteLine(const std::string& remoteStudio, const std::vector<std::string>& serveArgs);
    /// The marker of the line the host prints when it has no studio (SshFailure reads it).
    static constexpr const char* kNoStudio = "precompile-studio-remote: no studio:";
    /// `text` single-quoted for a POSIX shell.
    static std::string quote(const std::string& text);
    /// The ssh command before its options: PS_SSH_COMMAND split, or {"ssh"}.
    static std::vector<std::string> base();
};

}  // namespace ps::remote
