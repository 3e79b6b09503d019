#include "protocol/WorkerMessage.h"

#include "protocol/ProtocolError.h"

namespace ps::protocol {

namespace {

std::string shortDump(const nlohmann::json& j)
{
    std::string text = j.dump(-1, ' ', true, nlohmann::json::error_handler_t::replace);
    if (text.size() > 80)
        text = text.substr(0, 77) + "...";
    return text;
}

const nlohmann::json* member(const nlohmann::json& j, const char* key)
{
    auto it = j.find(key);
    return it == j.end() ? nullptr : &*it;
}

std::string requiredString(const nlohmann::json& j, const char* type, const char* key)
{
    const auto* v = member(j, key);
    if (!v || !v->is_string())
        throw ProtocolError(std::string("the worker's '") + type + "' message has no string '" + key + "'");
    return v->get<std::string>();
}

std::string optionalString(const nlohmann::json& j, const char* type, const char* key)
{
    const auto* v = member(j, key);
    if (!v || v->is_null())
        return {};
    if (!v->is_string())
        throw ProtocolError(
            std::string("the worker's '") + type + "' message has a '" + key + "' that is not a string");
    return v->get<std::string>();
}

}  // namespace

WorkerMessage WorkerMessage::parse(const nlohmann::json& j)
{
    if (!j.is_object())
        throw ProtocolError("the worker sent a message that is not a JSON object: " + shortDump(j));
    const auto* type = member(j, "type");
    if (!type || !type->is_string())
        throw ProtocolError("the worker sent a message without a string 'type': " + shortDump(j));
    const std::string t = type->get<std::string>();
    if (t == "hello") {
        HelloMessage m;
        m.python = requiredString(j, "hello", "python");
        m.torch = requiredString(j, "hello", "torch");
        m.libtorch = optionalString(j, "hello", "libtorch");
        const auto* pid = member(j, "pid");
        if (!pid || !pid->is_number_integer())
            throw ProtocolError("the worker's 'hello' message has no integer 'pid'");
        m.pid = pid->get<int>();
        m.json = j;
        return WorkerMessage(std::move(m));
    }
    if (t == "stage") {
        StageMessage m;
        const std::string word = requiredString(j, "stage", "stage");
        const auto stage = model::stageFromString(word);
        if (!stage || !model::isWorkerStage(*stage))
            throw ProtocolError("the worker announced an unknown stage '" + word.substr(0, 40) + "'");
        m.stage = *stage;
        m.capture = optionalString(j, "stage", "capture");
        m.detail = optionalString(j, "stage", "detail");
        return WorkerMessage(std::move(m));
    }
    if (t == "result") {
        const auto* report = member(j, "report");
        if (!report || !report->is_object())
            throw ProtocolError("the worker's 'result' message holds no report object");
        const auto* status = member(*report, "status");
        // Only the front end may say timeout, worker_died, cancelled or protocol_error.
        const auto known
            = status && status->is_string() ? model::runStatusFromString(status->get<std::string>()) : std::nullopt;
        if (!known || !model::ranToTheEnd(*known))
            throw ProtocolError(
                "the worker's report has no known 'status': " + (status ? shortDump(*status) : std::string("none")));
        const auto* captures = member(*report, "captures");
        if (!captures || !captures->is_array())
            throw ProtocolError("the worker's report has no 'captures' list");
        for (const auto& c : *captures)
            if (!c.is_object() || !c.contains("status") || !c["status"].is_string()
                || !model::captureStatusFromString(c["status"].get<std::string>()))
                throw ProtocolError("the worker's report holds a capture without a known 'status'");
        return WorkerMessage(ResultMessage{model::Report::fromJson(*report)});
    }
    if (t == "fatal") {
        FatalMessage m;
        m.message = requiredString(j, "fatal", "message");
        m.traceback = optionalString(j, "fatal", "traceback");
        m.environment = optionalString(j, "fatal", "cause") == "environment";
        return WorkerMessage(std::move(m));
    }
    throw ProtocolError("the worker sent a message of unknown type '" + t.substr(0, 40) + "'");
}

const char* WorkerMessage::type() const
{
    switch (m_body.index()) {
    case 0:
        return "hello";
    case 1:
        return "stage";
    case 2:
        return "result";
    default:
        return "fatal";
    }
}

}  // namespace ps::protocol
