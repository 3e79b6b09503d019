#pragma once

#include <optional>
#include <string_view>

namespace ps::model {

/// Why no worker could take a run: the typed cause of a run that never reached its script.
enum class StartFailure {
    Environment,  ///< the Python environment is missing or was not made completely
    Executable,   ///< the worker executable is missing
    Spawn,        ///< the operating system refused to start the process (fork, socketpair, ...)
    Python,       ///< the worker started but its Python (or torch) could not start
    Died,         ///< the worker died before it said hello
    Timeout,      ///< the run's timeout passed before the worker said hello
    Protocol,     ///< the worker sent something that is not the protocol before its hello
    // A worker on another host (docs/design/remote-runs.md):
    Unreachable,     ///< ssh could not reach the host (name, route, refused, timed out)
    Authentication,  ///< the host refused the login (key, user, host key)
    NoStudio,        ///< the host has no Precompile Studio where it was looked for
    Version,         ///< the host's studio speaks another protocol version
};

/// "environment", "executable", "spawn", "python", "died", "timeout", "protocol", "unreachable",
/// "authentication", "no_studio", "version".
std::string_view toString(StartFailure cause);
std::optional<StartFailure> startFailureFromString(std::string_view text);
/// The host of a remote run was never reached or cannot serve it (unreachable, authentication,
/// no_studio, version): nothing ran, and there is nothing to keep.
bool isHostFailure(StartFailure cause);

}  // namespace ps::model
