#pragma once

#include "model/CheckOutcome.h"
#include "model/ColdStart.h"
#include "model/Stamps.h"

#include <nlohmann/json_fwd.hpp>

#include <optional>
#include <string>
#include <vector>

namespace ps::model {

/// A stored pair loaded in another environment (`library check`; the report's `check`): the
/// outcome, why, the stamps there and which differ from where the pair was made, the time to
/// the first result and whether it matched eager fn there. Never throws.
struct LoadCheck {
    struct Difference {
        std::string stamp;  ///< torch_series, torch, python, triton, cpu_isa, gpus, arch, precompile_api
        std::string name;   ///< "CPU instruction set"
        std::string made;
        std::string here;
        std::string effect;  ///< refused | fallback
        std::string why;
    };
    CheckOutcome outcome = CheckOutcome::Error;
    std::string reason;
    std::string stamp;              ///< the stamp that explains a fallback or refusal; "" none
    std::string precompileMessage;  ///< precompile's own words; "" none
    std::optional<Stamps> target;
    std::vector<Difference> differences;
    std::optional<double> firstCallS;
    std::optional<double> loadS;
    std::optional<std::int64_t> kernelsCompiled;
    std::string verdict;                 ///< against eager there: matches, numerics drift, wrong; "" none
    std::string verdictMessage;          ///< the judge's words
    std::optional<ColdStart> coldStart;  ///< `library check --cold-start`: the pair's start-up there

    /// The report's check; nullopt when it is absent or has no outcome the studio knows.
    static std::optional<LoadCheck> fromJson(const nlohmann::json& j);
    /// Ran there and gave eager's numbers (matches or drift): loads or falls back, and the judge
    /// did not say wrong.
    bool runs() const;
    /// "yes", "drift", "no", "-" (not compared).
    std::string matchesWords() const;
};

}  // namespace ps::model
