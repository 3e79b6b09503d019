#include "model/JsonFields.h"

namespace ps::model {

const nlohmann::json& JsonFields::member(const nlohmann::json& object, const char* key)
{
    static const nlohmann::json kNull;
    if (!object.is_object())
        return kNull;
    auto it = object.find(key);
    return it == object.end() ? kNull : *it;
}

std::string JsonFields::text(const nlohmann::json& object, const char* key)
{
    const auto& v = member(object, key);
    return v.is_string() ? v.get<std::string>() : std::string();
}

std::optional<double> JsonFields::number(const nlohmann::json& object, const char* key)
{
    const auto& v = member(object, key);
    return v.is_number() ? std::optional<double>(v.get<double>()) : std::nullopt;
}

std::optional<std::int64_t> JsonFields::integer(const nlohmann::json& object, const char* key)
{
    const auto& v = member(object, key);
    return v.is_number_integer() ? std::optional<std::int64_t>(v.get<std::int64_t>()) : std::nullopt;
}

std::optional<bool> JsonFields::flag(const nlohmann::json& object, const char* key)
{
    const auto& v = member(object, key);
    return v.is_boolean() ? std::optional<bool>(v.get<bool>()) : std::nullopt;
}

std::string JsonFields::show(const nlohmann::json& value)
{
    if (value.is_null())
        return "-";
    return value.is_string() ? value.get<std::string>() : value.dump();
}

}  // namespace ps::model
