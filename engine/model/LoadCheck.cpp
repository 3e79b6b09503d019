#include "model/LoadCheck.h"

#include "model/JsonFields.h"

#include <nlohmann/json.hpp>

namespace ps::model {

std::optional<LoadCheck> LoadCheck::fromJson(const nlohmann::json& j)
{
    using F = JsonFields;
    if (!j.is_object())
        return std::nullopt;
    const auto outcome = checkOutcomeFromString(F::text(j, "outcome"));
    if (!outcome)
        return std::nullopt;
    LoadCheck c;
    c.outcome = *outcome;
    c.reason = F::text(j, "reason");
    c.stamp = F::text(j, "stamp");
    c.precompileMessage = F::text(j, "precompile_message");
    c.target = Stamps::fromJson(F::member(j, "target"));
    if (const auto& diffs = F::member(j, "differences"); diffs.is_array())
        for (const auto& d : diffs)
            if (d.is_object())
                c.differences.push_back({F::text(d, "stamp"), F::text(d, "name"), F::text(d, "made"),
                    F::text(d, "here"), F::text(d, "effect"), F::text(d, "why")});
    c.firstCallS = F::number(j, "first_call_s");
    c.loadS = F::number(j, "load_s");
    c.kernelsCompiled = F::integer(j, "kernels_compiled");
    const auto& accuracy = F::member(j, "accuracy");
    c.verdict = F::text(accuracy, "verdict");
    c.verdictMessage = F::text(accuracy, "message");
    c.coldStart = ColdStart::fromJson(F::member(j, "cold_start"));
    return c;
}

bool LoadCheck::runs() const
{
    return (outcome == CheckOutcome::Loads || outcome == CheckOutcome::Fallback) && verdict != "wrong";
}

std::string LoadCheck::matchesWords() const
{
    if (verdict == "matches")
        return "yes";
    if (verdict == "numerics drift")
        return "drift";
    if (verdict == "wrong")
        return "no";
    return "-";
}

}  // namespace ps::model
