#pragma once

#include <array>
#include <optional>
#include <string_view>

namespace ps::model {

/// A phase of a precompile call, as the worker's compile profile names it
/// (precompile_studio/capture/compile_profile.py; docs/report.schema.json, compile_phase).
enum class CompilePhase {
    Tracing,           ///< torch._precompile._capture: the make_fx trace
    AotAutograd,       ///< AOTAutograd
    InductorLowering,  ///< Inductor's passes, lowering and scheduling
    CodeGeneration,    ///< Inductor's code_gen (kernel source, compiles, loading) and python_code
    Cache,             ///< inductor's FX graph cache, save_cache_artifacts, the cache bytes
    Imports,           ///< modules first imported during the call
    Studio,            ///< the studio's own hooks
    Other,             ///< what no timed event names
};

/// Every phase in the report's order.
constexpr std::array<CompilePhase, 8> kCompilePhases
    = {CompilePhase::Tracing, CompilePhase::AotAutograd, CompilePhase::InductorLowering, CompilePhase::CodeGeneration,
        CompilePhase::Cache, CompilePhase::Imports, CompilePhase::Studio, CompilePhase::Other};

/// The report's word: "tracing", "aot_autograd", "inductor_lowering", ...
std::string_view toString(CompilePhase phase);
/// For people: "tracing", "aot_autograd", "inductor lowering", "code generation", ...
std::string_view label(CompilePhase phase);
/// The phase a report's word names; nullopt for any other word.
std::optional<CompilePhase> compilePhaseFromString(std::string_view text);

}  // namespace ps::model
