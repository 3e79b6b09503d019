#include "SyntheticGraph.h"

#include <string>
#include <unordered_map>
#include <vector>

namespace ps::graphtest {

namespace {

struct Builder {
    nlohmann::json list = nlohmann::json::array();
    nlohmann::json modules = nlohmann::json::array();
    int counter = 0;
    int line = 1;
    std::unordered_map<std::string, std::size_t> at;

    std::string add(const std::string& op, const std::string& target, const std::vector<std::string>& inputs,
        const std::string& module, const std::string& type, const std::string& phase,
        const std::string& dtype = "float32", std::vector<int> shape = {64, 512})
    {
        const std::string name = (op == "placeholder" ? "p_" : "n_") + std::to_string(counter++);
        nlohmann::json n;
        n["name"] = name;
        n["op"] = op;
        n["target"] = target;
        n["inputs"] = inputs;
        n["shape"] = shape;
        std::vector<int> stride(shape.size(), 1);
        for (std::size_t i = shape.size(); i-- > 1;)
            stride[i - 1] = stride[i] * shape[i];
        n["stride"] = stride;
        n["dtype"] = dtype;
        n["device"] = "cpu";
        if (op == "placeholder") {
            n["kind"] = "parameter";
            n["qualname"] = module + "." + target;
            n["module"] = nullptr;
            n["source"] = nullptr;
        } else {
            n["kind"] = "compute";
            n["module"] = {{"path", module}, {"type", type}};
            n["source"] = {{"file", "model.py"}, {"line", 1 + (line++ % 120)}};
            n["phase"] = phase;
        }
        at[name] = list.size();
        list.push_back(n);
        return name;
    }
};

}  // namespace

nlohmann::json transformerGraph(int target, int stages)
{
    Builder b;
    // One block below adds 47 forward nodes (parameters included) and 28 backward ones; the
    // input, the loss, its seed gradient and the output are the 4 more.
    const int perBlock = 75;
    const int blocks = std::max(1, (target - 4 + perBlock - 1) / perBlock);
    const int blocksPerStage = (blocks + stages - 1) / stages;
    nlohmann::json x = {{"name", "x"}, {"op", "placeholder"}, {"target", "x"}, {"kind", "input"}, {"qualname", "x"},
        {"inputs", nlohmann::json::array()}, {"shape", {64, 512}}, {"stride", {512, 1}}, {"dtype", "float32"},
        {"device", "cpu"}, {"module", nullptr}, {"source", nullptr}};
    b.list.push_back(x);
    std::string h = "x";
    std::vector<std::pair<std::string, std::string>> grads;  // (param qualname, grad node)
    struct Saved {
        std::string module, type, in, out;
        std::vector<std::string> params;
    };
    std::vector<Saved> tape;
    auto linear = [&](const std::string& m, const std::string& in) {
        const std::string w = b.add("placeholder", "weight", {}, m, "Linear", "");
        const std::string bias = b.add("placeholder", "bias", {}, m, "Linear", "");
        const std::string t = b.add("call_function", "aten.t.default", {w}, m, "Linear", "forward");
        const std::string out = b.add("call_function", "aten.addmm.default", {bias, in, t}, m, "Linear", "forward");
        tape.push_back({m, "Linear", in, out, {w, bias}});
        return out;
    };
    auto norm = [&](const std::string& m, const std::string& in) {
        const std::string w = b.add("placeholder", "weight", {}, m, "LayerNorm", "");
        const std::string bias = b.add("placeholder", "bias", {}, m, "LayerNorm", "");
        const std::string ln
            = b.add("call_function", "aten.native_layer_norm.default", {in, w, bias}, m, "LayerNorm", "forward");
        const std::string g0 = b.add("call_function", "getitem", {ln}, m, "LayerNorm", "forward");
        b.add("call_function", "getitem", {ln}, m, "LayerNorm", "forward");
        b.add("call_function", "getitem", {ln}, m, "LayerNorm", "forward");
        tape.push_back({m, "LayerNorm", in, g0, {w, bias}});
        return g0;
    };
    for (int s = 0; s < stages; ++s) {
        for (int k = 0; k < blocksPerStage; ++k) {
            const std::string blk = "model.stages." + std::to_string(s) + ".blocks." + std::to_string(k);
            const std::string n1 = norm(blk + ".norm1", h);
            const std::string q = linear(blk + ".attn.q_proj", n1);
            const std::string kk = linear(blk + ".attn.k_proj", n1);
            const std::string v = linear(blk + ".attn.v_proj", n1);
            const std::string a = blk + ".attn";
            const std::string qv = b.add("call_function", "aten.view.default", {q}, a, "Attention", "forward");
            const std::string kt
                = b.add("call_function", "aten.transpose.int", {kk}, a, "Attention", "forward", "float32", {512, 64});
            const std::string s1 = b.add("call_function", "aten.bmm.default", {qv, kt}, a, "Attention", "forward");
            const std::string sc = b.add("call_function", "aten.div.Tensor", {s1}, a, "Attention", "forward");
            const std::string sm = b.add("call_function", "aten._softmax.default", {sc}, a, "Attention", "forward");
            const std::string hf
                = b.add("call_function", "aten._to_copy.default", {sm}, a, "Attention", "forward", "float16");
            const std::string av = b.add("call_function", "aten.bmm.default", {hf, v}, a, "Attention", "forward");
            const std::string aw = b.add("call_function", "aten.view.default", {av}, a, "Attention", "forward");
            const std::string o = linear(blk + ".attn.o_proj", aw);
            const std::string r1 = b.add("call_function", "aten.add.Tensor", {h, o}, blk, "Block", "forward");
            const std::string n2 = norm(blk + ".norm2", r1);
            const std::string f1 = linear(blk + ".mlp.fc1", n2);
            const std::string act
                = b.add("call_function", "aten.gelu.default", {f1}, blk + ".mlp.act", "GELU", "forward");
            const std::string f2 = linear(blk + ".mlp.fc2", act);
            h = b.add("call_function", "aten.add.Tensor", {r1, f2}, blk, "Block", "forward");
            b.modules.push_back({{"path", blk}, {"type", "Block"}});
            b.modules.push_back({{"path", blk + ".mlp"}, {"type", "MLP"}});
        }
        b.modules.push_back({{"path", "model.stages." + std::to_string(s)}, {"type", "Stage"}});
    }
    b.modules.push_back({{"path", "model"}, {"type", "Transformer"}});
    const std::string loss
        = b.add("call_function", "aten.sum.default", {h}, "model", "Transformer", "forward", "float32", {});
    // Backward: walk the tape in reverse, each module's gradient ops in that module.
    std::string g = b.add("call_function", "aten.ones_like.default", {loss}, "model", "Transformer", "backward");
    for (auto it = tape.rbegin(); it != tape.rend(); ++it) {
        const auto& t = *it;
        if (t.type == "Linear") {
            const std::string gi
                = b.add("call_function", "aten.mm.default", {g, t.params[0]}, t.module, t.type, "backward");
            const std::string gw = b.add("call_function", "aten.mm.default", {g, t.in}, t.module, t.type, "backward");
            const std::string gb = b.add("call_function", "aten.sum.dim_IntList", {g}, t.module, t.type, "backward");
            grads.push_back({t.module + ".weight", gw});
            grads.push_back({t.module + ".bias", gb});
            g = gi;
        } else {
            const std::string bw = b.add("call_function", "aten.native_layer_norm_backward.default",
                {g, t.in, t.params[0], t.params[1]}, t.module, t.type, "backward");
            const std::string gi = b.add("call_function", "getitem", {bw}, t.module, t.type, "backward");
            const std::string gw = b.add("call_function", "getitem", {bw}, t.module, t.type, "backward");
            const std::string gb = b.add("call_function", "getitem", {bw}, t.module, t.type, "backward");
            const std::string gi2 = b.add("call_function", "aten.add.Tensor", {gi, g}, t.module, t.type, "backward");
            grads.push_back({t.module + ".weight", gw});
            grads.push_back({t.module + ".bias", gb});
            g = gi2;
        }
    }
    nlohmann::json outInputs = {loss};
    for (const auto& [param, node] : grads)
        outInputs.push_back(node);
    nlohmann::json out = {{"name", "output"}, {"op", "output"}, {"target", "output"}, {"kind", "output"},
        {"inputs", outInputs}, {"module", nullptr}, {"source", nullptr}};
    b.list.push_back(out);
    // The nodes feeding the output carry their roles.
    b.list[b.at[loss]]["output"] = {{{"index", 0}, {"role", "result"}, {"param", nullptr}}};
    int index = 1;
    for (const auto& [param, node] : grads)
        b.list[b.at[node]]["output"].push_back({{"index", index++}, {"role", "gradient"}, {"param", param}});
    return {{"nodes", b.list.size()}, {"complete", true}, {"node_list", b.list}, {"modules", b.modules}};
}

}  // namespace ps::graphtest
