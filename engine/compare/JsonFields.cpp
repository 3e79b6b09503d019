#include "compare/JsonFields.h"

namespace ps::compare {

const nlohmann::json& JsonFields::member(const nlohmann::json& object, const char* key)
{
    static const nlohmann::json kNull;
    if (!object.is_object())
        return kNull;
    auto it = object.find(key);
    return it == object.end() ? kNull : *it;
}

std::string JsonFields::show(const nlohmann::json& value)
{
    if (value.is_null())
        return "-";
    return value.is_string() ? value.get<std::string>() : value.dump();
}

}  // namespace ps::compare
