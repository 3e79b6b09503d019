#include "protocol/RunRequest.h"

#include "protocol/ProtocolError.h"

namespace ps::protocol {

RunRequest RunRequest::from(const RunOptions& options)
{
    RunRequest r;
    r.script = options.script;
    r.backend = options.backend;
    r.tracer = options.tracer;
    r.verify = options.verify;
    r.deepVerify = options.deepVerify;
    r.profile = options.profile;
    r.coldStart = options.coldStart;
    r.check = options.check;
    r.repro = options.repro;
    r.outDir = options.outDir;
    r.timeoutSeconds = options.timeoutSeconds;
    return r;
}

nlohmann::json RunRequest::toJson() const
{
    nlohmann::json j = {{"type", "run"}, {"script", script},
        {"backend", backend ? nlohmann::json(*backend) : nlohmann::json(nullptr)},
        {"tracer", tracer ? nlohmann::json(*tracer) : nlohmann::json(nullptr)}, {"verify", verify},
        {"deep_verify", deepVerify}, {"profile", profile}, {"cold_start", coldStart}, {"out_dir", outDir},
        {"timeout_s", timeoutSeconds}};
    if (check)
        j["check"] = {{"python_code", check->pythonCode}, {"cache", check->cache}, {"backend", check->backend},
            {"tracer", check->tracer}, {"stamps", check->stamps}, {"uses_gpu", check->usesGpu},
            {"cold_start", check->coldStart}};
    if (repro) {
        const auto text = [](const std::optional<std::string>& v) { return v ? nlohmann::json(*v) : nlohmann::json(); };
        j["repro"] = {{"dir", repro->dir}, {"node", text(repro->node)}, {"capture", text(repro->capture)},
            {"budget", repro->budgetSeconds}};
    }
    return j;
}

namespace {

std::string requestText(const nlohmann::json& j, const char* key, const char* what)
{
    auto it = j.find(key);
    if (it == j.end() || !it->is_string())
        throw ProtocolError(std::string("a run request's '") + what + "." + key + "' must be a string");
    return it->get<std::string>();
}

PairCheck parsePairCheck(const nlohmann::json& j)
{
    if (!j.is_object())
        throw ProtocolError("a run request's 'check' must be an object");
    PairCheck c;
    c.pythonCode = requestText(j, "python_code", "check");
    c.cache = requestText(j, "cache", "check");
    c.backend = requestText(j, "backend", "check");
    c.tracer = requestText(j, "tracer", "check");
    if (auto it = j.find("stamps"); it != j.end() && (it->is_object() || it->is_null()))
        c.stamps = *it;
    if (auto it = j.find("uses_gpu"); it != j.end() && it->is_boolean())
        c.usesGpu = it->get<bool>();
    if (auto it = j.find("cold_start"); it != j.end() && it->is_boolean())
        c.coldStart = it->get<bool>();
    return c;
}

std::optional<std::string> optionalText(const nlohmann::json& j, const char* key)
{
    auto it = j.find(key);
    if (it == j.end() || it->is_null())
        return std::nullopt;
    if (!it->is_string())
        throw ProtocolError(std::string("a run request's 'repro.") + key + "' must be a string or null");
    return it->get<std::string>();
}

ReproRequest parseRepro(const nlohmann::json& j)
{
    if (!j.is_object())
        throw ProtocolError("a run request's 'repro' must be an object");
    ReproRequest r;
    r.dir = requestText(j, "dir", "repro");
    r.node = optionalText(j, "node");
    r.capture = optionalText(j, "capture");
    if (auto it = j.find("budget"); it != j.end() && !it->is_null()) {
        if (!it->is_number() || !(it->get<double>() > 0 && it->get<double>() <= 1e6))
            throw ProtocolError("a run request's 'repro.budget' must be a number of seconds from 0 to 1e6");
        r.budgetSeconds = it->get<double>();
    }
    return r;
}

}  // namespace

RunRequest RunRequest::parse(const nlohmann::json& j)
{
    if (!j.is_object())
        throw ProtocolError("a run request must be a JSON object");
    auto type = j.find("type");
    if (type == j.end() || !type->is_string() || type->get<std::string>() != "run")
        throw ProtocolError("a run request must have \"type\": \"run\"");
    RunRequest r;
    auto script = j.find("script");
    if (script == j.end() || !script->is_string() || script->get<std::string>().empty())
        throw ProtocolError("a run request needs a non-empty string 'script'");
    r.script = script->get<std::string>();
    for (auto [key, field] : {std::pair{"backend", &r.backend}, std::pair{"tracer", &r.tracer}}) {
        auto it = j.find(key);
        if (it == j.end() || it->is_null())
            continue;
        if (!it->is_string())
            throw ProtocolError(std::string("a run request's '") + key + "' must be a string or null");
        *field = it->get<std::string>();
    }
    if (auto it = j.find("verify"); it != j.end()) {
        if (!it->is_boolean())
            throw ProtocolError("a run request's 'verify' must be true or false");
        r.verify = it->get<bool>();
    }
    if (auto it = j.find("deep_verify"); it != j.end()) {
        if (!it->is_boolean())
            throw ProtocolError("a run request's 'deep_verify' must be true or false");
        r.deepVerify = it->get<bool>();
    }
    if (auto it = j.find("profile"); it != j.end()) {
        if (!it->is_boolean())
            throw ProtocolError("a run request's 'profile' must be true or false");
        r.profile = it->get<bool>();
    }
    if (auto it = j.find("cold_start"); it != j.end()) {
        if (!it->is_boolean())
            throw ProtocolError("a run request's 'cold_start' must be true or false");
        r.coldStart = it->get<bool>();
    }
    if (auto it = j.find("check"); it != j.end() && !it->is_null())
        r.check = parsePairCheck(*it);
    if (auto it = j.find("repro"); it != j.end() && !it->is_null())
        r.repro = parseRepro(*it);
    if (auto it = j.find("out_dir"); it != j.end() && !it->is_null()) {
        if (!it->is_string())
            throw ProtocolError("a run request's 'out_dir' must be a string");
        r.outDir = it->get<std::string>();
    }
    if (auto it = j.find("timeout_s"); it != j.end() && !it->is_null()) {
        // At most about 11 days: any larger number (1e400 reads as infinity) would overflow a clock.
        if (!it->is_number() || !(it->get<double>() >= 0 && it->get<double>() <= 1e6))
            throw ProtocolError("a run request's 'timeout_s' must be a number of seconds from 0 to 1e6");
        r.timeoutSeconds = it->get<double>();
    }
    return r;
}

}  // namespace ps::protocol
