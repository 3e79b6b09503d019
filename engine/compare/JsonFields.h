#pragma once

#include <nlohmann/json.hpp>

#include <string>

namespace ps::compare {

/// Reading the schema-1 report without throwing: a missing field, or a value of another type
/// than an object where one is looked into, reads as null.
class JsonFields {
public:
    /// object[key], or null when object is not an object or has no such key.
    static const nlohmann::json& member(const nlohmann::json& object, const char* key);
    /// A value in words: a string as it is, null as "-", anything else as compact JSON.
    static std::string show(const nlohmann::json& value);
};

}  // namespace ps::compare
