#include "model/ColdStart.h"

#include "model/JsonFields.h"

#include <nlohmann/json.hpp>

namespace ps::model {

namespace {

constexpr ColdStart::Step kSteps[] = {ColdStart::Step::Eager, ColdStart::Step::CompileCold,
    ColdStart::Step::CompileWarm, ColdStart::Step::Precompiled, ColdStart::Step::PrecompiledNoCache};

std::optional<double> seconds(const nlohmann::json& j, const char* key)
{
    const auto v = JsonFields::number(j, key);
    return v && *v >= 0 ? v : std::nullopt;
}

}  // namespace

std::string_view ColdStart::toString(Step step)
{
    switch (step) {
    case Step::Eager:
        return "eager";
    case Step::CompileCold:
        return "compile_cold";
    case Step::CompileWarm:
        return "compile_warm";
    case Step::Precompiled:
        return "precompiled";
    case Step::PrecompiledNoCache:
        return "precompiled_no_cache";
    }
    return "eager";
}

std::string_view ColdStart::words(Step step)
{
    switch (step) {
    case Step::Eager:
        return "eager";
    case Step::CompileCold:
        return "torch.compile, cold cache";
    case Step::CompileWarm:
        return "torch.compile, warm cache";
    case Step::Precompiled:
        return "precompiled, with its cache";
    case Step::PrecompiledNoCache:
        return "precompiled, without its cache";
    }
    return "";
}

std::optional<ColdStart> ColdStart::fromJson(const nlohmann::json& j)
{
    using F = JsonFields;
    if (!j.is_object())
        return std::nullopt;
    ColdStart c;
    c.ran = F::flag(j, "ran").value_or(false);
    c.reason = F::text(j, "reason");
    c.importS = seconds(j, "import_s");
    c.saving = seconds(j, "saving");
    c.message = F::text(j, "message");
    if (const auto& steps = F::member(j, "steps"); steps.is_array())
        for (const auto& s : steps) {
            const std::string word = F::text(s, "step");
            for (auto step : kSteps)
                if (toString(step) == word) {
                    Measured m;
                    m.step = step;
                    m.firstCallS = seconds(s, "first_call_s");
                    m.loadS = seconds(s, "load_s");
                    m.kernelsCompiled = F::integer(s, "kernels_compiled");
                    m.error = F::text(F::member(s, "error"), "message");
                    c.steps.push_back(m);
                }
        }
    return c;
}

const ColdStart::Measured* ColdStart::find(Step step) const
{
    for (const auto& m : steps)
        if (m.step == step)
            return &m;
    return nullptr;
}

}  // namespace ps::model
