#include "model/Violation.h"

#include "model/JsonFields.h"

#include <nlohmann/json.hpp>

namespace ps::model {

namespace {
using F = JsonFields;

int lineOf(const nlohmann::json& j)
{
    return static_cast<int>(F::integer(j, "line").value_or(0));
}

void readNodes(const nlohmann::json& details, std::vector<std::string>& out)
{
    if (const std::string node = F::text(details, "node"); !node.empty())
        out.push_back(node);
    const auto& consts = F::member(details, "constants");
    if (!consts.is_array())
        return;
    for (const auto& c : consts) {
        if (const std::string node = F::text(c, "node"); !node.empty())
            out.push_back(node);
        const auto& users = F::member(c, "users");
        if (users.is_array())
            for (const auto& u : users)
                if (u.is_string())
                    out.push_back(u.get<std::string>());
    }
}
}  // namespace

Violation Violation::fromJson(const nlohmann::json& j)
{
    Violation v;
    if (auto n = F::integer(j, "invariant"))
        v.invariant = static_cast<int>(*n);
    v.rule = F::text(j, "rule");
    v.kind = F::text(j, "kind");
    v.message = F::text(j, "message");
    v.summary = F::text(j, "summary");
    v.explanation = F::text(j, "explanation");
    v.fix = F::text(j, "fix");
    if (const auto& loc = F::member(j, "location"); loc.is_object())
        v.location = Location{F::text(loc, "file"), lineOf(loc)};
    v.phase = F::text(j, "phase");
    v.traceback = F::text(j, "traceback");
    v.markedError = F::text(j, "status") == "error";
    if (const auto& chain = F::member(j, "chain"); chain.is_array())
        for (const auto& step : chain)
            if (step.is_object())
                v.chain.push_back(
                    {F::text(step, "role"), F::text(step, "op"), F::text(step, "package"), F::text(step, "version"),
                        F::text(step, "file"), lineOf(step), F::text(step, "function"), F::text(step, "code")});
    if (const auto& details = F::member(j, "details"); details.is_object()) {
        readNodes(details, v.nodes);
        v.guard = F::text(details, "guard");
        if (const auto& at = F::member(details, "runtime_location"); at.is_object())
            v.calledAt = Location{F::text(at, "file"), lineOf(at)};
    }
    return v;
}

std::vector<Violation> Violation::listFromJson(const nlohmann::json& j)
{
    std::vector<Violation> out;
    if (j.is_array())
        for (const auto& item : j)
            if (item.is_object())
                out.push_back(fromJson(item));
    return out;
}

std::string Violation::ChainStep::describe(bool brief) const
{
    if (role == "torch")
        return op;
    std::string link;
    if (!package.empty())
        link = package + (version.empty() ? "" : " " + version) + (brief ? " · " : " ");
    link += brief ? file.substr(file.find_last_of('/') + 1) : file;
    if (line > 0)
        link += ":" + std::to_string(line);
    if (!function.empty() && role != "user")
        link += " in " + function;
    if (!code.empty())
        link += ": " + code;
    return link;
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
