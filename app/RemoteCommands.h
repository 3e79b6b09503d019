#pragma once

#include "remote/RemoteTarget.h"

#include <optional>
#include <string>

namespace CLI {
class App;
}

/// The global options that send runs to another host (any position, like --library).
struct HostOptions {
    std::string host;
    std::string remoteStudio;
    std::string remoteDir;
    /// The target these options name (with `pythonEnv`, a path on that host), or nullopt when
    /// no --host was given.
    std::optional<ps::remote::RemoteTarget> target(const std::string& pythonEnv) const;
};

/// Adds --host, --remote-studio and --remote-dir to `app`.
void addHostOptions(CLI::App& app, HostOptions* options);
/// `remote check HOST` and `remote serve` (what ssh runs on the host; not for people).
void addRemoteCommands(CLI::App& app, int* exitCode, const HostOptions* hosts, const std::string* pythonEnv);
