#pragma once

#include <nlohmann/json_fwd.hpp>

#include <optional>
#include <string>
#include <string_view>
#include <vector>

namespace ps::model {

/// A capture's start-up measured in fresh processes (`run --cold-start`; captures[i].cold_start):
/// each step's time from after the script built its model and inputs to the first result, a
/// compile or a load included; importing torch apart. Never throws.
struct ColdStart {
    enum class Step { Eager, CompileCold, CompileWarm, Precompiled, PrecompiledNoCache };
    struct Measured {
        Step step = Step::Eager;
        std::optional<double> firstCallS;
        std::optional<double> loadS;
        std::optional<std::int64_t> kernelsCompiled;
        std::string error;  ///< "" when it ran
    };
    bool ran = false;
    std::string reason;  ///< why not measured
    std::optional<double> importS;
    std::optional<double> saving;  ///< torch.compile cold over precompiled
    std::string message;           ///< "first call 0.41 s, against 31.8 s for torch.compile cold and 6.9 s warm"
    std::vector<Measured> steps;

    /// captures[i].cold_start; nullopt when absent or not an object.
    static std::optional<ColdStart> fromJson(const nlohmann::json& j);
    const Measured* find(Step step) const;
    /// "eager", "torch.compile, cold cache", ..., "precompiled, without its cache".
    static std::string_view words(Step step);
    /// "eager", "compile_cold", ... (the report's words).
    static std::string_view toString(Step step);
};

}  // namespace ps::model
