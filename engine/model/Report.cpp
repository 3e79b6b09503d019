#include "model/Report.h"

#include "model/JsonFields.h"

namespace ps::model {

namespace {
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
    r.script = JsonFields::text(j, "script");
    r.message = JsonFields::text(j, "message");
    const std::string status = JsonFields::text(j, "status");
    if (auto s = runStatusFromString(status))
        r.status = *s;
    else
        r.message = "the report's status '" + status + "' is not one the studio knows"
            + (r.message.empty() ? "" : ": " + r.message);
    r.runId = JsonFields::integer(j, "run_id");
    if (auto it = j.find("captures"); it != j.end() && it->is_array())
        for (const auto& c : *it)
            if (c.is_object())
                r.captures.push_back(Capture::fromJson(c));
    r.stored = JsonFields::flag(j, "stored").value_or(false);
    if (auto it = j.find("store_error"); it != j.end() && it->is_string())
        r.storeError = it->get<std::string>();
    if (auto it = j.find("start_failure"); it != j.end() && it->is_string())
        r.startFailure = startFailureFromString(it->get<std::string>());
    // Read typed, and kept as they came among the extra fields (toJson writes them back unchanged).
    r.stamps = Stamps::fromJson(JsonFields::member(j, "stamps"));
    r.check = LoadCheck::fromJson(JsonFields::member(j, "check"));
    r.repro = Repro::fromJson(JsonFields::member(j, "repro"));
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

RunVerdict Report::verdict() const
{
    if (status == RunStatus::Ok && storeError)
        return RunVerdict::NotStored;
    if (status == RunStatus::Ok)
        for (const auto& c : captures)
            if (c.drifted())
                return RunVerdict::NumericsDrift;
    return verdictOf(status);
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
    case RunStatus::ConnectionLost:
        return 2;
    }
    return 2;
}

}  // namespace ps::model
