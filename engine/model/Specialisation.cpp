#include "model/Specialisation.h"

#include "model/JsonFields.h"

#include <nlohmann/json.hpp>

namespace ps::model {

namespace {
using F = JsonFields;

std::optional<Specialisation::Status> specialisationStatus(const std::string& s)
{
    if (s == "found")
        return Specialisation::Status::Found;
    if (s == "none")
        return Specialisation::Status::None;
    if (s == "failed")
        return Specialisation::Status::Failed;
    if (s == "skipped")
        return Specialisation::Status::Skipped;
    return std::nullopt;
}

std::string baseName(const std::string& path)
{
    return path.substr(path.find_last_of('/') + 1);
}
}  // namespace

const Specialisation::Guard* Specialisation::broken() const
{
    for (const auto& g : guards)
        if (g.falseAtRuntime)
            return &g;
    return nullptr;
}

std::string Specialisation::describe() const
{
    switch (status) {
    case Status::Found: {
        const Guard* g = broken();
        if (!g)
            return "found";
        std::string out = g->expr + ", false at the runtime sizes";
        if (g->location && g->location->line > 0)
            out += ", at " + baseName(g->location->file) + ":" + std::to_string(g->location->line);
        if (!g->code.empty())
            out += ": " + g->code;
        return out;
    }
    case Status::None:
        return "every guard holds at the runtime sizes (" + std::to_string(guards.size())
            + "): the artifact is static only because precompile captures static shapes";
    case Status::Failed:
        return "not found: " + (reason.empty() ? std::string("the symbolic trace failed") : reason);
    case Status::Skipped:
        return "not looked for: " + (reason.empty() ? std::string("over its budget") : reason);
    }
    return {};
}

std::optional<Specialisation> Specialisation::fromJson(const nlohmann::json& j)
{
    if (!j.is_object())
        return std::nullopt;
    const auto status = specialisationStatus(F::text(j, "status"));
    if (!status)
        return std::nullopt;
    Specialisation s;
    s.status = *status;
    s.reason = F::text(j, "reason");
    if (const auto& guards = F::member(j, "guards"); guards.is_array())
        for (const auto& g : guards) {
            if (!g.is_object())
                continue;
            Guard guard;
            guard.expr = F::text(g, "expr");
            guard.falseAtRuntime = F::flag(g, "false_at_runtime").value_or(false);
            if (const auto& loc = F::member(g, "location"); loc.is_object()) {
                guard.location = Location{F::text(loc, "file"), static_cast<int>(F::integer(loc, "line").value_or(0))};
                guard.code = F::text(loc, "code");
            }
            s.guards.push_back(std::move(guard));
        }
    return s;
}

}  // namespace ps::model
