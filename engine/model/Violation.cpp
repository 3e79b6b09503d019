#include "model/Violation.h"

#include <nlohmann/json.hpp>

namespace ps::model {

namespace {
std::string stringOr(const nlohmann::json& j, const char* key)
{
    auto it = j.find(key);
    return it != j.end() && it->is_string() ? it->get<std::string>() : std::string();
}
}  // namespace

Violation Violation::fromJson(const nlohmann::json& j)
{
    Violation v;
    if (auto it = j.find("invariant"); it != j.end() && it->is_number_integer())
        v.invariant = it->get<int>();
    v.rule = stringOr(j, "rule");
    v.kind = stringOr(j, "kind");
    v.message = stringOr(j, "message");
    v.summary = stringOr(j, "summary");
    v.explanation = stringOr(j, "explanation");
    v.fix = stringOr(j, "fix");
    if (auto it = j.find("location"); it != j.end() && it->is_object()) {
        Location loc;
        loc.file = stringOr(*it, "file");
        if (auto line = it->find("line"); line != it->end() && line->is_number_integer())
            loc.line = line->get<int>();
        v.location = loc;
    }
    return v;
}

std::string Violation::oneLine() const
{
    std::string out;
    if (location && location->line > 0)
        out += location->file + ":" + std::to_string(location->line) + ": ";
    if (invariant)
        out += "invariant " + std::to_string(*invariant) + ": ";
    if (!kind.empty() && kind != "ContractError")
        out += kind + ": ";
    const std::string& words = summary.empty() ? message : summary;
    out += words.substr(0, words.find('\n'));
    return out;
}

}  // namespace ps::model
