#pragma once

#include <iosfwd>
#include <optional>
#include <string_view>

namespace ps::model {

/// A step of a run: what the worker announces while it works (script, capture, lower, verify;
/// the front end adds start and store) and where a capture's first problem happened (capture,
/// load, call, runtime, verify, artifact).
enum class Stage {
    Start,      ///< the front end is starting or reaching a worker
    Script,     ///< the user's script runs up to its precompile calls
    Capture,    ///< precompile traces fn
    Lower,      ///< the captured graph is lowered for the graph view
    Load,       ///< the artifact is loaded back
    Call,       ///< the loaded artifact is called
    Runtime,    ///< the artifact is called on runtime_inputs()
    Verify,     ///< the artifact is compared with eager fn
    ColdStart,  ///< run --cold-start: the start-up ledger, each step a fresh process
    Check,      ///< library check: a stored pair loaded where it is to be served
    Repro,      ///< library repro: the smallest cut of the graph that reproduces a drift
    Artifact,   ///< the artifact's files are read back by the front end
    Store,      ///< the run is written to the artifact library
};

/// "start", "script", "capture", "lower", "load", "call", "runtime", "verify", "cold_start", "check",
/// "repro", "artifact", "store".
std::string_view toString(Stage stage);
/// The stage a word names; nullopt for any other word.
std::optional<Stage> stageFromString(std::string_view text);
/// The stages a worker may announce while it works (its "stage" messages).
constexpr bool isWorkerStage(Stage stage)
{
    return stage == Stage::Script || stage == Stage::Capture || stage == Stage::Lower || stage == Stage::Verify
        || stage == Stage::ColdStart || stage == Stage::Check || stage == Stage::Repro;
}

std::ostream& operator<<(std::ostream& out, Stage stage);

}  // namespace ps::model
