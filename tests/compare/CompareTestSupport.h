#pragma once

// Small graphs for the compare tests: a stack of Linear+ReLU layers, node by node, as the
// worker writes them (graph.node_list).

#include <nlohmann/json.hpp>

#include <string>
#include <vector>

namespace ps::comparetest {

struct Layer {
    int width = 8;  ///< out features
    int line = 0;   ///< the script line of its nodes (0: none)
};

/// x -> [t, addmm, relu] per layer -> output; parameters first, as make_fx orders placeholders.
/// With `qualnames`, parameters are as the worker writes them: no module, their qualified name
/// ("model.0.weight") instead.
inline nlohmann::json stack(const std::vector<Layer>& layers, int batch = 3, int in = 4, bool qualnames = false)
{
    using nlohmann::json;
    json nodes = json::array();
    int flat = 0;
    std::vector<std::string> weights;
    std::vector<std::string> biases;
    int prevWidth = in;
    for (std::size_t k = 0; k < layers.size(); ++k) {
        const std::string path = "model." + std::to_string(2 * k);
        weights.push_back("flat_" + std::to_string(++flat));
        nodes.push_back({{"name", weights.back()}, {"op", "placeholder"}, {"target", weights.back()},
            {"kind", "parameter"}, {"shape", {layers[k].width, prevWidth}}, {"dtype", "float32"},
            {"inputs", json::array()}, {"module", {{"path", path}, {"type", "Linear"}}}});
        if (qualnames)
            nodes.back()["module"] = nullptr, nodes.back()["qualname"] = path + ".weight";
        biases.push_back("flat_" + std::to_string(++flat));
        nodes.push_back({{"name", biases.back()}, {"op", "placeholder"}, {"target", biases.back()},
            {"kind", "parameter"}, {"shape", {layers[k].width}}, {"dtype", "float32"}, {"inputs", json::array()},
            {"module", {{"path", path}, {"type", "Linear"}}}});
        if (qualnames)
            nodes.back()["module"] = nullptr, nodes.back()["qualname"] = path + ".bias";
        prevWidth = layers[k].width;
    }
    const std::string x = "flat_" + std::to_string(++flat);
    nodes.push_back({{"name", x}, {"op", "placeholder"}, {"target", x}, {"kind", "input"}, {"shape", {batch, in}},
        {"dtype", "float32"}, {"inputs", json::array()}, {"module", nullptr}});
    std::string prev = x;
    int n = 0;
    for (std::size_t k = 0; k < layers.size(); ++k) {
        const std::string path = "model." + std::to_string(2 * k);
        const std::string relu = "model." + std::to_string(2 * k + 1);
        auto op = [&](const std::string& target, std::vector<std::string> inputs, nlohmann::json shape,
                      const std::string& module, const std::string& type) {
            const std::string name = "n" + std::to_string(n++);
            json node
                = {{"name", name}, {"op", "call_function"}, {"target", target}, {"kind", "compute"}, {"inputs", inputs},
                    {"shape", shape}, {"dtype", "float32"}, {"module", {{"path", module}, {"type", type}}}};
            if (layers[k].line)
                node["source"] = {{"file", "/s.py"}, {"line", layers[k].line}};
            nodes.push_back(node);
            return name;
        };
        const std::string t = op("aten.t.default", {weights[k]}, json::array(), path, "Linear");
        const std::string mm = op("aten.addmm.default", {biases[k], prev, t}, {batch, layers[k].width}, path, "Linear");
        prev = op("aten.relu.default", {mm}, {batch, layers[k].width}, relu, "ReLU");
    }
    nodes.push_back(
        {{"name", "output"}, {"op", "output"}, {"target", "output"}, {"kind", "output"}, {"inputs", {prev}}});
    return {{"nodes", nodes.size()}, {"node_list", nodes}};
}

}  // namespace ps::comparetest
