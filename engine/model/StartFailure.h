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
};

/// "environment", "executable", "spawn", "python", "died", "timeout", "protocol".
std::string_view toString(StartFailure cause);
std::optional<StartFailure> startFailureFromString(std::string_view text);

}  // namespace ps::model
