#pragma once

#include <nlohmann/json.hpp>

#include <cstdint>
#include <optional>
#include <string>

namespace ps::model {

/// The one way the front end reads a field of the schema-1 report (or any JSON it did not
/// write) without throwing: a missing field, or a value of another type than asked for, reads
/// as absent. Used by the typed model's fromJson() functions and by the compare and display code
/// that shows fields the model does not name.
class JsonFields {
public:
    /// object[key], or null when object is not an object or has no such key.
    static const nlohmann::json& member(const nlohmann::json& object, const char* key);
    /// object[key] when it is a string, else "".
    static std::string text(const nlohmann::json& object, const char* key);
    /// object[key] when it is a number (integers included), else nullopt.
    static std::optional<double> number(const nlohmann::json& object, const char* key);
    /// object[key] when it is an integer, else nullopt.
    static std::optional<std::int64_t> integer(const nlohmann::json& object, const char* key);
    /// object[key] when it is a boolean, else nullopt.
    static std::optional<bool> flag(const nlohmann::json& object, const char* key);
    /// A value in words: a string as it is, null as "-", anything else as compact JSON.
    static std::string show(const nlohmann::json& value);
};

}  // namespace ps::model
