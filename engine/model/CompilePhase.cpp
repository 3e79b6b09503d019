#include "model/CompilePhase.h"

namespace ps::model {

std::string_view toString(CompilePhase phase)
{
    switch (phase) {
    case CompilePhase::Tracing:
        return "tracing";
    case CompilePhase::AotAutograd:
        return "aot_autograd";
    case CompilePhase::InductorLowering:
        return "inductor_lowering";
    case CompilePhase::CodeGeneration:
        return "code_generation";
    case CompilePhase::Cache:
        return "cache";
    case CompilePhase::Imports:
        return "imports";
    case CompilePhase::Studio:
        return "studio";
    case CompilePhase::Other:
        return "other";
    }
    return "other";
}

std::string_view label(CompilePhase phase)
{
    switch (phase) {
    case CompilePhase::InductorLowering:
        return "inductor lowering";
    case CompilePhase::CodeGeneration:
        return "code generation";
    default:
        return toString(phase);
    }
}

std::optional<CompilePhase> compilePhaseFromString(std::string_view text)
{
    for (auto p : kCompilePhases)
        if (toString(p) == text)
            return p;
    return std::nullopt;
}

}  // namespace ps::model
