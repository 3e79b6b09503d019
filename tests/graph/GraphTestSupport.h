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
        list.push_back(j);
    }
    return graph::GraphModel::fromJson({{"node_list", list}}, lowering);
}

}  // namespace ps::graphtest
