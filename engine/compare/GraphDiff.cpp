#include "compare/GraphDiff.h"

#include "compare/SequenceDiff.h"
#include "compare/TextDiff.h"

#include <algorithm>
#include <cstdint>
#include <optional>
#include <string_view>
#include <unordered_map>

namespace ps::compare {

namespace {

using nlohmann::json;

const json& nodeList(const json& graph)
{
    static const json kNone;
    if (!graph.is_object())
        return kNone;
    auto it = graph.find("node_list");
    if (it == graph.end() || !it->is_array())
        return kNone;
    return *it;
}

const std::string& text(const json& node, const char* key)
{
    static const std::string kEmpty;
    if (!node.is_object())
        return kEmpty;
    auto it = node.find(key);
    return it != node.end() && it->is_string() ? it->get_ref<const std::string&>() : kEmpty;
}

const std::string& modulePath(const json& node)
{
    static const std::string kEmpty;
    auto it = node.find("module");
    if (it == node.end() || !it->is_object())
        return kEmpty;
    return text(*it, "path");
}

const std::string& moduleType(const json& node)
{
    static const std::string kEmpty;
    auto it = node.find("module");
    if (it == node.end() || !it->is_object())
        return kEmpty;
    return text(*it, "type");
}

/// The module a node belongs to: its module path, or for a parameter or buffer (which the
/// worker records with no module) the module owning it, from its qualified name
/// ("model.layer1.0.conv1.weight" -> "model.layer1.0.conv1"); "" when neither.
std::string_view owner(const json& node)
{
    const std::string& path = modulePath(node);
    if (!path.empty())
        return path;
    const std::string& qualname = text(node, "qualname");
    const auto dot = qualname.rfind('.');
    return dot == std::string::npos ? std::string_view() : std::string_view(qualname).substr(0, dot);
}

/// The last part of a parameter's qualified name ("weight"); "" when it has none.
std::string_view leafName(const json& node)
{
    const std::string& qualname = text(node, "qualname");
    const auto dot = qualname.rfind('.');
    return dot == std::string::npos ? std::string_view(qualname) : std::string_view(qualname).substr(dot + 1);
}

int depth(std::string_view path)
{
    return path.empty() ? 0 : 1 + static_cast<int>(std::count(path.begin(), path.end(), '.'));
}

/// The deepest module path both are in ("model.layer1.0.conv1", "model.layer1.1" -> "model.layer1").
std::string_view commonAncestor(std::string_view a, std::string_view b)
{
    std::size_t end = 0;
    for (std::size_t k = 0;; ++k) {
        const bool endA = k == a.size() || a[k] == '.';
        const bool endB = k == b.size() || b[k] == '.';
        if (endA || endB) {
            if (endA && endB)
                end = k;
            if (endA != endB || k == a.size() || k == b.size())
                break;
        } else if (a[k] != b[k]) {
            break;
        }
    }
    return a.substr(0, end);
}

std::optional<int> sourceLine(const json& node)
{
    auto it = node.find("source");
    if (it == node.end() || !it->is_object())
        return std::nullopt;
    auto line = it->find("line");
    if (line == it->end() || !line->is_number_integer())
        return std::nullopt;
    return line->get<int>();
}

std::string compact(const json& value)
{
    return value.is_null() ? std::string("-") : value.dump();
}

std::string field(const json& node, const char* key)
{
    auto it = node.find(key);
    return it == node.end() ? std::string("-") : compact(*it);
}

/// Keys are 64-bit FNV-1a hashes of what they stand for, built without making strings. A
/// collision could only pair two different nodes, and then their fields (op included) are
/// compared and shown as changed: the diff never calls different things equal.
constexpr std::uint64_t kSeed = 1469598103934665603ULL;

std::uint64_t mix(std::uint64_t h, std::string_view bytes)
{
    for (unsigned char c : bytes) {
        h ^= c;
        h *= 1099511628211ULL;
    }
    h ^= 0xff;  // a separator: "ab"+"c" and "a"+"bc" differ
    return h * 1099511628211ULL;
}

std::uint64_t mixJson(std::uint64_t h, const json& value)
{
    if (value.is_array()) {
        for (const json& v : value)
            h = mixJson(h, v);
        return mix(h, "]");
    }
    if (value.is_number_integer()) {
        const long long v = value.get<long long>();
        return mix(h, std::string_view(reinterpret_cast<const char*>(&v), sizeof v));
    }
    if (value.is_string())
        return mix(h, value.get_ref<const std::string&>());
    return mix(h, value.dump());
}

std::uint64_t shapeKey(std::uint64_t h, const json& node)
{
    auto it = node.find("shape");
    return it == node.end() ? mix(h, "-") : mixJson(h, *it);
}

/// What a node is, without its generated name: op and target (a placeholder's kind instead of
/// its flat_N name).
std::uint64_t what(std::uint64_t h, const json& node)
{
    const std::string& op = text(node, "op");
    return mix(mix(h, op), op == "placeholder" || op == "get_attr" ? text(node, "kind") : text(node, "target"));
}

/// The modules of one side in order of first appearance, each keyed by its type, its nodes'
/// ops (loose) and their shapes too (strict).
struct Modules {
    std::vector<std::string> paths;
    std::unordered_map<std::string_view, int> index;
    std::vector<std::uint64_t> type;
    std::vector<std::uint64_t> loose;
    std::vector<std::uint64_t> strict;

