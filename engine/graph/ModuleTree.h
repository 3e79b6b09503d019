#pragma once

// The module hierarchy of a captured graph, from its nodes' module paths ("model.layers.3.attn"):
// every prefix of a path is a module of its own, the root (path "") holds what belongs to no
// module (user inputs, the output, nodes without meta). A parameter or buffer placeholder
// belongs to the module its qualified name lives in ("model.0.weight" -> "model.0") when that
// module is in the tree. Immutable once built: any thread may read it.
//
// A training step (a graph with both forward and backward nodes) is split by phase, so that a
// collapsed module keeps the data-flow order instead of merging a layer's forward with its
// backward:
//
//   root                      user inputs, the output, parameters of no known module
//     forward:                the forward group: the forward nodes outside every module (the
//                             loss), and below it the model's modules holding only their
//                             forward nodes and their parameters and buffers
//       model, model.layers.0, ...      addressed by their model path, as in an inference graph
//       forward:[outside]     the forward nodes outside every module, bundled when there are
//                             kOutsideBundleFrom or more (a loss of a few ops), collapsed when a
//                             graph opens: the outline of a step then fits a canvas
//     backward:               the backward group: the backward nodes outside every module
//       backward:model, backward:model.layers.0, ...   the same modules' backward nodes
//       backward:[outside]    the backward nodes outside every module (the loss's backward),
//                             bundled alike
//       backward:[gradients]  the gradient bundle, collapsed when a graph opens: the gradient
//                             outputs that only feed the output and are plumbing (alias, view,
//                             detach, t, getitem, ...) or belong to no module, and the plumbing
//                             that only feeds them. A gradient a module computes itself (an mm
//                             feeding the output directly) stays in that module.
//
// A node computed from a backward node counts as backward whatever its recorded phase (an
// optimizer's update after loss.backward()), so that no edge runs from backward to forward.
// Paths: "forward:" + a model path finds the same module as the model path alone. An inference
// graph (one phase, or none recorded) has no groups: its tree is as described first.

#include "graph/Phase.h"

#include <cstdint>
#include <string>
#include <string_view>
#include <unordered_map>
#include <vector>

namespace ps::graph {

class GraphModel;

struct Module {
    enum class Role : std::uint8_t {
        Model,       ///< an nn.Module of the model (or one phase's copy of it)
        PhaseGroup,  ///< "forward:" or "backward:"
        Gradients,   ///< the gradient bundle
        Outside,     ///< a phase's nodes outside every module of the model (the loss), bundled
    };
    std::string path;           ///< "model.layers.3", "backward:model.layers.3"; "" for the root
    std::string name;           ///< the last component, "3"; "forward", "backward", "gradients"
    std::string type;           ///< "TransformerBlock", or "" when the report does not say
    std::string modelPath;      ///< the nn.Module's path, the same in both phases; "" for the synthetic ones
    Phase phase = Phase::None;  ///< None in an inference graph and for the root
    Role role = Role::Model;
    int parent = -1;
    int depth = 0;              ///< the root is 0
    std::vector<int> children;  ///< module ids, in the order their first computed node appears
    std::vector<int> nodes;     ///< nodes directly in this module, in graph order
    int total = 0;              ///< nodes in this module and all below it
    /// Called again with what it computed before (a ReLU module applied twice in a ResNet
    /// block): a path leaves the module and comes back into it, so one box for it would make a
    /// cycle (the layout would then draw the block's later layers above its first). Such a
    /// module is always shown open (VisibleGraph), its nodes where they compute.
    bool reentrant = false;
};

class ModuleTree {
public:
    static constexpr std::string_view kForwardPrefix = "forward:";
    static constexpr std::string_view kBackwardPrefix = "backward:";
    static constexpr std::string_view kGradientsPath = "backward:[gradients]";
    static constexpr std::string_view kForwardOutsidePath = "forward:[outside]";
    static constexpr std::string_view kBackwardOutsidePath = "backward:[outside]";
    /// A phase's nodes outside every module are bundled when there are at least this many.
    static constexpr int kOutsideBundleFrom = 3;

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
    /// The module of the model with the most nodes (not a phase group or the gradient bundle;
    /// -1 when there is none).
    int largest() const;

    /// True for a training step: the tree is split into a forward and a backward group.
    bool phased() const { return m_backward > 0; }
    /// The group of a phase, or -1 (an inference graph, or Phase::None).
    int phaseGroup(Phase phase) const;
    /// The gradient bundle, or -1 when the graph has none.
    int gradients() const { return m_gradients; }
    /// The same model module in the other phase ("model.0" <-> "backward:model.0"), or -1.
    int twin(int module) const { return m_twin.empty() ? -1 : m_twin[static_cast<std::size_t>(module)]; }
    /// The phase a node counts in: Backward for the backward and what is computed from it,
    /// Forward for the rest of the computation, None for inputs, parameters, buffers, the
    /// output and every node of an inference graph.
    Phase phaseOf(int node) const
    {
        return m_phaseOf.empty() ? Phase::None : m_phaseOf[static_cast<std::size_t>(node)];
    }

    /// What a module's path alone says (for a box that has no tree at hand): its phase
    /// (Backward for "backward:...", Forward for "forward:", None for a bare model path), its
    /// role, its model path and its name.
    struct PathInfo {
        Phase phase = Phase::None;
        Module::Role role = Module::Role::Model;
        std::string modelPath;
        std::string name;
    };
    static PathInfo describe(const std::string& path);

private:
    int intern(const std::string& modelPath, Phase phase, const std::unordered_map<std::string, std::string>& types);
    int addModule(Module m);
    /// A module that is not the model's: a phase group or the gradient bundle.
    int addGroup(std::string_view path, const char* name, Phase phase, Module::Role role, int parent);
    /// Marks the model's modules that a path leaves and re-enters (Module::reentrant).
    void markReentrant(const GraphModel& graph);

    std::vector<Module> m_modules;
    std::vector<int> m_moduleOf;
    std::vector<Phase> m_phaseOf;  ///< empty for an inference graph
    std::vector<int> m_twin;       ///< empty for an inference graph
    std::unordered_map<std::string, int> m_byPath;
    int m_forward = -1;
    int m_backward = -1;
    int m_gradients = -1;
};

}  // namespace ps::graph
