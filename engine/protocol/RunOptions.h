#pragma once

#include "protocol/PairCheck.h"
#include "protocol/ReproRequest.h"

#include <optional>
#include <string>

namespace ps::protocol {

/// One run request, as the command line or the window asks for it.
struct RunOptions {
    std::string script;
    std::optional<std::string> backend;  ///< overrides the script's `backend`
    std::optional<std::string> tracer;   ///< overrides the script's `tracer`
    double timeoutSeconds = 600;         ///< the worker is killed past this
    bool verify = true;
    bool deepVerify = false;            ///< verification without its budget, and the from-scratch reload
    bool profile = false;               ///< the verified artifact's calls profiled per kernel (`run --profile`)
    bool coldStart = false;             ///< the start-up ledger in fresh processes (`run --cold-start`)
    std::optional<PairCheck> check;     ///< `library check`: load this pair instead of running
    std::optional<ReproRequest> repro;  ///< `library repro`: after verification, the smallest repro
    std::string outDir;                 ///< where the worker writes capture-N.py / .cache
};

}  // namespace ps::protocol