    explicit Modules(const json& nodes)
    {
        for (const json& node : nodes) {
            const std::string& path = modulePath(node);
            if (path.empty())
                continue;
            auto [it, fresh] = index.emplace(path, static_cast<int>(paths.size()));
            if (fresh) {
                paths.push_back(path);
                type.push_back(mix(kSeed, moduleType(node)));
                loose.push_back(type.back());
                strict.push_back(type.back());
            }
            const std::size_t k = static_cast<std::size_t>(it->second);
            loose[k] = what(loose[k], node);
            strict[k] = shapeKey(what(strict[k], node), node);
        }
    }
};

std::unordered_map<std::string_view, int> indexByName(const json& nodes)
{
    std::unordered_map<std::string_view, int> out;
    out.reserve(nodes.size());
    int i = 0;
    for (const json& node : nodes)
        out.emplace(text(node, "name"), i++);
    return out;
}

std::vector<std::string> inputNames(const json& node)
{
    std::vector<std::string> out;
    auto it = node.find("inputs");
    if (it == node.end() || !it->is_array())
        return out;
    for (const json& name : *it)
        if (name.is_string())
            out.push_back(name.get<std::string>());
    return out;
}

std::string joined(const std::vector<std::string>& names)
{
    std::string out;
    for (const std::string& n : names)
        out += (out.empty() ? "" : ", ") + n;
    return out.empty() ? std::string("-") : out;
}

/// What a block is named by: the module types of a side, and how deep its outermost module is
/// (the depth of the path every node's module starts with: 1 for "model").
struct BlockNames {
    std::unordered_map<std::string_view, std::string_view> types;
    int rootDepth = 0;

    explicit BlockNames(const json& graph, const json& nodes)
    {
        auto modules = graph.find("modules");
        if (modules != graph.end() && modules->is_array())
            for (const json& m : *modules)
                if (m.is_object())
                    types.emplace(text(m, "path"), text(m, "type"));
        bool first = true;
        std::string_view root;
        for (const json& node : nodes) {
            const std::string_view path = owner(node);
            if (!modulePath(node).empty())
                types.emplace(path, moduleType(node));
            if (path.empty())
                continue;
            root = first ? path : commonAncestor(root, path);
            first = false;
        }
        rootDepth = depth(root);
    }

