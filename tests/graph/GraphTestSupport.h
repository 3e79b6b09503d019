#pragma once

// Small graphs written out node by node: "name<-a,b@module" style helpers for the graph tests.

#include "graph/GraphModel.h"

#include <nlohmann/json.hpp>

#include <string>
#include <vector>

namespace ps::graphtest {

struct N {
    std::string name;
    std::vector<std::string> inputs = {};
    std::string module = "";  ///< "" : none
    std::string kind = "compute";
    std::string target = "aten.relu.default";
    std::string phase = "";   ///< forward | backward | "" (none recorded)
    std::string gradOf = "";  ///< the output reads this node as the gradient of this parameter
};

inline graph::GraphModel makeGraph(const std::vector<N>& nodes, const nlohmann::json& lowering = nullptr)
{
    nlohmann::json list = nlohmann::json::array();
    for (const auto& n : nodes) {
        nlohmann::json j = {{"name", n.name}, {"inputs", n.inputs}, {"kind", n.kind}, {"target", n.target},
            {"op",
                n.kind == "compute"      ? "call_function"
                    : n.kind == "output" ? "output"
                                         : "placeholder"}};
        if (!n.module.empty())
            j["module"] = {{"path", n.module}, {"type", "T"}};
        if (n.kind == "parameter")
            j["qualname"] = n.target;
        if (!n.phase.empty())
            j["phase"] = n.phase;
        if (!n.gradOf.empty())
            j["output"] = {{{"index", 1}, {"role", "gradient"}, {"param", n.gradOf}}};
        list.push_back(j);
    }
    return graph::GraphModel::fromJson({{"node_list", list}}, lowering);
}

/// A training step of a two-Linear model, as a capture records one: forward in model.0 and
/// model.1 and the loss outside them; backward in the same modules, its seed outside them; each
/// weight's gradient reaches the output through an alias (model.1's through a t() first).
///   0 x, 1 model.0.weight, 2 model.1.weight, 3 a0 (model.0), 4 a1 (model.1), 5 loss,
///   6 seed, 7 g1w (model.1), 8 g1 (model.1), 9 t1 (model.1), 10 al1, 11 g0w (model.0), 12 al0,
///   13 out
inline graph::GraphModel trainingStep()
{
    const std::string mm = "aten.mm.default";
    return makeGraph({
        {"x", {}, "", "input"},
        {"w0", {}, "", "parameter", "model.0.weight"},
        {"w1", {}, "", "parameter", "model.1.weight"},
        {"a0", {"x", "w0"}, "model.0", "compute", mm, "forward"},
        {"a1", {"a0", "w1"}, "model.1", "compute", mm, "forward"},
        {"loss", {"a1"}, "", "compute", "aten.sum.default", "forward"},
        {"seed", {"loss"}, "", "compute", "aten.ones_like.default", "backward"},
        {"g1w", {"seed", "a0"}, "model.1", "compute", mm, "backward"},
        {"g1", {"seed", "w1"}, "model.1", "compute", mm, "backward"},
        {"t1", {"g1w"}, "model.1", "compute", "aten.t.default", "backward"},
        {"al1", {"t1"}, "", "compute", "aten.alias.default", "backward", "model.1.weight"},
        {"g0w", {"g1", "x"}, "model.0", "compute", mm, "backward"},
        {"al0", {"g0w"}, "", "compute", "aten.alias.default", "backward", "model.0.weight"},
        {"out", {"loss", "al1", "al0"}, "", "output"},
    });
}

}  // namespace ps::graphtest
