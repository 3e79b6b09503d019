#pragma once

#include "compare/GraphDiff.h"

#include <nlohmann/json.hpp>

#include <vector>

namespace ps::compare {

/// The added (or removed) nodes of one side as blocks a user reads: runs of consecutive nodes,
/// with the other runs in the same modules joined to them (make_fx lists a layer's parameters
/// and buffers far from its ops: one inserted layer is one block all the same), each named by
/// the deepest module holding it ("model.layer1.2 (BasicBlock)"), or by its modules where they
/// sit side by side in the outermost one ("model.2, model.3 (Linear, ReLU)"), with its commonest
/// ops.
class NodeBlocks {
public:
    /// `graph` is the side's report graph (its modules' types), `nodes` its node_list,
    /// `indices` the added (or removed) nodes, ascending.
    static std::vector<NodeBlock> collect(
        const nlohmann::json& graph, const nlohmann::json& nodes, const std::vector<int>& indices, bool added);
};

}  // namespace ps::compare
