#pragma once

// The captured graph as plain data: no Qt, no QGraphicsItems. Built from the worker's "graph"
// object (precompile_studio/capture/graph.py) and, for inductor, its "lowering" (which kernel computes
// which node), tolerating absent fields: an older report, a graph that failed to extract, a
// node without meta. Immutable once built, so any thread may read it.

#include "graph/NodeKind.h"
#include "graph/Phase.h"
#include "graph/StackFrame.h"
#include "graph/TensorLayout.h"

#include <nlohmann/json_fwd.hpp>

#include <string>
#include <unordered_map>
#include <vector>

namespace ps::graph {

struct GraphNode {
    std::string name;
    std::string op;      ///< placeholder, call_function, get_attr, output, ...
    std::string target;  ///< "aten.addmm.default"
    NodeKind kind = NodeKind::Other;
    std::string qualname;  ///< placeholders: "model.0.weight", "x"
    /// A user input's dims marked with mark_unbacked, in words: "dim 0 = u0 (shape_id batch,
    /// min 8)"; "" for none (any size of them: one artifact serves all).
    std::string dynamic;
    std::string shape;  ///< "[8, 32]", or "(2 values)" for a tuple-valued node
    std::string dtype;
    std::string stride;
    std::string device;
    std::string modulePath;
    std::string moduleType;
    std::string sourceFile;
    int sourceLine = 0;  ///< 0: unknown
    Phase phase = Phase::None;
    std::string outputRole;  ///< "result", "gradient of model.0.weight", ...
    std::string kernel;      ///< inductor: the generated kernel (or extern call) computing it
    int violation = 0;       ///< the invariant this node breaks (a baked tensor constant: 1); 0 none
    std::string violationRule;
    std::string binding;      ///< a constant's Python binding: "global scale, defined at line 4, used at line 9"
    std::vector<int> inputs;  ///< indices into GraphModel::nodes()
    std::vector<int> users;
    /// The frames that made it, innermost first: indices into GraphModel::frames() (empty: a
    /// placeholder, the output, or a report made before stacks were recorded).
    std::vector<int> stack;
    /// Its tensor values' sizes, strides and dtypes: one for a tensor, one per tensor of a tuple
    /// (entries that are not tensors left out); empty without meta.
    std::vector<TensorLayout> values;

    /// "addmm" for "aten.addmm.default", the target itself otherwise.
    std::string shortTarget() const;
};

class GraphModel {
public:
    /// Never throws: what cannot be read is left out and said in error().
    static GraphModel fromJson(const nlohmann::json& graph);
    /// With the capture's "lowering" (inductor), which names each kernel's nodes.
    static GraphModel fromJson(const nlohmann::json& graph, const nlohmann::json& lowering);

    const std::vector<GraphNode>& nodes() const { return m_nodes; }
    std::size_t edgeCount() const { return m_edges; }
    bool empty() const { return m_nodes.empty(); }
    /// Why there is no graph (the worker's graph.error), or "".
    const std::string& error() const { return m_error; }
    /// False when precompile failed before its capture finished (a partial graph).
    bool complete() const { return m_complete; }

    /// Module path -> type, from the graph's "modules" list and the nodes' own module fields.
    const std::unordered_map<std::string, std::string>& moduleTypes() const { return m_moduleTypes; }

    /// Every frame of the nodes' stacks, each once (the report's graph.frames).
    const std::vector<StackFrame>& frames() const { return m_frames; }
    /// What was wrong with the stacks (a frame index out of range, a frame that is not an
    /// object), said once; "" when they read whole. What could not be read is left out.
    const std::string& stackError() const { return m_stackError; }
    /// The frames of a node's stack, innermost first.
    std::vector<const StackFrame*> stackOf(int node) const;
    /// Where a node comes from, as every view names it: the innermost frame of its stack outside
    /// torch with a known line (a model library's line, resnet.py:268, or the user's); nullptr
    /// when there is none (then the node's own sourceFile:sourceLine, where known).
    const StackFrame* sourceFrame(int node) const;

    int indexOf(const std::string& name) const;
    /// Nodes whose user source line is `line` of `file` (exact path as the worker wrote it).
    std::vector<int> nodesAtLine(const std::string& file, int line) const;

private:
    std::vector<GraphNode> m_nodes;
    std::unordered_map<std::string, int> m_byName;
    std::unordered_map<std::string, std::string> m_moduleTypes;
    std::size_t m_edges = 0;
    std::vector<StackFrame> m_frames;
    std::string m_stackError;
    std::string m_error;
    bool m_complete = true;
};

}  // namespace ps::graph
