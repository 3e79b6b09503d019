#pragma once

#include "model/ArtifactInfo.h"
#include "model/CacheInfo.h"
#include "model/CaptureStatus.h"
#include "model/ColdStart.h"
#include "model/CompileProfile.h"
#include "model/KernelProfile.h"
#include "model/Specialisation.h"
#include "model/Stage.h"
#include "model/Verification.h"
#include "model/Violation.h"

#include <nlohmann/json.hpp>

#include <map>
#include <optional>
#include <string>
#include <vector>

namespace ps::model {

/// One precompile call of a run. Holds the typed fields the front end reads and the whole
/// JSON object it came from, so fields this struct does not name (graph, lowering, ...)
/// travel through unchanged.
struct Capture {
    std::string name;
    std::string backend;
    std::string tracer;
    CaptureStatus status = CaptureStatus::Error;
    /// The contract outcome or error of the precompile call itself (not of verification).
    std::optional<Violation> violation;
    /// The first cause of a status other than ok, wherever it happened (capture, load, call,
    /// runtime, verify): the worker's "outcome" object.
    std::optional<Violation> outcome;
    /// Where the outcome happened: Capture, Load, Call, Runtime, Verify or (set by the front
    /// end) Artifact; nullopt when the worker did not say.
    std::optional<Stage> outcomeStage;
    std::optional<ArtifactInfo> artifact;
    std::map<std::string, double> timings;
    /// torch._precompile's warnings about this capture.
    std::vector<Violation> warnings;
    /// The verification, read once (nullopt when the report holds none).
    std::optional<Verification> verify;
    /// Where the precompile time went (compile_profile, compile_trace); nullopt in older reports.
    std::optional<CompileProfile> compileProfile;
    /// Where a runtime shape rejection comes from (nullopt: none was looked for).
    std::optional<Specialisation> specialisation;
    /// Where an artifact call's time goes per kernel (`run --profile`); nullopt: not profiled.
    std::optional<KernelProfile> profile;
    /// The start-up ledger (`run --cold-start`); nullopt: not measured.
    std::optional<ColdStart> coldStart;
    /// What the worker read from the cache (nullopt: the report holds no inspection).
    std::optional<CacheInfo> cache;
    nlohmann::json json = nlohmann::json::object();

    /// Verification found numerics drift (verify.status "drift"): the artifact differs from eager
    /// far beyond eager's own error against float64, yet breaks no contract; the capture stays ok.
    bool drifted() const;

    /// Never throws; an unknown status reads as Error.
    static Capture fromJson(const nlohmann::json& j);
    /// The JSON object with the typed status written over it.
    nlohmann::json toJson() const;
};

}  // namespace ps::model
