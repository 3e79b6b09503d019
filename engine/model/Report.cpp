#include "model/Report.h"

namespace ps::model {

Report Report::fromJson(const nlohmann::json& j)
{
    Report r;
    r.script = j.value("script", "");
    r.status = j.value("status", "");
    r.message = j.value("message", "");
    if (auto it = j.find("run_id"); it != j.end() && it->is_number_integer())
        r.runId = it->get<std::int64_t>();
    if (auto it = j.find("captures"); it != j.end() && it->is_array())
        for (const auto& c : *it)
            r.captures.push_back(Capture::fromJson(c));
    for (auto& [k, v] : j.items())
        if (k != "schema" && k != "script" && k != "status" && k != "message" && k != "run_id"
            && k != "captures")
            r.m_extra[k] = v;
    return r;
}

Report Report::failed(std::string script, std::string status, std::string message)
{
    Report r;
    r.script = std::move(script);
    r.status = std::move(status);
    r.message = std::move(message);
    return r;
}

nlohmann::json Report::toJson() const
{
    nlohmann::json j = m_extra;
    j["schema"] = kSchema;
    j["script"] = script;
    j["status"] = status;
    j["message"] = message;
    j["run_id"] = runId ? nlohmann::json(*runId) : nlohmann::json(nullptr);
    j["captures"] = nlohmann::json::array();
    for (const auto& c : captures)
        j["captures"].push_back(c.json);
    return j;
}

int Report::exitCode() const
{
    if (status == "ok")
        return 0;
    if ((status == "violation" || status == "error") && !captures.empty())
        return 1;
    return 2;
}

} // namespace ps::model
