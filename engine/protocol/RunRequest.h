#pragma once

#include "protocol/RunOptions.h"

#include <nlohmann/json.hpp>

#include <optional>
#include <string>

namespace ps::protocol {

/// The front end's request for one run (Protocol.h): {"type":"run", ...}. parse() is the
/// worker's edge: it throws ProtocolError for anything that is not a well-formed request.
struct RunRequest {
    std::string script;
    std::optional<std::string> backend;
    std::optional<std::string> tracer;
    bool verify = true;
    /// Every check of verification without its budget, and the from-scratch reload
    /// (load_no_cache); absent in a request means false.
    bool deepVerify = false;
    /// After verification, the artifact's calls profiled per kernel (captures[i].profile); absent
    /// in a request means false.
    bool profile = false;
    /// After verification, the start-up ledger of the contract's capture in fresh processes
    /// (captures[i].cold_start); absent in a request means false.
    bool coldStart = false;
    /// Instead of a run, the stored pair loaded there (the report's `check`); absent: a run.
    std::optional<PairCheck> check;
    /// After verification, the smallest script reproducing a capture's drift (the report's `repro`).
    std::optional<ReproRequest> repro;
    std::string outDir;
    /// The front end's timeout; the worker keeps its own copy (plus a grace) and kills its
    /// process group when it passes, in case the front end is gone. 0: none.
    double timeoutSeconds = 0;

    nlohmann::json toJson() const;
    static RunRequest parse(const nlohmann::json& j);
    /// The request for a run with these options.
    static RunRequest from(const RunOptions& options);
};

}  // namespace ps::protocol
