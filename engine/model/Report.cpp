#include "model/Report.h"

namespace ps::model {

namespace {
std::string stringOr(const nlohmann::json& j, const char* key)
{
    auto it = j.find(key);
    return it != j.end() && it->is_string() ? it->get<std::string>() : std::string();
}

bool isTypedField(const std::string& key)
{
    for (const char* k :
        {"schema", "script", "status", "message", "run_id", "captures", "stored", "store_error", "start_failure"})
        if (key == k)
            return true;
    return false;
}
}  // namespace

Report Report::fromJson(const nlohmann::json& j)
{
    Report r;
    if (!j.is_object()) {
        r.message = "the report is not a JSON object";
        return r;
    }
    r.script = stringOr(j, "script");
    r.message = stringOr(j, "message");
    const std::string status = stringOr(j, "status");
    if (auto s = runStatusFromString(status))
        r.status = *s;
    else
        r.message = "the report's status '" + status + "' is not one the studio knows"
            + (r.message.empty() ? "" : ": " + r.message);
    if (auto it = j.find("run_id"); it != j.end() && it->is_number_integer())
        r.runId = it->get<std::int64_t>();
    if (auto it = j.find("captures"); it != j.end() && it->is_array())
        for (const auto& c : *it)
            if (c.is_object())
                r.captures.push_back(Capture::fromJson(c));
    if (auto it = j.find("stored"); it != j.end() && it->is_boolean())
        r.stored = it->get<bool>();
    if (auto it = j.find("store_error"); it != j.end() && it->is_string())
        r.storeError = it->get<std::string>();
    if (auto it = j.find("start_failure"); it != j.end() && it->is_string())
        r.startFailure = startFailureFromString(it->get<std::string>());
    for (auto& [k, v] : j.items())
        if (!isTypedField(k))
            r.m_extra[k] = v;
    return r;
}

Report Report::failed(std::string script, RunStatus status, std::string message)
{
    Report r;
    r.script = std::move(script);
    r.status = status;
    r.message = std::move(message);
    return r;
}

nlohmann::json Report::toJson() const
{
    nlohmann::json j = m_extra;
    j["schema"] = kSchema;
    j["script"] = script;
    j["status"] = std::string(toString(status));
    j["message"] = message;
    j["run_id"] = runId ? nlohmann::json(*runId) : nlohmann::json(nullptr);
    j["stored"] = stored;
    j["store_error"] = storeError ? nlohmann::json(*storeError) : nlohmann::json(nullptr);
    if (startFailure)
        j["start_failure"] = std::string(toString(*startFailure));
    j["captures"] = nlohmann::json::array();
    for (const auto& c : captures)
        j["captures"].push_back(c.toJson());
    return j;
}

std::string Report::verdict() const
{
    if (status == RunStatus::Ok && storeError)
        return "not stored";
    if (status == RunStatus::Ok)
        for (const auto& c : captures)
            if (c.drifted())
                return "numerics drift";
    return std::string(toString(status));
}

int Report::exitCode() const
{
    switch (status) {
    case RunStatus::Ok:
        return storeError ? 3 : 0;
    case RunStatus::Mismatch:
    case RunStatus::Violation:
        return 1;
    case RunStatus::Error:
        return captures.empty() ? 2 : 1;
    case RunStatus::Timeout:
    case RunStatus::WorkerDied:
    case RunStatus::Cancelled:
    case RunStatus::ProtocolError:
        return 2;
    }
    return 2;
}

}  // namespace ps::model
