#include "graph/GraphModel.h"

#include <nlohmann/json.hpp>

#include <algorithm>
#include <cstdint>
#include <string>
#include <vector>

namespace ps::graph {

namespace {

std::string str(const nlohmann::json& j, const char* key)
{
    auto it = j.find(key);
    return it != j.end() && it->is_string() ? it->get<std::string>() : std::string();
}

std::string listText(const nlohmann::json& j)
{
    if (!j.is_array())
        return {};
    std::string out = "[";
    for (std::size_t i = 0; i < j.size(); ++i) {
        if (i)
            out += ", ";
        const auto& v = j[i];
        if (v.is_string())
            out += v.get_ref<const std::string&>();
        else if (v.is_number_integer())  // most lists: no serializer made per number
            out += v.is_number_unsigned() ? std::to_string(v.get<std::uint64_t>())
                                          : std::to_string(v.get<std::int64_t>());
        else
            out += v.dump();
    }
    return out + "]";
}

/// A placeholder's "dynamic" list in words: "dim 0 = u0 (shape_id batch, min 8), dim 2 = u1".
std::string dynamicText(const nlohmann::json& node)
{
    const auto it = node.find("dynamic");
    if (it == node.end() || !it->is_array())
        return {};
    std::string out;
    for (const auto& m : *it) {
        if (!m.is_object() || !m.contains("dim") || !m["dim"].is_number_integer())
            continue;
        std::string one = "dim " + std::to_string(m["dim"].get<long long>());
        if (const std::string symbol = str(m, "symbol"); !symbol.empty())
            one += " = " + symbol;
        std::vector<std::string> facts;
        if (const std::string id = str(m, "shape_id"); !id.empty())
            facts.push_back("shape_id " + id);
        for (const char* bound : {"min", "max"})
            if (m.contains(bound) && m[bound].is_number_integer())
                facts.push_back(std::string(bound) + " " + std::to_string(m[bound].get<long long>()));
        for (std::size_t i = 0; i < facts.size(); ++i)
            one += (i ? ", " : " (") + facts[i] + (i + 1 == facts.size() ? ")" : "");
        out += (out.empty() ? "" : ", ") + one;
    }
    return out;
}

int lineOf(const nlohmann::json& where)
{
    if (!where.is_object())
        return 0;
    auto l = where.find("line");
    return l != where.end() && l->is_number_integer() ? l->get<int>() : 0;
}

/// {"name": "scale", "origin": "global", "defined": {"line": 4}, "used": {"line": 9}} ->
/// "global scale, defined at line 4, used at line 9".
std::string bindingText(const nlohmann::json& b)
{
    std::string out = str(b, "origin");
    if (const std::string name = str(b, "name"); !name.empty())
        out += (out.empty() ? "" : " ") + name;
    if (auto d = b.find("defined"); d != b.end())
        if (const int line = lineOf(*d))
            out += ", defined at line " + std::to_string(line);
    if (auto u = b.find("used"); u != b.end())
        if (const int line = lineOf(*u))
            out += ", used at line " + std::to_string(line);
    return out;
}

std::vector<StackFrame> framesOf(const nlohmann::json& graph, std::string& problem)
{
    std::vector<StackFrame> out;
    auto list = graph.find("frames");
    if (list == graph.end() || list->is_null())
        return out;
    if (!list->is_array()) {
        problem = "the graph's frames are not a list";
        return out;
    }
    out.reserve(list->size());
    for (const auto& j : *list) {
        StackFrame f;
        if (j.is_object()) {
            f.file = str(j, "file");
            f.line = std::max(lineOf(j), 0);
            f.function = str(j, "function");
            f.code = str(j, "code");
            f.owner = frameOwnerFromString(str(j, "owner"));
            f.package = str(j, "package");
        } else if (problem.empty()) {
            problem = "frame " + std::to_string(out.size()) + " of the graph is not an object";
        }
        out.push_back(std::move(f));  // kept in place, so that the indices after it still hold
    }
    return out;
}

/// A node's "stack": the indices that name a frame; the first bad one is said in `problem`.
std::vector<int> stackIndices(
    const nlohmann::json& node, const std::string& name, std::size_t frames, std::string& problem)
{
    std::vector<int> out;
    auto s = node.find("stack");
    if (s == node.end() || !s->is_array())
        return out;
    out.reserve(s->size());
    for (const auto& i : *s) {
        if (i.is_number_unsigned() && i.get<std::uint64_t>() < frames) {
            out.push_back(static_cast<int>(i.get<std::uint64_t>()));
        } else if (problem.empty()) {
            problem = "node " + name + "'s stack names frame " + i.dump() + ", but the graph lists "
                + std::to_string(frames) + " frame" + (frames == 1 ? "" : "s");
        }
    }
    return out;
}

}  // namespace

std::string GraphNode::shortTarget() const
{
    if (target.rfind("aten.", 0) == 0) {
        std::string rest = target.substr(5);
        if (auto dot = rest.find('.'); dot != std::string::npos)
            rest.resize(dot);
        return rest;
    }
    return target;
}

GraphModel GraphModel::fromJson(const nlohmann::json& graph)
{
    return fromJson(graph, nlohmann::json());
}

GraphModel GraphModel::fromJson(const nlohmann::json& graph, const nlohmann::json& lowering)
{
    GraphModel g;
    if (!graph.is_object()) {
        g.m_error = graph.is_null() ? "no graph was captured" : "the report's graph is not an object";
        return g;
    }
    g.m_error = str(graph, "error");
    if (auto it = graph.find("complete"); it != graph.end() && it->is_boolean())
        g.m_complete = it->get<bool>();
    auto list = graph.find("node_list");
    if (list == graph.end() || !list->is_array()) {
        if (g.m_error.empty())
            g.m_error = "the report has no node list (made by an older worker?)";
        return g;
    }
    g.m_frames = framesOf(graph, g.m_stackError);
    g.m_nodes.reserve(list->size());
    g.m_byName.reserve(list->size());
    std::vector<const nlohmann::json*> inputLists;
    inputLists.reserve(list->size());
    for (const auto& j : *list) {
        if (!j.is_object())
            continue;
        GraphNode n;
        n.name = str(j, "name");
        n.op = str(j, "op");
        n.target = str(j, "target");
        n.kind = nodeKindFromString(str(j, "kind"));
        n.qualname = str(j, "qualname");
        n.dynamic = dynamicText(j);
        if (auto s = j.find("shape"); s != j.end())
            n.shape = listText(*s);
        else if (auto v = j.find("values"); v != j.end() && v->is_array())
            n.shape = "(" + std::to_string(v->size()) + " values)";
        n.dtype = str(j, "dtype");
        if (auto s = j.find("stride"); s != j.end())
            n.stride = listText(*s);
        if (auto t = TensorLayout::fromJson(j))
            n.values.push_back(std::move(*t));
        else if (auto v = j.find("values"); v != j.end() && v->is_array())
            for (const auto& value : *v)
                if (auto tv = TensorLayout::fromJson(value))
                    n.values.push_back(std::move(*tv));
        n.device = str(j, "device");
        if (auto m = j.find("module"); m != j.end() && m->is_object()) {
            n.modulePath = str(*m, "path");
            n.moduleType = str(*m, "type");
        }
        if (auto s = j.find("source"); s != j.end() && s->is_object()) {
            n.sourceFile = str(*s, "file");
            if (auto l = s->find("line"); l != s->end() && l->is_number_integer())
                n.sourceLine = l->get<int>();
        }
        n.phase = phaseFromString(str(j, "phase"));
        n.stack = stackIndices(j, n.name, g.m_frames.size(), g.m_stackError);
        if (auto v = j.find("violation"); v != j.end() && v->is_object()) {
            if (auto i = v->find("invariant"); i != v->end() && i->is_number_integer())
                n.violation = i->get<int>();
            n.violationRule = str(*v, "rule");
        }
        if (auto b = j.find("binding"); b != j.end() && b->is_object())
            n.binding = bindingText(*b);
        if (auto o = j.find("output"); o != j.end() && o->is_array()) {
            for (const auto& role : *o) {
                if (!role.is_object())
                    continue;
                std::string r = str(role, "role");
                if (r == "gradient" && !str(role, "param").empty())
                    r += " of " + str(role, "param");
                if (r.empty())
                    r = "output";
                if (!n.outputRole.empty())
                    n.outputRole += ", ";
                n.outputRole += r;
            }
        }
        g.m_byName.emplace(n.name, static_cast<int>(g.m_nodes.size()));
        g.m_nodes.push_back(std::move(n));
        auto in = j.find("inputs");
        inputLists.push_back(in != j.end() && in->is_array() ? &*in : nullptr);
    }
    for (std::size_t i = 0; i < g.m_nodes.size(); ++i) {
        if (!inputLists[i])
            continue;
        for (const auto& name : *inputLists[i]) {
            if (!name.is_string())
                continue;
            const int from = g.indexOf(name.get_ref<const std::string&>());
            if (from < 0 || from == static_cast<int>(i))
                continue;
            g.m_nodes[i].inputs.push_back(from);
            g.m_nodes[from].users.push_back(static_cast<int>(i));
            ++g.m_edges;
        }
    }
    for (const auto& n : g.m_nodes)
        if (!n.modulePath.empty())
            g.m_moduleTypes.emplace(n.modulePath, n.moduleType);
    if (auto mods = graph.find("modules"); mods != graph.end() && mods->is_array())
        for (const auto& m : *mods)
            if (m.is_object() && !str(m, "path").empty())
                g.m_moduleTypes.emplace(str(m, "path"), str(m, "type"));
    // Inductor: each kernel (and extern call) names the ATen nodes it computes.
    if (lowering.is_object()) {
        for (const char* list : {"kernels", "extern_calls"}) {
            auto ks = lowering.find(list);
            if (ks == lowering.end() || !ks->is_array())
                continue;
            for (const auto& k : *ks) {
                if (!k.is_object() || str(k, "name").empty())
                    continue;
                auto members = k.find("nodes");
                if (members == k.end() || !members->is_array())
                    continue;
                for (const auto& name : *members)
                    if (name.is_string())
                        if (const int i = g.indexOf(name.get_ref<const std::string&>());
                            i >= 0 && g.m_nodes[i].kernel.empty())
                            g.m_nodes[i].kernel = str(k, "name");
            }
        }
    }
    return g;
}

int GraphModel::indexOf(const std::string& name) const
{
    auto it = m_byName.find(name);
    return it == m_byName.end() ? -1 : it->second;
}

std::vector<const StackFrame*> GraphModel::stackOf(int node) const
{
    std::vector<const StackFrame*> out;
    if (node < 0 || node >= static_cast<int>(m_nodes.size()))
        return out;
    for (int i : m_nodes[static_cast<std::size_t>(node)].stack)
        out.push_back(&m_frames[static_cast<std::size_t>(i)]);
    return out;
}

const StackFrame* GraphModel::sourceFrame(int node) const
{
    for (const StackFrame* f : stackOf(node))
        if (f->owner != FrameOwner::Torch && f->line > 0)
            return f;
    return nullptr;
}

std::vector<int> GraphModel::nodesAtLine(const std::string& file, int line) const
{
    std::vector<int> out;
    if (line <= 0)
        return out;
    for (std::size_t i = 0; i < m_nodes.size(); ++i)
        if (m_nodes[i].sourceLine == line && m_nodes[i].sourceFile == file)
            out.push_back(static_cast<int>(i));
    return out;
}

}  // namespace ps::graph