    std::string typeOf(std::string_view path) const
    {
        auto it = types.find(path);
        return it == types.end() ? std::string() : std::string(it->second);
    }
};

NodeBlock makeBlock(const json& nodes, const BlockNames& names, bool added, int first, int count)
{
    NodeBlock block{added, first, count, {}, {}, {}};
    // The deepest module holding every node of the block; when that is the outermost one (two
    // layers side by side in a Sequential), the modules themselves, up to three.
    std::vector<std::string_view> owners;
    std::string_view ancestor;
    std::map<std::string, int> ops;
    for (int i = first; i < first + count; ++i) {
        const json& node = nodes[static_cast<std::size_t>(i)];
        if (const std::string_view path = owner(node); !path.empty()) {
            ancestor = owners.empty() ? path : commonAncestor(ancestor, path);
            if (std::find(owners.begin(), owners.end(), path) == owners.end())
                owners.push_back(path);
        }
        const std::string& target = text(node, "target");
        if (text(node, "op") == "call_function")
            ++ops[target];
        else if (!text(node, "kind").empty() && text(node, "kind") != "output")
            ++ops[text(node, "kind")];  // parameter, buffer, input, constant
    }
    if (owners.size() == 1 || (!owners.empty() && depth(ancestor) > names.rootDepth)) {
        block.module = std::string(ancestor);
        block.moduleType = names.typeOf(ancestor);
    } else {
        std::vector<std::string> types;
        for (std::size_t k = 0; k < owners.size() && k < 3; ++k) {
            block.module += (k ? ", " : "") + std::string(owners[k]);
            if (std::string t = names.typeOf(owners[k]);
                !t.empty() && std::find(types.begin(), types.end(), t) == types.end())
                types.push_back(std::move(t));
        }
        if (owners.size() > 3)
            block.module += ", …";
        for (const std::string& t : types)
            block.moduleType += (block.moduleType.empty() ? "" : ", ") + t;
    }
    std::vector<std::pair<int, std::string>> byCount;
    for (const auto& [op, n] : ops)
        byCount.emplace_back(-n, op);
    std::sort(byCount.begin(), byCount.end());
    for (std::size_t k = 0; k < byCount.size() && k < 3; ++k) {
        std::string op = byCount[k].second;
        if (op.rfind("aten.", 0) == 0)
            op = op.substr(5);
        if (auto dot = op.rfind(".default"); dot != std::string::npos && dot + 8 == op.size())
            op.resize(dot);
        block.ops += (block.ops.empty() ? "" : ", ") + op;
        if (-byCount[k].first > 1)
            block.ops += " x" + std::to_string(-byCount[k].first);
    }
    if (byCount.size() > 3)
        block.ops += ", …";
    return block;
}

void collectBlocks(
    const json& graph, const json& nodes, const std::vector<int>& indices, bool added, std::vector<NodeBlock>& out)
{
    const BlockNames names(graph, nodes);
    std::size_t k = 0;
    while (k < indices.size()) {
        std::size_t end = k + 1;
        while (end < indices.size() && indices[end] == indices[end - 1] + 1)
            ++end;
        out.push_back(makeBlock(nodes, names, added, indices[k], static_cast<int>(end - k)));
        k = end;
    }
}

}  // namespace

GraphDiff GraphDiff::compare(const json& graphA, const json& graphB, const TextDiff* scriptLines)
{
    GraphDiff d;
    const json& a = nodeList(graphA);
    const json& b = nodeList(graphB);
    d.m_missing = !a.is_array() || !b.is_array();
    if (d.m_missing)
        return d;
    d.m_nodesA = static_cast<int>(a.size());
    d.m_nodesB = static_cast<int>(b.size());

    // Modules first: identical ones pair, then similar ones between them; a module of a that
    // pairs with another path of b is renamed (a layer inserted before it shifts its index).
    const Modules ma(a);
    const Modules mb(b);
    std::unordered_map<std::string_view, std::string_view> moduleMap;
    std::unordered_map<std::string_view, bool> mappedB;
    // the same path with the same nodes first (among identical layers, the one of the same name),
    // then the same nodes, then the same ops, then the same path and type (a layer whose ops
    // changed), then the same type
    auto moduleLevels = [](const Modules& m) {
        std::vector<std::vector<std::uint64_t>> levels(5);
        for (std::size_t k = 0; k < m.paths.size(); ++k) {
            const std::uint64_t path = mix(kSeed, m.paths[k]);
            levels[0].push_back(mix(path ^ m.strict[k], "ps"));
            levels[1].push_back(m.strict[k]);
            levels[2].push_back(m.loose[k]);
            levels[3].push_back(mix(path ^ m.type[k], "pt"));
            levels[4].push_back(m.type[k]);
        }
        return levels;
    };
    for (const auto& [i, j] : SequenceDiff::alignLevels(moduleLevels(ma), moduleLevels(mb))) {
        const std::string& pa = ma.paths[static_cast<std::size_t>(i)];
        const std::string& pb = mb.paths[static_cast<std::size_t>(j)];
        moduleMap.emplace(pa, pb);
        mappedB.emplace(pb, true);
        if (pa != pb)
            d.m_renames.emplace(pa, pb);
    }
    bool approximate = SequenceDiff::lastWasApproximate();

    // Then nodes: what each is, in the module it maps to; identical shapes pair first, and among
    // identical nodes the one of the same name.
    auto nodeLevels = [&](const json& nodes, bool sideA) {
        std::vector<std::vector<std::uint64_t>> levels(3);
        for (auto& level : levels)
            level.reserve(nodes.size());
        const Modules& own = sideA ? ma : mb;
        for (const json& node : nodes) {
            // A parameter or buffer is keyed by the module owning it and its own name ("weight"),
            // so that it pairs with its module's counterpart (renamed or not), not by position.
            const std::string_view path = owner(node);
            std::uint64_t h = mix(kSeed, text(node, "phase"));
            h = what(h, node);
            if (modulePath(node).empty() && !path.empty())
                h = mix(h, leafName(node));
            if (path.empty()) {
                h = mix(h, "-");
            } else if (!own.index.count(path)) {
                h = mix(mix(h, "q:"), path);  // a module with no nodes of its own: by its path
            } else if (sideA) {
                auto m = moduleMap.find(path);
                h = m != moduleMap.end() ? mix(h, m->second) : mix(mix(h, "a:"), path);
            } else {
                h = mappedB.count(path) ? mix(h, path) : mix(mix(h, "b:"), path);
            }
            const std::uint64_t strict = shapeKey(h, node);
            levels[0].push_back(mix(strict, text(node, "name")));
            levels[1].push_back(strict);
            levels[2].push_back(h);
        }
        return levels;
    };
    d.m_matched = SequenceDiff::alignLevels(nodeLevels(a, true), nodeLevels(b, false));
    d.m_approximate = approximate || SequenceDiff::lastWasApproximate();

    std::vector<int> aToB(a.size(), -1);
    std::vector<bool> bMatched(b.size(), false);
    for (const auto& [i, j] : d.m_matched) {
        aToB[static_cast<std::size_t>(i)] = j;
        bMatched[static_cast<std::size_t>(j)] = true;
    }
    for (int i = 0; i < d.m_nodesA; ++i)
        if (aToB[static_cast<std::size_t>(i)] < 0)
            d.m_removed.push_back(i);
    for (int j = 0; j < d.m_nodesB; ++j)
        if (!bMatched[static_cast<std::size_t>(j)])
            d.m_added.push_back(j);

    const auto nameA = indexByName(a);
    const auto nameB = indexByName(b);
    for (const auto& [i, j] : d.m_matched) {
        const json& na = a[static_cast<std::size_t>(i)];
        const json& nb = b[static_cast<std::size_t>(j)];
        d.m_nameMap.emplace(text(na, "name"), text(nb, "name"));
        NodeChange change{i, j, {}};
        if (what(kSeed, na) != what(kSeed, nb))  // only where two keys collided
            change.fields.push_back({"op", text(na, "target"), text(nb, "target")});
        for (const char* key : {"shape", "dtype", "stride", "device"}) {
            const auto va = na.find(key);
            const auto vb = nb.find(key);
            const bool inA = va != na.end();
            const bool inB = vb != nb.end();
            if (inA != inB || (inA && *va != *vb))  // printed only when they differ
                change.fields.push_back({key, field(na, key), field(nb, key)});
        }
        const std::string& pa = modulePath(na);
        const std::string& pb = modulePath(nb);
        if (pa != pb) {
            auto renamed = d.m_renames.find(pa);
            if (renamed == d.m_renames.end() || renamed->second != pb)
                change.fields.push_back({"module", pa.empty() ? "-" : pa, pb.empty() ? "-" : pb});
        }
        const auto la = sourceLine(na);
        const auto lb = sourceLine(nb);
        if (la && lb) {
            const std::optional<int> expected = scriptLines ? scriptLines->mapLine(*la) : la;
            if (!expected)
                change.fields.push_back(
                    {"source", "line " + std::to_string(*la) + " (edited)", "line " + std::to_string(*lb)});
            else if (*expected != *lb)
                change.fields.push_back({"source", "line " + std::to_string(*la), "line " + std::to_string(*lb)});
        } else if (la.has_value() != lb.has_value()) {
            change.fields.push_back(
                {"source", la ? "line " + std::to_string(*la) : "-", lb ? "line " + std::to_string(*lb) : "-"});
        }
        // Inputs: each of a's inputs must be matched to b's input in the same position.
        const std::vector<std::string> ia = inputNames(na);
        const std::vector<std::string> ib = inputNames(nb);
        bool same = ia.size() == ib.size();
        for (std::size_t k = 0; same && k < ia.size(); ++k) {
            auto fa = nameA.find(ia[k]);
            auto fb = nameB.find(ib[k]);
            same = fa != nameA.end() && fb != nameB.end() && aToB[static_cast<std::size_t>(fa->second)] == fb->second;
        }
        if (!same)
            change.fields.push_back({"inputs", joined(ia), joined(ib)});
        if (!change.fields.empty())
            d.m_changed.push_back(std::move(change));
    }
    collectBlocks(graphA, a, d.m_removed, false, d.m_blocks);
    collectBlocks(graphB, b, d.m_added, true, d.m_blocks);
    return d;
}

json GraphDiff::toJson(const json& graphA, const json& graphB) const
{
    constexpr std::size_t kListed = 200;
    const json& a = nodeList(graphA);
    const json& b = nodeList(graphB);
    json out = {{"identical", identical()}, {"missing", m_missing}, {"nodes_a", m_nodesA}, {"nodes_b", m_nodesB},
        {"matched", m_matched.size()}, {"added", m_added.size()}, {"removed", m_removed.size()},
        {"changed", m_changed.size()}, {"approximate", m_approximate}, {"renames", m_renames}};
    json blocks = json::array();
    for (const NodeBlock& block : m_blocks) {
        const json& nodes = block.added ? b : a;
        blocks.push_back({{"kind", block.added ? "added" : "removed"},
            {"first", text(nodes[static_cast<std::size_t>(block.first)], "name")}, {"count", block.count},
            {"module", block.module}, {"module_type", block.moduleType}, {"ops", block.ops}});
    }
    out["blocks"] = std::move(blocks);
    json changed = json::array();
    for (std::size_t k = 0; k < m_changed.size() && k < kListed; ++k) {
        const NodeChange& c = m_changed[k];
        json fields = json::array();
        for (const FieldChange& f : c.fields)
            fields.push_back({{"field", f.field}, {"before", f.before}, {"after", f.after}});
        changed.push_back({{"a", text(a[static_cast<std::size_t>(c.a)], "name")},
            {"b", text(b[static_cast<std::size_t>(c.b)], "name")},
            {"target", text(b[static_cast<std::size_t>(c.b)], "target")}, {"fields", std::move(fields)}});
    }
    out["changed_nodes"] = std::move(changed);
    out["changed_nodes_truncated"] = m_changed.size() > kListed;
    return out;
}

}  // namespace ps::compare
