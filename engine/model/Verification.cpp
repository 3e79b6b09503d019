#include "model/Verification.h"

#include "model/JsonFields.h"

#include <nlohmann/json.hpp>

#include <algorithm>

namespace ps::model {

namespace {
using F = JsonFields;
using Group = Verification::Group;

constexpr Group kGroups[] = {Group::Outputs, Group::Grads, Group::Buffers, Group::Parameters, Group::Inputs};

std::optional<Verification::Status> verificationStatus(const std::string& text)
{
    using S = Verification::Status;
    for (auto s : {S::Ok, S::Mismatch, S::Violation, S::Error, S::Skipped, S::Drift})
        if (toString(s) == text)
            return s;
    return std::nullopt;
}

std::optional<Group> groupFromString(const std::string& text)
{
    for (auto g : kGroups)
        if (toString(g) == text)
            return g;
    return std::nullopt;
}

std::optional<Violation> violationAt(const nlohmann::json& j, const char* key)
{
    const auto& v = F::member(j, key);
    return v.is_object() ? std::optional<Violation>(Violation::fromJson(v)) : std::nullopt;
}

/// A two-element array (eager's, the artifact's) in words.
std::optional<std::pair<std::string, std::string>> pairAt(const nlohmann::json& j, const char* key)
{
    const auto& v = F::member(j, key);
    if (!v.is_array() || v.size() != 2)
        return std::nullopt;
    return std::make_pair(F::show(v[0]), F::show(v[1]));
}

void readCompared(const nlohmann::json& list, Group group, std::vector<Verification::Comparison>& out)
{
    if (!list.is_array())
        return;
    for (const auto& e : list) {
        if (!e.is_object())
            continue;
        const auto& r = F::member(e, "result");
        Verification::Comparison c;
        c.group = group;
        c.name = F::text(e, "name");
        c.ok = F::flag(r, "ok").value_or(false);
        c.maxAbsDiff = F::number(r, "max_abs_diff");
        c.rmsRelDiff = F::number(r, "rms_rel_diff");
        c.mismatched = F::integer(r, "mismatched");
        c.sizes = pairAt(r, "sizes");
        c.strides = pairAt(r, "strides");
        c.dtypes = pairAt(r, "dtypes");
        c.values = pairAt(r, "values");
        c.note = F::text(r, "note");
        out.push_back(std::move(c));
    }
}

/// runtime: the judge of the runtime_inputs call, whose values are its outputs.
std::optional<Verification::Accuracy> readAccuracy(const nlohmann::json& j, bool runtime)
{
    const auto& a = F::member(j, "accuracy");
    if (!a.is_object())
        return std::nullopt;
    Verification::Accuracy out;
    out.verdict = judgementFromString(F::text(a, "verdict")).value_or(Judgement::None);
    out.againstFloat64 = F::text(a, "reference") == "float64";
    out.artifactError = F::number(a, "artifact_error");
    out.eagerError = F::number(a, "eager_error");
    out.ratio = F::number(a, "ratio");
    if (const auto& worst = F::member(a, "worst"); worst.is_array())
        for (const auto& w : worst)
            out.worst.push_back(F::show(w));
    if (const auto& ts = F::member(a, "tensors"); ts.is_array())
        for (const auto& t : ts) {
            if (!t.is_object())
                continue;
            const std::string kind = F::text(t, "kind");
            std::optional<Group> group
                = runtime ? (kind == "outputs" ? std::optional(Group::Runtime) : std::nullopt) : groupFromString(kind);
            if (!group)
                continue;
            out.values.push_back(
                {*group, F::text(t, "name"), judgementFromString(F::text(t, "verdict")).value_or(Judgement::None),
                    F::number(t, "artifact_error"), F::number(t, "eager_error")});
        }
    out.nodes = NodeAccuracy::listFromJson(F::member(a, "nodes"));
    if (const auto& starts = F::member(a, "drift_starts"); starts.is_array())
        for (const auto& s : starts)
            if (s.is_string() && !s.get_ref<const std::string&>().empty())
                out.driftStarts.push_back(s.get<std::string>());
    if (const auto& via = F::member(a, "drift_starts_via"); via.is_object())
        for (const auto& [node, elements] : via.items())
            if (elements.is_array())
                for (const auto& e : elements)
                    if (e.is_string())
                        out.driftStartsVia[node].push_back(e.get<std::string>());
    out.localise = DriftLocalisation::fromJson(F::member(a, "localise"));
    return out;
}

std::optional<Verification::Runtime> readRuntime(const nlohmann::json& j)
{
    const auto& rt = F::member(j, "runtime");
    if (!rt.is_object())
        return std::nullopt;
    Verification::Runtime out;
    out.status = verificationStatus(F::text(rt, "status")).value_or(Verification::Status::Error);
    out.violation = violationAt(rt, "violation");
    out.error = violationAt(rt, "error");
    out.matchesEager = F::flag(rt, "matches_eager");
    out.accuracy = readAccuracy(rt, true);
    readCompared(F::member(rt, "outputs"), Group::Runtime, out.outputs);
    return out;
}

std::optional<Verification::Trials> readTrials(const nlohmann::json& j, const char* key)
{
    const auto& p = F::member(j, key);
    if (!p.is_object())
        return std::nullopt;
    using T = Verification::Trial;
    Verification::Trials v;
    v.ran = F::flag(p, "ran").value_or(false);
    v.reason = F::text(p, "reason");
    if (const auto& trials = F::member(p, "trials"); trials.is_array())
        for (const auto& t : trials) {
            if (!t.is_object())
                continue;
            T trial{F::text(t, "kind"), T::Status::Skipped, F::text(t, "note"), F::text(t, "sizes")};
            for (auto s :
                {T::Status::Ok, T::Status::Drift, T::Status::Diverged, T::Status::Accepted, T::Status::Skipped})
                if (toString(s) == F::text(t, "status"))
                    trial.status = s;
            v.trials.push_back(std::move(trial));
        }
    return v;
}
}  // namespace

std::optional<Verification> Verification::fromJson(const nlohmann::json& j)
{
    if (!j.is_object())
        return std::nullopt;
    Verification v;
    v.ran = F::flag(j, "ran").value_or(true);
    v.status = verificationStatus(F::text(j, "status")).value_or(Status::Error);
    v.reason = F::text(j, "reason");
    v.matchesEager = F::flag(j, "matches_eager");
    v.withinTolerance = F::flag(j, "within_tolerance");
    v.maxAbsDiff = F::number(j, "max_abs_diff");
    v.maxRelDiff = F::number(j, "max_rel_diff");
    v.calls = F::integer(j, "calls");
    for (auto g : kGroups)
        readCompared(F::member(j, std::string(toString(g)).c_str()), g, v.compared);
    v.loadViolation = violationAt(j, "load_violation");
    v.callViolation = violationAt(j, "call_violation");
    v.error = violationAt(j, "error");
    v.runtime = readRuntime(j);
    v.accuracy = readAccuracy(j, false);
    v.perturbed = readTrials(j, "perturbed");
    v.resized = readTrials(j, "resized");
    if (const auto& skipped = F::member(F::member(j, "budget"), "skipped"); skipped.is_array())
        for (const auto& s : skipped)
            v.skipped.push_back(F::show(s));
    v.budgetHow = F::text(F::member(j, "budget"), "how");
    v.loadNoCacheSkipped = F::flag(F::member(j, "load_no_cache"), "ran") == std::optional<bool>(false);
    return v;
}

std::optional<Judgement> Verification::verdict() const
{
    if (accuracy)
        return accuracy->verdict;
    if (status == Status::Ok)
        return Judgement::Matches;
    return std::nullopt;
}

const Verification::JudgedValue* Verification::judgedValue(Group g, const std::string& name) const
{
    const Accuracy* a = g == Group::Runtime ? (runtime && runtime->accuracy ? &*runtime->accuracy : nullptr)
                                            : (accuracy ? &*accuracy : nullptr);
    if (!a)
        return nullptr;
    for (const auto& value : a->values)
        if (value.group == g && value.name == name)
            return &value;
    return nullptr;
}

std::optional<Judgement> Verification::judged(Group g, const std::string& name) const
{
    const JudgedValue* value = judgedValue(g, name);
    return value ? std::optional<Judgement>(value->verdict) : std::nullopt;
}

std::vector<const Verification::Comparison*> Verification::group(Group g) const
{
    std::vector<const Comparison*> out;
    const auto& list = g == Group::Runtime && runtime ? runtime->outputs : compared;
    for (const auto& c : list)
        if (c.group == g)
            out.push_back(&c);
    return out;
}

std::optional<Judgement> Verification::groupVerdict(Group g) const
{
    const auto values = group(g);
    if (values.empty())
        return std::nullopt;
    bool drift = false;
    for (const Comparison* c : values) {
        if (c->ok)
            continue;
        const auto verdict = judged(g, c->name);
        if (verdict == Judgement::Matches)
            continue;
        if (verdict == Judgement::Drift) {
            drift = true;
            continue;
        }
        return Judgement::Wrong;
    }
    return drift ? Judgement::Drift : Judgement::Matches;
}

std::string_view toString(Verification::Status status)
{
    using S = Verification::Status;
    switch (status) {
    case S::Ok:
        return "ok";
    case S::Mismatch:
        return "mismatch";
    case S::Violation:
        return "violation";
    case S::Error:
        return "error";
    case S::Skipped:
        return "skipped";
    case S::Drift:
        return "drift";
    }
    return "error";
}

std::vector<std::string> Verification::skippedChecks() const
{
    std::vector<std::string> out = skipped;
    if (loadNoCacheSkipped)
        out.emplace_back("load without cache");
    return out;
}

std::string Verification::everyCheckHow() const
{
    return budgetHow.empty() ? std::string("run with --deep-verify for every check") : budgetHow;
}

std::string_view toString(Verification::Trial::Status status)
{
    using S = Verification::Trial::Status;
    switch (status) {
    case S::Ok:
        return "ok";
    case S::Drift:
        return "drift";
    case S::Diverged:
        return "diverged";
    case S::Accepted:
        return "accepted";
    case S::Skipped:
        return "skipped";
    }
    return "skipped";
}

bool Verification::Trials::diverged() const
{
    using S = Trial::Status;
    return std::ranges::any_of(
        trials, [](const Trial& t) { return t.status == S::Diverged || t.status == S::Accepted; });
}

std::string_view toString(Verification::Group group)
{
    switch (group) {
    case Group::Outputs:
        return "outputs";
    case Group::Grads:
        return "grads";
    case Group::Buffers:
        return "buffers";
    case Group::Parameters:
        return "parameters";
    case Group::Inputs:
        return "inputs";
    case Group::Runtime:
        return "runtime";
    }
    return "outputs";
}

}  // namespace ps::model
