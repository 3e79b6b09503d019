#pragma once

// The module hierarchy of a captured graph, from its nodes' module paths ("model.layers.3.attn"):
// every prefix of a path is a module of its own, the root (path "") holds what belongs to no
// module (user inputs, the output, nodes without meta). A parameter or buffer placeholder
// belongs to the module its qualified name lives in ("model.0.weight" -> "model.0") when that
// module is in the tree. Immutable once built: any thread may read it.

#include <string>
#include <unordered_map>
#include <vector>

namespace ps::graph {

class GraphModel;

struct Module {
    std::string path;  ///< "model.layers.3"; "" for the root
    std::string name;  ///< the last component, "3"
    std::string type;  ///< "TransformerBlock", or "" when the report does not say
    int parent = -1;
    int depth = 0;              ///< the root is 0
    std::vector<int> children;  ///< module ids, in the order their first node appears
    std::vector<int> nodes;     ///< nodes directly in this module, in graph order
    int total = 0;              ///< nodes in this module and all below it
};

class ModuleTree {
public:
    static ModuleTree build(const GraphModel& graph);

    const std::vector<Module>& modules() const { return m_modules; }
    const Module& module(int id) const { return m_modules[static_cast<std::size_t>(id)]; }
    static constexpr int root() { return 0; }
    /// The deepest module node `node` belongs to.
    int moduleOf(int node) const { return m_moduleOf[static_cast<std::size_t>(node)]; }
    /// -1 when no module has this path.
    int find(const std::string& path) const;
    bool contains(int ancestor, int module) const;
    /// The modules from the root's child down to `module` itself (empty for the root).
    std::vector<int> chain(int module) const;
    /// Every node in the module and below it, in graph order.
    std::vector<int> nodesIn(int module) const;
    /// The module below the root with the most nodes (-1 when the root has no children).
    int largest() const;

private:
    int intern(const std::string& path, const std::unordered_map<std::string, std::string>& types);

    std::vector<Module> m_modules;
    std::vector<int> m_moduleOf;
    std::unordered_map<std::string, int> m_byPath;
};

}  // namespace ps::graph
