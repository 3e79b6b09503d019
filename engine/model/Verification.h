#pragma once

#include "model/DriftLocalisation.h"
#include "model/Judgement.h"
#include "model/NodeAccuracy.h"
#include "model/Violation.h"

#include <nlohmann/json_fwd.hpp>

#include <cstdint>
#include <map>
#include <optional>
#include <string>
#include <utility>
#include <vector>

namespace ps::model {

/// A capture's verification (the report's captures[i].verify, verify/pipeline.py), read once:
/// the artifact loaded back and called beside eager fn, each value compared, the float64
/// judge's verdict, the runtime_inputs call and the perturbed trials. The window, `run`'s
/// printer and the compare code read these fields instead of the JSON; a field of the wrong
/// type reads as absent, an unknown status as Error.
struct Verification {
    enum class Status { Ok, Mismatch, Violation, Error, Skipped, Drift };
    /// A value group that verification compares.
    enum class Group { Outputs, Grads, Buffers, Parameters, Inputs, Runtime };

    /// One value of eager fn against the same value of the artifact (a "compared" entry).
    struct Comparison {
        Group group = Group::Outputs;
        std::string name;
        bool ok = false;  ///< within the dtype's tight tolerance
        std::optional<double> maxAbsDiff;
        std::optional<double> rmsRelDiff;
        std::optional<std::int64_t> mismatched;  ///< elements outside tolerance (absent where shapes differ)
        /// eager's and the artifact's sizes, strides, dtypes and shown values, as words.
        std::optional<std::pair<std::string, std::string>> sizes, strides, dtypes, values;
        std::string note;
    };

    /// A value the float64 judge decided (accuracy.tensors).
    struct JudgedValue {
        Group group = Group::Outputs;
        std::string name;
        Judgement verdict = Judgement::None;
        std::optional<double> artifactError;
        std::optional<double> eagerError;
    };

    /// The float64 judge on a set of values (verify.accuracy, verify.runtime.accuracy).
    struct Accuracy {
        Judgement verdict = Judgement::None;
        bool againstFloat64 = false;  ///< reference "float64" (else the tight tolerance decided)
        std::optional<double> artifactError;
        std::optional<double> eagerError;
        std::optional<double> ratio;
        std::vector<std::string> worst;
        std::vector<JudgedValue> values;
        /// Per graph node, the artifact's error against a float64 run of the captured graph beside
        /// eager's (accuracy.nodes; empty unless drift was localised).
        std::vector<NodeAccuracy> nodes;
        /// The first nodes where the artifact leaves eager's error band (accuracy.drift_starts);
        /// name them with DriftStart::of, never as they are.
        std::vector<std::string> driftStarts;
        /// Per start named by a node of several outputs, the elements (getitems) that left the
        /// band (accuracy.drift_starts_via).
        std::map<std::string, std::vector<std::string>> driftStartsVia;
        /// Whether localising ran (accuracy.localise); nullopt when the report does not say.
        std::optional<DriftLocalisation> localise;
    };

    /// The artifact's call on runtime_inputs() (verify.runtime).
    struct Runtime {
        Status status = Status::Error;  ///< Ok, Violation or Error
        std::optional<Violation> violation;
        std::optional<Violation> error;
        std::optional<bool> matchesEager;
        std::optional<Accuracy> accuracy;
        std::vector<Comparison> outputs;
    };

    /// One call of eager fn and the artifact on other inputs (verify.perturbed.trials,
    /// verify.resized.trials). Accepted: unequal sizes of independently marked dims that eager
    /// fn refuses, returned by the artifact without an error.
    struct Trial {
        enum class Status { Ok, Drift, Diverged, Accepted, Skipped };
        std::string kind;
        Status status = Status::Skipped;
        std::string note;
        std::string sizes;  ///< a resized trial's sizes ("x dim 0 = 7"); "" for a perturbed one
    };

    /// A set of trials: the contract checker's on perturbed inputs (verify.perturbed), or the
    /// marked dims at other sizes (verify.resized).
    struct Trials {
        bool ran = false;
        std::string reason;  ///< why it did not run
        std::vector<Trial> trials;
        /// Any trial diverged or accepted (measured evidence of a wrong result).
        [[nodiscard]] bool diverged() const;
    };

    bool ran = false;
    Status status = Status::Error;
    std::string reason;                   ///< why it did not run
    std::optional<bool> matchesEager;     ///< the verdict: tolerance or rounding against float64
    std::optional<bool> withinTolerance;  ///< the tight tolerance alone
    std::optional<double> maxAbsDiff;
    std::optional<double> maxRelDiff;
    std::optional<std::int64_t> calls;
    /// Every compared value, in the report's order: outputs, grads, buffers, parameters, inputs.
    std::vector<Comparison> compared;
    std::optional<Violation> loadViolation;
    std::optional<Violation> callViolation;
    std::optional<Violation> error;
    std::optional<Runtime> runtime;
    std::optional<Accuracy> accuracy;
    std::optional<Trials> perturbed;
    std::optional<Trials> resized;  ///< only where a dim is marked with mark_unbacked
    /// The optional checks skipped to stay within the verification budget (budget.skipped, and
    /// the load without cache when it did not run).
    std::vector<std::string> skipped;
    bool loadNoCacheSkipped = false;
    std::string budgetHow;  ///< how to run every check (budget.how), "" when not said

    /// What verification skipped to stay within its budget, as every reader says it (the window,
    /// `run`, the page): the checks in order, the load without cache last. Empty: nothing skipped.
    std::vector<std::string> skippedChecks() const;
    /// How to run every check: budget.how, or the flag's words when the report says none.
    std::string everyCheckHow() const;

    /// The verify object read; nullopt when j is not an object.
    static std::optional<Verification> fromJson(const nlohmann::json& j);

    /// The one verdict of the verification as `run` and the window say it: the float64 judge's
    /// where it ran (None: it gave none), Matches for status Ok without it; nullopt otherwise
    /// (the status says it).
    std::optional<Judgement> verdict() const;
    /// The judge's word on one value; nullopt when the judge did not look at it.
    std::optional<Judgement> judged(Group group, const std::string& name) const;
    const JudgedValue* judgedValue(Group group, const std::string& name) const;
    /// The compared values of one group.
    std::vector<const Comparison*> group(Group group) const;
    /// Whether a group matches by the one verdict: nullopt when it holds no value, else Matches
    /// (every value within tolerance or judged rounding), Drift, or Wrong.
    std::optional<Judgement> groupVerdict(Group group) const;
};

/// "ok", "mismatch", "violation", "error", "skipped", "drift".
std::string_view toString(Verification::Status status);
/// "ok", "drift", "diverged", "skipped".
std::string_view toString(Verification::Trial::Status status);
/// The report's word for a group: "outputs", "grads", "buffers", "parameters", "inputs", "runtime".
std::string_view toString(Verification::Group group);

}  // namespace ps::model
