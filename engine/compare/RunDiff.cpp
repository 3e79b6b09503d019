#include "compare/RunDiff.h"

#include "model/CacheInfo.h"
#include "model/JsonFields.h"

#include "compare/DiffCauses.h"
#include "compare/TextDiff.h"

#include <map>
#include <set>

namespace ps::compare {

namespace {

using nlohmann::json;
using ps::model::JsonFields;

const json& capturesOf(const RunSide& side)
{
    static const json kEmpty = json::array();
    const json& caps = JsonFields::member(side.report, "captures");
    return caps.is_array() ? caps : kEmpty;
}

std::optional<std::string> codeOf(const RunSide& side, int index)
{
    if (index < 0 || index >= static_cast<int>(side.pythonCode.size()))
        return std::nullopt;
    return side.pythonCode[static_cast<std::size_t>(index)];
}

/// The cache envelope field by field (model::CacheInfo::fields), then its bundle's entries by
/// kind and key. An absent inspection compares as an empty one.
std::vector<Difference> cacheDifferences(const json& ca, const json& cb)
{
    using ps::model::CacheInfo;
    const CacheInfo a = CacheInfo::fromJson(JsonFields::member(ca, "cache")).value_or(CacheInfo{});
    const CacheInfo b = CacheInfo::fromJson(JsonFields::member(cb, "cache")).value_or(CacheInfo{});
    std::vector<Difference> out;
    const auto fa = a.fields();
    const auto fb = b.fields();
    for (std::size_t i = 0; i < fa.size(); ++i)
        if (fa[i].second != fb[i].second)
            out.push_back({fa[i].first, fa[i].second, fb[i].second});
    auto entries = [](const CacheInfo& cache) {
        std::map<std::string, std::int64_t> byKey;
        for (const auto& e : cache.entries)
            byKey.emplace(CacheInfo::entryKey(e), e.bytes);
        return byKey;
    };
    const auto ea = entries(a);
    const auto eb = entries(b);
    std::set<std::string> keys;
    for (const auto& [k, v] : ea)
        keys.insert(k);
    for (const auto& [k, v] : eb)
        keys.insert(k);
    for (const std::string& k : keys) {
        auto x = ea.find(k);
        auto y = eb.find(k);
        const std::string before = x == ea.end() ? "absent" : std::to_string(x->second) + " bytes";
        const std::string after = y == eb.end() ? "absent" : std::to_string(y->second) + " bytes";
        if (before != after)
            out.push_back({"entry " + k, before, after});
    }
    return out;
}

json verifySummary(const json& capture)
{
    const json& v = JsonFields::member(capture, "verify");
    return {{"status", JsonFields::member(v, "status")},
        {"verdict", JsonFields::member(JsonFields::member(v, "accuracy"), "verdict")},
        {"max_abs_diff", JsonFields::member(v, "max_abs_diff")},
        {"max_rel_diff", JsonFields::member(v, "max_rel_diff")}};
}

json timingsSideBySide(const json& ca, const json& cb)
{
    json out = json::object();
    const json& ta = JsonFields::member(ca, "timings_s");
    const json& tb = JsonFields::member(cb, "timings_s");
    for (const json* t : {&ta, &tb})
        if (t->is_object())
            for (auto it = t->begin(); it != t->end(); ++it)
                out[it.key()] = {
                    {"a", JsonFields::member(ta, it.key().c_str())}, {"b", JsonFields::member(tb, it.key().c_str())}};
    return out;
}

}  // namespace

RunDiff RunDiff::compare(const RunSide& a, const RunSide& b)
{
    RunDiff d;
    // An imported run has no script text (NAME.py is the artifact): then only the script's hash
    // in the provenance can tell whether it changed, and node lines compare as they are.
    const bool bothTexts = !a.scriptText.empty() && !b.scriptText.empty();
    const TextDiff script = TextDiff::compare(a.scriptText, b.scriptText);
    if (bothTexts) {
        d.m_scriptChanges = DiffCauses::describeScript(script);
    } else {
        const json& shaA = JsonFields::member(JsonFields::member(a.report, "provenance"), "script_sha256");
        const json& shaB = JsonFields::member(JsonFields::member(b.report, "provenance"), "script_sha256");
        const RunSide& missing = a.scriptText.empty() ? a : b;
        if (shaA.is_string() && shaB.is_string()) {
            if (shaA != shaB)
                d.m_scriptChanges.push_back(
                    "its text differs (by its sha256; " + missing.label + " does not keep the text)");
        } else if (a.scriptText != b.scriptText) {
            d.m_scriptUnknown = missing.label + " keeps neither the script's text nor its hash";
        }
    }

    // A node's line is read against its own file: the script's lines through the text diff (when
    // both texts are kept), a line of a file the script imports as it is.
    const json& pathA = JsonFields::member(a.report, "script");
    const json& pathB = JsonFields::member(b.report, "script");
    const ScriptLines lines{bothTexts ? &script : nullptr, pathA.is_string() ? pathA.get<std::string>() : std::string(),
        pathB.is_string() ? pathB.get<std::string>() : std::string()};

    const json& ca = capturesOf(a);
    const json& cb = capturesOf(b);
    // Captures pair by name; a name that repeats pairs by its occurrence.
    std::map<std::string, std::vector<int>> byNameB;
    for (int j = 0; j < static_cast<int>(cb.size()); ++j)
        byNameB[JsonFields::show(JsonFields::member(cb[static_cast<std::size_t>(j)], "name"))].push_back(j);
    std::map<std::string, std::size_t> used;
    std::vector<bool> pairedB(cb.size(), false);
    std::vector<std::pair<int, int>> pairs;
    for (int i = 0; i < static_cast<int>(ca.size()); ++i) {
        const std::string name = JsonFields::show(JsonFields::member(ca[static_cast<std::size_t>(i)], "name"));
        auto it = byNameB.find(name);
        std::size_t& k = used[name];
        if (it != byNameB.end() && k < it->second.size()) {
            pairs.emplace_back(i, it->second[k]);
            pairedB[static_cast<std::size_t>(it->second[k++])] = true;
        } else {
            pairs.emplace_back(i, -1);
        }
    }
    // one capture on each side under different names: still the same call
    if (ca.size() == 1 && cb.size() == 1 && pairs[0].second < 0) {
        pairs[0].second = 0;
        pairedB[0] = true;
    }
    for (int j = 0; j < static_cast<int>(cb.size()); ++j)
        if (!pairedB[static_cast<std::size_t>(j)])
            pairs.emplace_back(-1, j);

    static const json kNone = json::object();
    bool allEquivalent = ca.size() == cb.size();
    for (const auto& [i, j] : pairs) {
        const json& x = i >= 0 ? ca[static_cast<std::size_t>(i)] : kNone;
        const json& y = j >= 0 ? cb[static_cast<std::size_t>(j)] : kNone;
        CaptureComparison c;
        c.name = JsonFields::show(JsonFields::member(j >= 0 ? y : x, "name"));
        c.indexA = i;
        c.indexB = j;
        c.statusA = i >= 0 ? JsonFields::show(JsonFields::member(x, "status")) : "absent";
        c.statusB = j >= 0 ? JsonFields::show(JsonFields::member(y, "status")) : "absent";
        c.graph = GraphDiff::compare(JsonFields::member(x, "graph"), JsonFields::member(y, "graph"), &lines);
        c.code = CodeDiff::compare(x, codeOf(a, i), y, codeOf(b, j), c.graph.nameMap());
        c.cache = cacheDifferences(x, y);
        c.inputs = DiffCauses::inputs(x, y);
        c.options = DiffCauses::options(x, y);
        c.verify = {{"a", verifySummary(x)}, {"b", verifySummary(y)}};
        c.timings = timingsSideBySide(x, y);
        c.profile = ProfileDiff::compare(x, y);
        const bool graphsSame = c.graph.identical()
            || (JsonFields::member(x, "graph").is_null() && JsonFields::member(y, "graph").is_null());
        c.equivalent
            = i >= 0 && j >= 0 && c.statusA == c.statusB && graphsSame && c.code.identical() && c.cache.empty();
        allEquivalent = allEquivalent && c.equivalent;
        d.m_captures.push_back(std::move(c));
    }
    if (ca.empty() && cb.empty())
        allEquivalent = JsonFields::member(a.report, "status") == JsonFields::member(b.report, "status");
    d.m_equivalent = allEquivalent;
    d.m_provenance = DiffCauses::provenance(a.report, b.report);
    DiffCauses::explain(d, a, b);
    return d;
}

json RunDiff::toJson(const RunSide& a, const RunSide& b) const
{
    auto differences = [](const std::vector<Difference>& list) {
        json out = json::array();
        for (const Difference& d : list)
            out.push_back({{"what", d.what}, {"before", d.before}, {"after", d.after}});
        return out;
    };
    json captures = json::array();
    const json& ca = capturesOf(a);
    const json& cb = capturesOf(b);
    static const json kNone = json::object();
    for (const CaptureComparison& c : m_captures) {
        const json& x = c.indexA >= 0 ? ca[static_cast<std::size_t>(c.indexA)] : kNone;
        const json& y = c.indexB >= 0 ? cb[static_cast<std::size_t>(c.indexB)] : kNone;
        captures.push_back(
            {{"name", c.name}, {"equivalent", c.equivalent}, {"status", {{"a", c.statusA}, {"b", c.statusB}}},
                {"graph", c.graph.toJson(JsonFields::member(x, "graph"), JsonFields::member(y, "graph"))},
                {"python_code", c.code.toJson()}, {"cache", differences(c.cache)}, {"inputs", differences(c.inputs)},
                {"options", differences(c.options)}, {"verify", c.verify}, {"timings_s", c.timings},
                {"profile", ProfileDiff::toJson(c.profile)}});
    }
    return {{"equivalent", m_equivalent},
        {"a",
            {{"label", a.label}, {"script", JsonFields::member(a.report, "script")},
                {"status", JsonFields::member(a.report, "status")}}},
        {"b",
            {{"label", b.label}, {"script", JsonFields::member(b.report, "script")},
                {"status", JsonFields::member(b.report, "status")}}},
        {"why", m_why}, {"script", m_scriptChanges}, {"provenance", differences(m_provenance)},
        {"captures", std::move(captures)}};
}

}  // namespace ps::compare
