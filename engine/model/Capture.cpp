#include "model/Capture.h"

namespace ps::model {

Capture Capture::fromJson(const nlohmann::json& j)
{
    Capture c;
    c.json = j;
    c.name = j.value("name", "");
    c.backend = j.value("backend", "");
    c.tracer = j.value("tracer", "");
    c.status = j.value("status", "");
    if (auto it = j.find("violation"); it != j.end() && it->is_object())
        c.violation = Violation::fromJson(*it);
    if (auto it = j.find("artifact"); it != j.end() && it->is_object()) {
        ArtifactInfo a;
        a.pythonCodeSha256 = it->value("python_code_sha256", "");
        a.pythonCodeBytes = it->value("python_code_bytes", std::int64_t{0});
        a.cacheSha256 = it->value("cache_sha256", "");
        a.cacheBytes = it->value("cache_bytes", std::int64_t{0});
        c.artifact = a;
    }
    if (auto it = j.find("timings_s"); it != j.end() && it->is_object())
        for (auto& [k, v] : it->items())
            if (v.is_number())
                c.timings[k] = v.get<double>();
    return c;
}

} // namespace ps::model
