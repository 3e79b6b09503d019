#pragma once

#include <nlohmann/json.hpp>

#include <string>
#include <string_view>

namespace ps::compare {

/// The fields of a graph.node_list entry that the graph diff reads, without throwing: a missing
/// or mistyped field reads as empty.
class NodeFields {
public:
    /// node[key] when it is a string, else "".
    static const std::string& text(const nlohmann::json& node, const char* key);
    /// node.module.path / .type ("" when the node is in no module).
    static const std::string& modulePath(const nlohmann::json& node);
    static const std::string& moduleType(const nlohmann::json& node);
    /// The module a node belongs to: its module path, or for a parameter or buffer (which the
    /// worker records with no module) the module owning it, from its qualified name
    /// ("model.layer1.0.conv1.weight" -> "model.layer1.0.conv1"); "" when neither.
    static std::string_view owner(const nlohmann::json& node);
    /// The last part of a parameter's qualified name ("weight"); "" when it has none.
    static std::string_view leafName(const nlohmann::json& node);
    /// The name a user knows a node by: a placeholder's qualified name ("model.2.bias", "x"),
    /// else its name ("addmm_1").
    static const std::string& shownName(const nlohmann::json& node);
    /// How many parts a module path has ("model.layer1" -> 2; "" -> 0).
    static int depth(std::string_view path);
    /// The deepest module path both are in ("model.layer1.0.conv1", "model.layer1.1" -> "model.layer1").
    static std::string_view commonAncestor(std::string_view a, std::string_view b);
};

}  // namespace ps::compare
