#pragma once

#include "model/Capture.h"
#include "model/LoadCheck.h"
#include "model/Repro.h"
#include "model/RunStatus.h"
#include "model/RunVerdict.h"
#include "model/Stamps.h"
#include "model/StartFailure.h"

#include <nlohmann/json.hpp>

#include <cstdint>
#include <optional>
#include <string>
#include <vector>

namespace ps::model {

/// The schema-1 report of one run (docs/design/report.md; docs/report.schema.json).
/// Built from the worker's JSON; the front end sets what only it can know: a timeout, a dead
/// worker, a broken channel, the start failure, run_id and whether the run was stored.
/// Statuses are typed here and turned into words only in fromJson() and toJson().
class Report {
public:
    static constexpr int kSchema = 1;

    std::string script;
    RunStatus status = RunStatus::Error;
    std::string message;
    std::optional<std::int64_t> runId;
    std::vector<Capture> captures;
    /// The run is in the artifact library (runId is then set).
    bool stored = false;
    /// Why a store that was asked for did not happen; empty when none was asked for or it worked.
    std::optional<std::string> storeError;
    /// Set when no worker could take the run.
    std::optional<StartFailure> startFailure;
    /// What the run's artifacts depend on, read where they were made; nullopt in older reports.
    std::optional<Stamps> stamps;
    /// Only in a `library check` report: the stored pair loaded there.
    std::optional<LoadCheck> check;
    /// Only in a `library repro` report: the smallest script reproducing a capture's drift, or why none.
    std::optional<Repro> repro;

    /// Never throws: a field of the wrong type reads as absent, an unknown status as Error
    /// (with the word kept in the message).
    static Report fromJson(const nlohmann::json& j);
    /// A report for a run that produced no worker report at all.
    static Report failed(std::string script, RunStatus status, std::string message);

    /// The JSON object: the worker's object with the typed fields written over it.
    nlohmann::json toJson() const;
    /// Extra top-level fields the front end adds (log, error details, ...).
    nlohmann::json& extra() { return m_extra; }
    const nlohmann::json& extra() const { return m_extra; }

    /// The run's verdict, true first: its status, NotStored for an ok run that was asked to be
    /// stored and was not, NumericsDrift for an ok run one of whose artifacts drifted from
    /// eager's numerics (exit code still 0). toString() gives its words.
    RunVerdict verdict() const;
    /// Whether the verdict is good news (the exit code is 0).
    bool allGood() const { return exitCode() == 0; }

    /// Exit codes (docs/design/exit-codes.md):
    /// 0 every capture ok, verification (where it ran) matched, runtime checks passed, and the
    ///   run stored (or no store asked for);
    /// 1 the script ran and the studio found a problem: a violation (at capture, load, call or
    ///   runtime, or raised by the script itself), a mismatch against eager, or a capture error;
    /// 2 the script could not run: usage, no such file, an error before any capture, a
    ///   timeout, a dead worker, a broken channel, a cancel;
    /// 3 the run was ok but could not be stored.
    int exitCode() const;

private:
    nlohmann::json m_extra = nlohmann::json::object();
};

}  // namespace ps::model
