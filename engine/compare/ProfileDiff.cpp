#include "compare/ProfileDiff.h"

#include "model/JsonFields.h"

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <map>
#include <unordered_map>

namespace ps::compare {

namespace {

using nlohmann::json;
using F = model::JsonFields;

const char* const kNoNode = "(no graph node)";
const char* const kOutside = "(outside kernels)";

std::string topModule(const std::string& path)
{
    if (path.empty())
        return "(no module)";
    const auto first = path.find('.');
    if (first == std::string::npos)
        return path;
    const auto second = path.find('.', first + 1);
    return second == std::string::npos ? path : path.substr(0, second);
}

}  // namespace

std::string ProfileDiff::duration(double us)
{
    char buf[32];
    if (std::fabs(us) >= 1000)
        std::snprintf(buf, sizeof buf, "%.2f ms", us / 1000);
    else
        std::snprintf(buf, sizeof buf, "%.0f us", us);
    return buf;
}

namespace {

bool usable(const json& profile)
{
    return profile.is_object() && F::member(profile, "kernels").is_array()
        && F::integer(profile, "calls").value_or(0) > 0;
}

}  // namespace

std::string ModuleTime::describe() const
{
    return module + ": " + (aUs ? ProfileDiff::duration(*aUs) : std::string("-")) + " -> "
        + (bUs ? ProfileDiff::duration(*bUs) : std::string("-"));
}

std::vector<std::pair<std::string, double>> ProfileDiff::moduleTimes(const json& capture)
{
    const json& profile = F::member(capture, "profile");
    if (!usable(profile))
        return {};
    std::unordered_map<std::string, std::string> moduleOf;
    if (const json& nodes = F::member(F::member(capture, "graph"), "node_list"); nodes.is_array())
        for (const json& n : nodes)
            if (n.is_object())
                moduleOf[F::text(n, "name")] = topModule(F::text(F::member(n, "module"), "path"));
    std::map<std::string, double> times;
    for (const json& k : F::member(profile, "kernels")) {
        const double us = F::number(k, "self_us").value_or(0);
        if (!std::isfinite(us) || us <= 0)
            continue;
        std::vector<std::string> modules;
        if (const json& nodes = F::member(k, "nodes"); nodes.is_array())
            for (const json& n : nodes)
                if (n.is_string())
                    if (auto it = moduleOf.find(n.get<std::string>()); it != moduleOf.end())
                        modules.push_back(it->second);
        if (modules.empty()) {
            times[kNoNode] += us;
            continue;
        }
        for (const auto& m : modules)
            times[m] += us / static_cast<double>(modules.size());
    }
    if (const auto outside = F::number(profile, "unattributed_us"); outside && std::isfinite(*outside) && *outside > 0)
        times[kOutside] += *outside;
    return {times.begin(), times.end()};
}

std::vector<ModuleTime> ProfileDiff::compare(const json& captureA, const json& captureB)
{
    const auto a = moduleTimes(captureA);
    const auto b = moduleTimes(captureB);
    if (a.empty() || b.empty())
        return {};
    std::map<std::string, ModuleTime> rows;
    for (const auto& [m, us] : a)
        rows[m].aUs = us;
    for (const auto& [m, us] : b)
        rows[m].bUs = us;
    std::vector<ModuleTime> out;
    for (auto& [m, row] : rows) {
        row.module = m;
        out.push_back(row);
    }
    std::stable_sort(out.begin(), out.end(),
        [](const ModuleTime& x, const ModuleTime& y) { return std::fabs(x.changeUs()) > std::fabs(y.changeUs()); });
    return out;
}

json ProfileDiff::toJson(const std::vector<ModuleTime>& rows)
{
    json out = json::array();
    for (const auto& r : rows)
        out.push_back(
            {{"module", r.module}, {"a_us", r.aUs ? json(*r.aUs) : json()}, {"b_us", r.bUs ? json(*r.bUs) : json()}});
    return out;
}

}  // namespace ps::compare
