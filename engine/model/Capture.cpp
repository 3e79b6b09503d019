#include "model/Capture.h"

namespace ps::model {

namespace {
std::string stringOr(const nlohmann::json& j, const char* key)
{
    auto it = j.find(key);
    return it != j.end() && it->is_string() ? it->get<std::string>() : std::string();
}
}  // namespace

Capture Capture::fromJson(const nlohmann::json& j)
{
    Capture c;
    c.json = j;
    c.name = stringOr(j, "name");
    c.backend = stringOr(j, "backend");
    c.tracer = stringOr(j, "tracer");
    c.status = captureStatusFromString(stringOr(j, "status")).value_or(CaptureStatus::Error);
    if (auto it = j.find("violation"); it != j.end() && it->is_object())
        c.violation = Violation::fromJson(*it);
    if (auto it = j.find("outcome"); it != j.end() && it->is_object()) {
        c.outcome = Violation::fromJson(*it);
        c.outcomeWhere = stringOr(*it, "where");
    }
    if (auto it = j.find("artifact"); it != j.end() && it->is_object()) {
        ArtifactInfo a;
        a.pythonCodeSha256 = stringOr(*it, "python_code_sha256");
        a.cacheSha256 = stringOr(*it, "cache_sha256");
        if (auto n = it->find("python_code_bytes"); n != it->end() && n->is_number_integer())
            a.pythonCodeBytes = n->get<std::int64_t>();
        if (auto n = it->find("cache_bytes"); n != it->end() && n->is_number_integer())
            a.cacheBytes = n->get<std::int64_t>();
        c.artifact = a;
    }
    if (auto it = j.find("timings_s"); it != j.end() && it->is_object())
        for (auto& [k, v] : it->items())
            if (v.is_number())
                c.timings[k] = v.get<double>();
    return c;
}

bool Capture::drifted() const
{
    if (status != CaptureStatus::Ok || !json.is_object())
        return false;
    const auto v = json.find("verify");
    if (v == json.end() || !v->is_object())
        return false;
    const auto s = v->find("status");
    return s != v->end() && s->is_string() && s->get<std::string>() == "drift";
}

nlohmann::json Capture::toJson() const
{
    nlohmann::json j = json.is_object() ? json : nlohmann::json::object();
    j["status"] = std::string(toString(status));
    return j;
}

}  // namespace ps::model
