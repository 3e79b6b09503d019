#include "model/Capture.h"

#include "model/JsonFields.h"

namespace ps::model {

namespace {
using F = JsonFields;
}  // namespace

Capture Capture::fromJson(const nlohmann::json& j)
{
    Capture c;
    c.json = j;
    c.name = F::text(j, "name");
    c.backend = F::text(j, "backend");
    c.tracer = F::text(j, "tracer");
    c.status = captureStatusFromString(F::text(j, "status")).value_or(CaptureStatus::Error);
    if (auto it = j.find("violation"); it != j.end() && it->is_object())
        c.violation = Violation::fromJson(*it);
    if (auto it = j.find("outcome"); it != j.end() && it->is_object()) {
        c.outcome = Violation::fromJson(*it);
        c.outcomeStage = stageFromString(F::text(*it, "where"));
    }
    if (auto it = j.find("artifact"); it != j.end() && it->is_object()) {
        ArtifactInfo a;
        a.pythonCodeSha256 = F::text(*it, "python_code_sha256");
        a.cacheSha256 = F::text(*it, "cache_sha256");
        a.pythonCodeBytes = F::integer(*it, "python_code_bytes").value_or(0);
        a.cacheBytes = F::integer(*it, "cache_bytes").value_or(0);
        c.artifact = a;
    }
    c.warnings = Violation::listFromJson(F::member(j, "warnings"));
    c.verify = Verification::fromJson(JsonFields::member(j, "verify"));
    c.compileProfile = CompileProfile::fromJson(j);
    c.specialisation = Specialisation::fromJson(F::member(j, "specialisation"));
    c.profile = KernelProfile::fromJson(F::member(j, "profile"));
    c.coldStart = ColdStart::fromJson(F::member(j, "cold_start"));
    c.cache = CacheInfo::fromJson(F::member(j, "cache"));
    if (auto it = j.find("timings_s"); it != j.end() && it->is_object())
        for (auto& [k, v] : it->items())
            if (v.is_number())
                c.timings[k] = v.get<double>();
    return c;
}

bool Capture::drifted() const
{
    return status == CaptureStatus::Ok && verify && verify->status == Verification::Status::Drift;
}

nlohmann::json Capture::toJson() const
{
    nlohmann::json j = json.is_object() ? json : nlohmann::json::object();
    j["status"] = std::string(toString(status));
    return j;
}

}  // namespace ps::model
