#pragma once

#include "compare/ScriptLines.h"

#include <map>
#include <nlohmann/json.hpp>
#include <string>
#include <utility>
#include <vector>

namespace ps::compare {

class TextDiff;

/// One field of a matched node that differs: "shape", "dtype", "stride", "device", "module",
/// "source", "inputs".
struct FieldChange {
    std::string field;
    std::string before;
    std::string after;
};

struct NodeChange {
    int a = 0;  ///< index in side a's node_list
    int b = 0;
    std::vector<FieldChange> fields;
};

/// Added (or removed) nodes that go together, named by the module they sit in: a run of
/// consecutive ones, with the other runs in the same modules (a layer's parameters and buffers,
/// which make_fx lists before every op, join its ops).
struct NodeBlock {
    bool added = true;
    int first = 0;  ///< index of its first node in its side's node_list
    int count = 0;  ///< how many nodes (not all consecutive)
    /// The deepest module holding all its nodes ("model.layer1.2", a whole inserted block); where
    /// that is the outermost module, the modules themselves ("model.2, model.3", up to three and
    /// "…"); "" when its nodes are in none. A parameter or buffer is in the module owning it.
    std::string module;
    std::string moduleType;            ///< that module's type ("BasicBlock"), or the listed modules' types
    std::vector<std::string> modules;  ///< every module `module` names, not cut at three
    /// The three commonest ops, getitem and alias last ("addmm x2, relu", "…" when more), then
    /// the placeholders by kind ("; parameter x2").
    std::string ops;
};

/// The semantic difference of two captured graphs (the report's graph.node_list).
///
/// Nodes are matched by what they are, not by their generated names (which shift when anything
/// is inserted before them): phase, op, target and module type, aligned in graph order
/// (SequenceDiff), so an inserted layer reads as one added block. A parameter or buffer is
/// matched through the module owning it (its qualified name), so that resnet34's extra blocks
/// leave resnet18's weights paired with their own, not shifted by position. Modules are aligned
/// in the order they compute, twice: the same path first (among identical layers, the one of the
/// same name), and without the path; the second is kept where it pairs more identical modules
/// (a layer inserted in a stack of identical ones). Matched nodes are compared
/// field by field; a module path that changed consistently for all of its nodes (model.2 became
/// model.3 because a layer was inserted before it) is one rename, not a change of every node;
/// a source line that moved only because the script gained lines above it is not a change.
class GraphDiff {
public:
    /// scriptLines says where each side's script is and maps its lines (nullptr: every line is
    /// compared as it is, with its file).
    static GraphDiff compare(
        const nlohmann::json& graphA, const nlohmann::json& graphB, const ScriptLines* scriptLines = nullptr);

    int nodesA() const { return m_nodesA; }
    int nodesB() const { return m_nodesB; }
    const std::vector<std::pair<int, int>>& matched() const { return m_matched; }
    const std::vector<int>& added() const { return m_added; }
    const std::vector<int>& removed() const { return m_removed; }
    const std::vector<NodeChange>& changed() const { return m_changed; }
    const std::vector<NodeBlock>& blocks() const { return m_blocks; }
    /// Module paths renamed consistently: a path -> b path.
    const std::map<std::string, std::string>& renames() const { return m_renames; }
    /// The renames not implied by their parent's (model.2 -> model.4 says model.2.fc ->
    /// model.4.fc too), by path.
    std::vector<std::pair<std::string, std::string>> outermostRenames() const;
    /// Node names of side a matched to side b's (the kernels' node lists are matched through it).
    const std::map<std::string, std::string>& nameMap() const { return m_nameMap; }
    /// The alignment was the fast approximate one (very different graphs).
    bool approximate() const { return m_approximate; }
    /// Whether either side had no node list to compare.
    bool missing() const { return m_missing; }
    bool identical() const { return !m_missing && m_added.empty() && m_removed.empty() && m_changed.empty(); }

    nlohmann::json toJson(const nlohmann::json& graphA, const nlohmann::json& graphB) const;

private:
    /// From m_matched: each node of a's match in b (`aToB`, sized to a, -1 where none), then
    /// m_removed and m_added.
    void partition(std::vector<int>& aToB);

    int m_nodesA = 0;
    int m_nodesB = 0;
    bool m_approximate = false;
    bool m_missing = false;
    std::vector<std::pair<int, int>> m_matched;
    std::vector<int> m_added;
    std::vector<int> m_removed;
    std::vector<NodeChange> m_changed;
    std::vector<NodeBlock> m_blocks;
    std::map<std::string, std::string> m_renames;
    std::map<std::string, std::string> m_nameMap;
};

}  // namespace ps::compare
