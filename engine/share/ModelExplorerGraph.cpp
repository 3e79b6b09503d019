#include "share/ModelExplorerGraph.h"

#include "share/LensValues.h"

#include "graph/GraphModel.h"
#include "graph/ModuleTree.h"
#include "graph/TensorLayout.h"
#include "model/Capture.h"
#include "model/JsonFields.h"

#include <algorithm>
#include <map>
#include <optional>
#include <unordered_map>

namespace ps::share {

namespace {

using json = nlohmann::json;
using graph::GraphModel;
using graph::GraphNode;
using graph::Module;
using graph::ModuleTree;
using graph::Phase;
using graph::TensorLayout;

constexpr const char* kSavedNamespace = "[saved from forward]";

json keyValue(const std::string& key, const std::string& value)
{
    return {{"key", key}, {"value", value}};
}

std::string listText(const std::vector<std::int64_t>& values)
{
    std::string out = "[";
    for (std::size_t i = 0; i < values.size(); ++i)
        out += (i ? ", " : "") + std::to_string(values[i]);
    return out + "]";
}

/// What the node's box says: the op for a computation ("aten.convolution", the overload kept
/// unless it is .default), the kind for an input ("parameter"), "constant", "output".
std::string labelOf(const GraphNode& n)
{
    if (n.op == "placeholder")
        return n.kind == graph::NodeKind::Other ? std::string("placeholder") : std::string(toString(n.kind));
    if (n.op == "get_attr")
        return "constant";
    if (n.op == "output")
        return "output";
    std::string target = n.target.empty() ? n.op : n.target;
    constexpr std::string_view kDefault = ".default";
    if (target.size() > kDefault.size()
        && target.compare(target.size() - kDefault.size(), kDefault.size(), kDefault) == 0)
        target.resize(target.size() - kDefault.size());
    return target;
}

std::string component(const std::string& name)
{
    std::string out;
    for (char c : name)
        out += c == '/' ? std::string("\u2215") : std::string(1, c);
    return out;
}

/// The namespace of a module of the tree: its model path with "/", the phase group left out.
std::string namespaceOfModule(const ModuleTree& tree, int module)
{
    std::string out;
    for (int id : tree.chain(module)) {
        const Module& m = tree.module(id);
        std::string part;
        switch (m.role) {
        case Module::Role::PhaseGroup:
            continue;
        case Module::Role::Gradients:
            part = "[gradients]";
            break;
        case Module::Role::Outside:
            part = "[outside]";
            break;
        case Module::Role::Model:
            part = component(m.name);
            break;
        }
        out += (out.empty() ? "" : "/") + part;
    }
    return out;
}

std::string location(const std::string& file, int line)
{
    return line > 0 ? file + ":" + std::to_string(line) : file;
}

/// The raw node objects by name: tuple positions and fields GraphModel does not keep.
std::unordered_map<std::string, const json*> rawNodes(const json& graph)
{
    std::unordered_map<std::string, const json*> out;
    const json& list = model::JsonFields::member(graph, "node_list");
    if (!list.is_array())
        return out;
    for (const auto& j : list)
        if (j.is_object())
            if (auto name = j.find("name"); name != j.end() && name->is_string())
                out.emplace(name->get<std::string>(), &j);
    return out;
}

bool sameLayout(const TensorLayout& a, const TensorLayout& b)
{
    return a.sizes == b.sizes && a.strides == b.strides && a.dtype == b.dtype;
}

/// Which element of its tuple-valued input a getitem takes: the report's "item" where the worker
/// recorded it, else the one element whose layout is the getitem's own. `candidates` gets the
/// elements that fit when more than one does.
std::optional<int> itemOf(const GraphModel& g, int node, const std::unordered_map<std::string, const json*>& raw,
    std::vector<int>& candidates)
{
    const GraphNode& n = g.nodes()[static_cast<std::size_t>(node)];
    if (n.target != "operator.getitem" || n.inputs.size() != 1)
        return std::nullopt;
    if (auto it = raw.find(n.name); it != raw.end())
        if (auto item = it->second->find("item");
            item != it->second->end() && item->is_number_integer() && item->get<std::int64_t>() >= 0)
            return static_cast<int>(item->get<std::int64_t>());
    const GraphNode& source = g.nodes()[static_cast<std::size_t>(n.inputs[0])];
    auto it = raw.find(source.name);
    if (n.values.size() != 1 || it == raw.end())
        return std::nullopt;
    const json& values = model::JsonFields::member(*it->second, "values");
    if (!values.is_array())
        return std::nullopt;
    for (std::size_t k = 0; k < values.size(); ++k)
        if (auto layout = TensorLayout::fromJson(values[k]); layout && sameLayout(*layout, n.values[0]))
            candidates.push_back(static_cast<int>(k));
    if (candidates.size() == 1)
        return candidates[0];
    return std::nullopt;
}

json tensorAttrs(const TensorLayout& t, const std::string& tag)
{
    json attrs = json::array({keyValue("shape", listText(t.sizes))});
    if (!t.dtype.empty())
        attrs.push_back(keyValue("dtype", t.dtype));
    if (t.strides.size() == t.sizes.size())  // a 0-d tensor's stride is [], said too
        attrs.push_back(keyValue("stride", listText(t.strides)));
    attrs.push_back(keyValue("__tensor_tag", tag));
    return attrs;
}

/// outputsMetadata: one entry for a tensor, one per element of a tuple (id = its position).
json outputsOf(const GraphNode& n, const json* raw)
{
    json out = json::array();
    if (!raw)
        return out;
    if (auto layout = TensorLayout::fromJson(*raw)) {
        json attrs = tensorAttrs(*layout, n.name);
        if (!n.device.empty())
            attrs.insert(attrs.end() - 1, keyValue("device", n.device));
        out.push_back({{"id", "0"}, {"attrs", attrs}});
        return out;
    }
    const json& values = model::JsonFields::member(*raw, "values");
    if (values.is_array()) {
        for (std::size_t k = 0; k < values.size(); ++k) {
            const std::string id = std::to_string(k);
            json attrs;
            if (auto layout = TensorLayout::fromJson(values[k]))
                attrs = tensorAttrs(*layout, n.name + "[" + id + "]");
            else
                attrs = json::array({keyValue("value",
                    model::JsonFields::member(values[k], "value")
                        .dump(-1, ' ', false, json::error_handler_t::replace))});
            out.push_back({{"id", id}, {"attrs", attrs}});
        }
        return out;
    }
    if (auto v = raw->find("value"); v != raw->end() && n.op != "output")
        out.push_back({{"id", "0"},
            {"attrs", json::array({keyValue("value", v->dump(-1, ' ', false, json::error_handler_t::replace))})}});
    return out;
}

/// The node's attributes: what the Graph tab's details pane says of it.
json attrsOf(const GraphModel& g, const ModuleTree& tree, int node, const std::string& item)
{
    const GraphNode& n = g.nodes()[static_cast<std::size_t>(node)];
    json attrs = json::array();
    const auto add = [&](const char* key, const std::string& value) {
        if (!value.empty())
            attrs.push_back(keyValue(key, value));
    };
    add("op", n.op);
    if (n.target != n.name)
        add("target", n.target);
    add("kind", std::string(toString(n.kind)));
    add("qualname", n.qualname);
    if (!n.modulePath.empty())
        add("module", n.modulePath + (n.moduleType.empty() ? "" : " (" + n.moduleType + ")"));
    add("device", n.device);
    if (tree.phased())
        add("phase", std::string(toString(tree.phaseOf(node))));
    add("output", n.outputRole);
    add("item", item);
    add("kernel", n.kernel);
    if (n.violation)
        add("violation",
            "invariant " + std::to_string(n.violation) + (n.violationRule.empty() ? "" : ": " + n.violationRule));
    add("binding", n.binding);
    if (const auto* f = g.sourceFrame(node)) {
        add("source", location(f->file, f->line));
        add("source_code", f->code);
    }
    const auto stack = g.stackOf(node);
    if (n.sourceLine > 0)
        add("script_line", location(n.sourceFile, n.sourceLine));
    std::string frames;
    for (const auto* f : stack)
        frames += (frames.empty() ? "" : "\n") + location(f->file, f->line) + "  " + f->function
            + (f->code.empty() ? "" : "  " + f->code);
    add("stack", frames);
    return attrs;
}

/// The nodes of one graph of the collection: each node's place in it.
enum class Place : std::uint8_t { None, Own, Saved };

struct Part {
    std::string id;
    Phase phase = Phase::None;
    std::vector<Place> place;
};

std::vector<Part> split(const GraphModel& g, const ModuleTree& tree, const std::string& name)
{
    const auto& nodes = g.nodes();
    const std::size_t count = nodes.size();
    if (!tree.phased())
        return {Part{name, Phase::None, std::vector<Place>(count, Place::Own)}};
    std::vector<Part> parts{Part{name + " forward", Phase::Forward, std::vector<Place>(count, Place::None)},
        Part{name + " backward", Phase::Backward, std::vector<Place>(count, Place::None)}};
    const auto partOf = [](Phase p) { return p == Phase::Backward ? 1 : 0; };
    // The computation by its phase; a node of no phase that reads others (the output) in the
    // last phase it reads.
    std::vector<int> home(count, -1);
    for (std::size_t i = 0; i < count; ++i) {
        const Phase p = tree.phaseOf(static_cast<int>(i));
        if (p != Phase::None) {
            home[i] = partOf(p);
        } else if (!nodes[i].inputs.empty()) {
            home[i] = 0;
            for (int j : nodes[i].inputs)
                if (tree.phaseOf(j) == Phase::Backward)
                    home[i] = 1;
        }
    }
    for (std::size_t i = 0; i < count; ++i)
        if (home[i] >= 0)
            parts[static_cast<std::size_t>(home[i])].place[i] = Place::Own;
    // Inputs, parameters and constants in every graph that reads them (the forward one when none does).
    for (std::size_t i = 0; i < count; ++i) {
        if (home[i] >= 0)
            continue;
        bool placed = false;
        for (int u : nodes[i].users)
            if (home[static_cast<std::size_t>(u)] >= 0) {
                parts[static_cast<std::size_t>(home[static_cast<std::size_t>(u)])].place[i] = Place::Own;
                placed = true;
            }
        if (!placed)
            parts[0].place[i] = Place::Own;
    }
    // A value a graph reads from another (a forward value the backward saved): there too.
    for (auto& part : parts)
        for (std::size_t i = 0; i < count; ++i)
            if (part.place[i] == Place::Own)
                for (int j : nodes[i].inputs)
                    if (part.place[static_cast<std::size_t>(j)] == Place::None)
                        part.place[static_cast<std::size_t>(j)] = Place::Saved;
    return parts;
}

const char* gradientEnd(graph::MeasuredLens::Measure m)
{
    switch (m) {
    case graph::MeasuredLens::Measure::Time:
        return "#d32f2f";
    case graph::MeasuredLens::Measure::Error:
        return "#7b1fa2";
    case graph::MeasuredLens::Measure::Memory:
        return "#1565c0";
    }
    return "#d32f2f";
}

}  // namespace

ModelExplorerGraph::ModelExplorerGraph(std::string label) : m_label(std::move(label)), m_nodeData(3)
{ }

std::string ModelExplorerGraph::namespaceOf(const std::string& modulePath)
{
    std::string out;
    std::size_t start = 0;
    while (true) {
        const std::size_t dot = modulePath.find('.', start);
        out += (start ? "/" : "") + component(modulePath.substr(start, dot - start));
        if (dot == std::string::npos)
            return out;
        start = dot + 1;
    }
}

std::vector<std::string> ModelExplorerGraph::add(const model::Capture& capture, const std::string& name)
{
    const json& graphJson = model::JsonFields::member(capture.json, "graph");
    const GraphModel g = GraphModel::fromJson(graphJson, model::JsonFields::member(capture.json, "lowering"));
    if (g.empty())
        return {};
    const ModuleTree tree = ModuleTree::build(g);
    const auto raw = rawNodes(graphJson);
    const auto& nodes = g.nodes();
    const std::size_t count = nodes.size();

    // Per node, once: its namespace, label, attributes, outputs, and the getitem's element.
    std::vector<std::string> spaces(count);
    std::vector<std::string> outputId(count, "0");  // of the edge into this node from its first input
    std::vector<json> attrs(count), outputs(count);
    for (std::size_t i = 0; i < count; ++i) {
        const int node = static_cast<int>(i);
        spaces[i] = namespaceOfModule(tree, tree.moduleOf(node));
        std::vector<int> candidates;
        std::string item;
        if (const auto k = itemOf(g, node, raw, candidates)) {
            outputId[i] = std::to_string(*k);
            item = outputId[i];
        } else if (!candidates.empty()) {
            item = "one of";
            for (std::size_t c = 0; c < candidates.size(); ++c)
                item += (c ? ", " : " ") + std::to_string(candidates[c]);
            item += " (the same layout; the report does not say which)";
        }
        attrs[i] = attrsOf(g, tree, node, item);
        auto r = raw.find(nodes[i].name);
        outputs[i] = outputsOf(nodes[i], r == raw.end() ? nullptr : r->second);
    }

    const std::vector<Part> parts = split(g, tree, name);
    const LensValues lenses(g, capture);
    std::vector<std::string> ids;
    for (const Part& part : parts) {
        json graphNodes = json::array();
        std::map<std::string, json> groups;
        for (std::size_t i = 0; i < count; ++i) {
            if (part.place[i] == Place::None)
                continue;
            const GraphNode& n = nodes[i];
            json node = {{"id", n.name}, {"label", labelOf(n)}};
            if (part.place[i] == Place::Saved) {
                node["namespace"] = kSavedNamespace;
                json a = attrs[i];
                a.push_back(keyValue("saved_from", parts[0].id + (spaces[i].empty() ? "" : ", " + spaces[i])));
                node["attrs"] = std::move(a);
            } else {
                node["namespace"] = spaces[i];
                node["attrs"] = attrs[i];
                json edges = json::array();
                for (std::size_t k = 0; k < n.inputs.size(); ++k)
                    edges.push_back({{"sourceNodeId", nodes[static_cast<std::size_t>(n.inputs[k])].name},
                        {"sourceNodeOutputId", k == 0 ? outputId[i] : std::string("0")},
                        {"targetNodeInputId", std::to_string(k)}});
                node["incomingEdges"] = std::move(edges);
                // Every level of the namespace a layer: its module's path and type.
                for (int id : tree.chain(tree.moduleOf(static_cast<int>(i)))) {
                    const Module& m = tree.module(id);
                    if (m.role == Module::Role::PhaseGroup)
                        continue;
                    const std::string space = namespaceOfModule(tree, id);
                    if (groups.count(space))
                        continue;
                    json group = json::object();
                    if (m.role == Module::Role::Model) {
                        group["module"] = m.modelPath;
                        if (!m.type.empty())
                            group["type"] = m.type;
                    } else if (m.role == Module::Role::Gradients) {
                        group["group"] = "the gradient outputs and the plumbing that only feeds them";
                    } else {
                        group["group"] = "this phase's nodes outside every module of the model";
                    }
                    groups.emplace(space, std::move(group));
                }
            }
            node["outputsMetadata"] = outputs[i];
            graphNodes.push_back(std::move(node));
        }
        if (std::any_of(part.place.begin(), part.place.end(), [](Place p) { return p == Place::Saved; }))
            groups.emplace(kSavedNamespace, json{{"group", "the forward values this graph reads (saved activations)"}});
        json top = {{"capture", name}, {"backend", capture.backend}, {"tracer", capture.tracer},
            {"nodes", std::to_string(graphNodes.size())}};
        if (part.phase != Phase::None)
            top["phase"] = toString(part.phase);
        if (!g.complete())
            top["complete"] = "no: precompile failed before its capture finished";
        groups.emplace("", std::move(top));
        json groupAttrs = json::object();
        for (auto& [space, group] : groups)
            groupAttrs[space] = std::move(group);
        m_graphs.push_back({{"id", part.id}, {"nodes", std::move(graphNodes)}, {"groupNodeAttributes", groupAttrs}});
        ids.push_back(part.id);

        for (const auto& lens : lenses.lenses()) {
            json results = json::object();
            for (std::size_t i = 0; i < count; ++i)
                if (part.place[i] == Place::Own)
                    if (const auto v = lens.values.node(static_cast<int>(i)))
                        results[nodes[i].name] = {{"value", *v}};
            if (results.empty())
                continue;
            // One slot per measure, in the order time, error, memory.
            auto& data = m_nodeData[static_cast<std::size_t>(lens.measure)];
            data.lens = lens.name;
            data.data[part.id] = {{"name", lens.name + " (" + lens.unit + ")"}, {"results", std::move(results)},
                {"gradient",
                    json::array({{{"stop", 0}, {"bgColor", "#ffffff"}},
                        {{"stop", 1}, {"bgColor", gradientEnd(lens.measure)}}})}};
        }
    }
    return ids;
}

json ModelExplorerGraph::collection() const
{
    return {{"label", m_label}, {"graphs", m_graphs}};
}

std::vector<ModelExplorerGraph::NodeData> ModelExplorerGraph::nodeData() const
{
    std::vector<NodeData> out;
    for (const auto& d : m_nodeData)
        if (!d.data.empty())
            out.push_back(d);
    return out;
}

}  // namespace ps::share
