#pragma once

// A run's graphs in Model Explorer's graph JSON (ai-edge-model-explorer: `model-explorer FILE`),
// and the studio's lenses as its node data files (`--node_data_paths=...`). Format: the
// adapter dataclasses of model_explorer/graph_builder.py (GraphCollection {label, graphs}) and
// node_data_builder.py (ModelNodeData: {graph id: GraphNodeData}); docs/research/share.md §D.
//
// Per capture one graph, two for a training step: "NAME forward" and "NAME backward", split as
// the Graph tab splits them (graph::ModuleTree's phases). A node's namespace is its module path
// with "/" ("model/layer1/0/conv1"); the gradient bundle and a phase's nodes outside every module
// are "[gradients]" and "[outside]" as in the window. Inputs, parameters and buffers appear in
// every graph that uses them; the output in the last phase it reads; a forward value the backward
// reads (a saved activation) appears in the backward graph too, in the namespace
// "[saved from forward]", so that every edge of the capture is an incoming edge of exactly one
// graph.

#include <nlohmann/json.hpp>

#include <string>
#include <vector>

namespace ps::model {
struct Capture;
}

namespace ps::share {

class ModelExplorerGraph {
public:
    /// One lens's node data for every graph that has values: a ModelNodeData object.
    struct NodeData {
        std::string lens;  ///< "time", "error", "memory"
        nlohmann::json data = nlohmann::json::object();
    };

    explicit ModelExplorerGraph(std::string label);

    /// Adds a capture's graph under `name` (unique in the collection: the caller's choice).
    /// Returns the ids of the graphs added; none when the capture has no graph.
    std::vector<std::string> add(const model::Capture& capture, const std::string& name);

    /// The GraphCollection: {label, graphs}.
    nlohmann::json collection() const;
    /// The lenses measured on any graph added, time, error, memory in that order.
    std::vector<NodeData> nodeData() const;

    /// "model.layer1.0" -> "model/layer1/0" (a "/" inside a name becomes U+2215).
    static std::string namespaceOf(const std::string& modulePath);

private:
    std::string m_label;
    nlohmann::json m_graphs = nlohmann::json::array();
    std::vector<NodeData> m_nodeData;  ///< one per graph::MeasuredLens::Measure, in its order
};

}  // namespace ps::share
