#include "compare/GraphDiff.h"

#include "compare/NodeBlocks.h"
#include "compare/NodeFields.h"
#include "compare/SequenceDiff.h"
#include "compare/TextDiff.h"

#include <algorithm>
#include <cstdint>
#include <optional>
#include <string_view>
#include <tuple>
#include <unordered_map>

namespace ps::compare {

namespace {

using nlohmann::json;
constexpr auto text = NodeFields::text;
constexpr auto modulePath = NodeFields::modulePath;
constexpr auto moduleType = NodeFields::moduleType;
constexpr auto owner = NodeFields::owner;
constexpr auto leafName = NodeFields::leafName;

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

struct SourceLine {
    std::string file;
    int line = 0;
};

std::optional<SourceLine> sourceLine(const json& node)
{
    auto it = node.find("source");
    if (it == node.end() || !it->is_object())
        return std::nullopt;
    auto line = it->find("line");
    if (line == it->end() || !line->is_number_integer())
        return std::nullopt;
    auto file = it->find("file");
    return SourceLine{
        file != it->end() && file->is_string() ? file->get<std::string>() : std::string(), line->get<int>()};
}

/// "line 12" for a line of the side's script, "gpt.py:60" for a line of another file.
std::string shown(const SourceLine& s, bool ofScript)
{
    if (ofScript || s.file.empty())
        return "line " + std::to_string(s.line);
    const auto slash = s.file.find_last_of('/');
    return (slash == std::string::npos ? s.file : s.file.substr(slash + 1)) + ":" + std::to_string(s.line);
}

/// The "source" field of two matched nodes, if their lines differ: a script line through the
/// scripts' text diff, a line of another file as it is, with its file.
std::optional<FieldChange> sourceChange(const json& na, const json& nb, const ScriptLines* lines)
{
    const auto la = sourceLine(na);
    const auto lb = sourceLine(nb);
    if (!la && !lb)
        return std::nullopt;
    const bool scriptA = la && lines && la->file == lines->fileA;
    const bool scriptB = lb && lines && lb->file == lines->fileB;
    if (!la || !lb)
        return FieldChange{"source", la ? shown(*la, scriptA) : "-", lb ? shown(*lb, scriptB) : "-"};
    if (scriptA && scriptB) {
        const std::optional<int> expected = lines->map ? lines->map->mapLine(la->line) : la->line;
        if (!expected)
            return FieldChange{"source", shown(*la, true) + " (edited)", shown(*lb, true)};
        if (*expected != lb->line)
            return FieldChange{"source", shown(*la, true), shown(*lb, true)};
        return std::nullopt;
    }
    if (scriptA != scriptB || la->file != lb->file || la->line != lb->line)
        return FieldChange{"source", shown(*la, scriptA), shown(*lb, scriptB)};
    return std::nullopt;
}

std::string compactValue(const json& value)
{
    return value.is_null() ? std::string("-") : value.dump();
}

std::string field(const json& node, const char* key)
{
    auto it = node.find(key);
    return it == node.end() ? std::string("-") : compactValue(*it);
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

/// The modules of one side in the order they compute (then those with only parameters), each
/// keyed by its type, its nodes' ops (loose) and their shapes too (strict), its parameters and
/// buffers included (make_fx lists them all first: ordered by them, every Linear would come
/// before any ReLU).
struct Modules {
    std::vector<std::string_view> paths;
    std::unordered_map<std::string_view, int> index;
    std::vector<std::uint64_t> type;
    std::vector<std::uint64_t> loose;
    std::vector<std::uint64_t> strict;
    /// Its ops and the shape of what it computes last (its output): a layer whose input grew
    /// keeps it, one inserted before it does not.
    std::vector<std::uint64_t> output;

    explicit Modules(const json& nodes)
    {
        for (const bool placeholders : {false, true})
            for (const json& node : nodes)
                if ((text(node, "op") == "placeholder") == placeholders)
                    add(node);
        for (std::size_t k = 0; k < paths.size(); ++k)
            output[k] = mix(output[k] ^ loose[k], "out");
    }

private:
    void add(const json& node)
    {
        const std::string_view path = owner(node);
        if (path.empty())
            return;
        auto [it, fresh] = index.emplace(path, static_cast<int>(paths.size()));
        if (fresh) {
            paths.push_back(path);
            type.push_back(mix(kSeed, moduleType(node)));
            loose.push_back(type.back());
            strict.push_back(type.back());
            output.push_back(kSeed);
        }
        const std::size_t k = static_cast<std::size_t>(it->second);
        loose[k] = what(loose[k], node);
        strict[k] = shapeKey(what(strict[k], node), node);
        if (text(node, "op") != "placeholder")
            output[k] = shapeKey(kSeed, node);
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

/// Input names as a user reads them: a placeholder by its qualified name (model.2.bias, x), not
/// its generated flat_N.
std::string joined(
    const std::vector<std::string>& names, const json& nodes, const std::unordered_map<std::string_view, int>& byName)
{
    std::string out;
    for (const std::string& n : names) {
        auto it = byName.find(n);
        out += (out.empty() ? "" : ", ")
            + (it == byName.end() ? n : NodeFields::shownName(nodes[static_cast<std::size_t>(it->second)]));
    }
    return out.empty() ? std::string("-") : out;
}

// Two orders of preference, the better kept: the same path with the same nodes first (among
// identical layers, the one of the same name), then the same nodes, then the same ops and
// output (a layer whose input grew), then the same ops, then the same path and type (a layer
// whose ops changed), then the same type; or the same without the path first. Path first misreads a layer inserted
// in a stack of identical ones (the layers after it keep their paths' twins: it would say the last layer was added
// and the inserted one changed one); it is kept only where it pairs as many identical modules.
std::vector<std::vector<std::uint64_t>> moduleLevels(const Modules& m, bool pathFirst)
{
    std::vector<std::vector<std::uint64_t>> levels;
    for (int level = pathFirst ? 0 : 1; level < 6; ++level) {
        std::vector<std::uint64_t> keys;
        keys.reserve(m.paths.size());
        for (std::size_t k = 0; k < m.paths.size(); ++k) {
            const std::uint64_t path = mix(kSeed, m.paths[k]);
            const std::uint64_t key[6] = {mix(path ^ m.strict[k], "ps"), m.strict[k], m.output[k], m.loose[k],
                mix(path ^ m.type[k], "pt"), m.type[k]};
            keys.push_back(key[level]);
        }
        levels.push_back(std::move(keys));
    }
    return levels;
}

Alignment alignModules(const Modules& ma, const Modules& mb)
{
    const auto identicalPairs = [&](const Alignment& found) {
        return std::count_if(found.pairs.begin(), found.pairs.end(), [&](const std::pair<int, int>& p) {
            return ma.strict[static_cast<std::size_t>(p.first)] == mb.strict[static_cast<std::size_t>(p.second)];
        });
    };
    Alignment modules = SequenceDiff::alignLevels(moduleLevels(ma, true), moduleLevels(mb, true));
    if (Alignment byNodes = SequenceDiff::alignLevels(moduleLevels(ma, false), moduleLevels(mb, false));
        identicalPairs(byNodes) > identicalPairs(modules))
        modules = std::move(byNodes);
    return modules;
}

/// Aligned modules: a's path -> b's, the b paths paired, and the paths that changed.
struct ModuleMap {
    std::unordered_map<std::string_view, std::string_view> aToB;
    std::unordered_map<std::string_view, bool> mappedB;
    std::map<std::string, std::string> renames;
};

ModuleMap mapModules(const Modules& ma, const Modules& mb, const Alignment& modules)
{
    ModuleMap map;
    for (const auto& [i, j] : modules.pairs) {
        const std::string_view pa = ma.paths[static_cast<std::size_t>(i)];
        const std::string_view pb = mb.paths[static_cast<std::size_t>(j)];
        map.aToB.emplace(pa, pb);
        map.mappedB.emplace(pb, true);
        if (pa != pb)
            map.renames.emplace(std::string(pa), std::string(pb));
    }
    return map;
}

/// Node keys: what each is, in the module it maps to; identical shapes pair first, and among
/// identical nodes the one of the same name.
std::vector<std::vector<std::uint64_t>> nodeLevels(const json& nodes, bool sideA, const ModuleMap& modules)
{
    std::vector<std::vector<std::uint64_t>> levels(3);
    for (auto& level : levels)
        level.reserve(nodes.size());
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
        } else if (sideA) {
            auto m = modules.aToB.find(path);
            h = m != modules.aToB.end() ? mix(h, m->second) : mix(mix(h, "a:"), path);
        } else {
            h = modules.mappedB.count(path) ? mix(h, path) : mix(mix(h, "b:"), path);
        }
        const std::uint64_t strict = shapeKey(h, node);
        levels[0].push_back(mix(strict, text(node, "name")));
        levels[1].push_back(strict);
        levels[2].push_back(h);
    }
    return levels;
}

/// The two node lists with the node matching: what comparing a matched pair reads.
struct MatchedSides {
    const json& a;
    const json& b;
    std::unordered_map<std::string_view, int> nameA;
    std::unordered_map<std::string_view, int> nameB;
    std::vector<int> aToB;  ///< per node of a its match in b, or -1
};

/// Each of a's inputs must be matched to b's input in the same position.
std::optional<FieldChange> inputsChange(const json& na, const json& nb, const MatchedSides& sides)
{
    const std::vector<std::string> ia = inputNames(na);
    const std::vector<std::string> ib = inputNames(nb);
    bool same = ia.size() == ib.size();
    for (std::size_t k = 0; same && k < ia.size(); ++k) {
        auto fa = sides.nameA.find(ia[k]);
        auto fb = sides.nameB.find(ib[k]);
        same = fa != sides.nameA.end() && fb != sides.nameB.end()
            && sides.aToB[static_cast<std::size_t>(fa->second)] == fb->second;
    }
    if (same)
        return std::nullopt;
    return FieldChange{"inputs", joined(ia, sides.a, sides.nameA), joined(ib, sides.b, sides.nameB)};
}

/// The fields of a matched pair that differ: op (only where two keys collided), shape, dtype,
/// stride, device, module (unless renamed with its module), source, inputs.
std::vector<FieldChange> fieldChanges(const json& na, const json& nb, const MatchedSides& sides,
    const std::map<std::string, std::string>& renames, const ScriptLines* scriptLines)
{
    std::vector<FieldChange> fields;
    if (what(kSeed, na) != what(kSeed, nb))
        fields.push_back({"op", text(na, "target"), text(nb, "target")});
    for (const char* key : {"shape", "dtype", "stride", "device"}) {
        const auto va = na.find(key);
        const auto vb = nb.find(key);
        const bool inA = va != na.end();
        const bool inB = vb != nb.end();
        if (inA != inB || (inA && *va != *vb))  // printed only when they differ
            fields.push_back({key, field(na, key), field(nb, key)});
    }
    const std::string& pa = modulePath(na);
    const std::string& pb = modulePath(nb);
    if (pa != pb) {
        auto renamed = renames.find(pa);
        if (renamed == renames.end() || renamed->second != pb)
            fields.push_back({"module", pa.empty() ? "-" : pa, pb.empty() ? "-" : pb});
    }
    if (auto source = sourceChange(na, nb, scriptLines))
        fields.push_back(std::move(*source));
    if (auto inputs = inputsChange(na, nb, sides))
        fields.push_back(std::move(*inputs));
    return fields;
}

}  // namespace

GraphDiff GraphDiff::compare(const json& graphA, const json& graphB, const ScriptLines* scriptLines)
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
    const Alignment modules = alignModules(ma, mb);
    ModuleMap moduleMap = mapModules(ma, mb, modules);
    d.m_renames = std::move(moduleMap.renames);

    // Then nodes, in the modules they map to.
    Alignment nodes = SequenceDiff::alignLevels(nodeLevels(a, true, moduleMap), nodeLevels(b, false, moduleMap));
    d.m_matched = std::move(nodes.pairs);
    d.m_approximate = modules.approximate || nodes.approximate;
    MatchedSides sides{a, b, indexByName(a), indexByName(b), std::vector<int>(a.size(), -1)};
    d.partition(sides.aToB);

    for (const auto& [i, j] : d.m_matched) {
        const json& na = a[static_cast<std::size_t>(i)];
        const json& nb = b[static_cast<std::size_t>(j)];
        d.m_nameMap.emplace(text(na, "name"), text(nb, "name"));
        NodeChange change{i, j, fieldChanges(na, nb, sides, d.m_renames, scriptLines)};
        if (!change.fields.empty())
            d.m_changed.push_back(std::move(change));
    }
    d.m_blocks = NodeBlocks::collect(graphA, a, d.m_removed, false);
    for (NodeBlock& block : NodeBlocks::collect(graphB, b, d.m_added, true))
        d.m_blocks.push_back(std::move(block));
    return d;
}

void GraphDiff::partition(std::vector<int>& aToB)
{
    std::vector<bool> bMatched(static_cast<std::size_t>(m_nodesB), false);
    for (const auto& [i, j] : m_matched) {
        aToB[static_cast<std::size_t>(i)] = j;
        bMatched[static_cast<std::size_t>(j)] = true;
    }
    for (int i = 0; i < m_nodesA; ++i)
        if (aToB[static_cast<std::size_t>(i)] < 0)
            m_removed.push_back(i);
    for (int j = 0; j < m_nodesB; ++j)
        if (!bMatched[static_cast<std::size_t>(j)])
            m_added.push_back(j);
}

std::vector<std::pair<std::string, std::string>> GraphDiff::outermostRenames() const
{
    std::vector<std::pair<std::string, std::string>> out;
    for (const auto& [from, to] : m_renames) {
        const auto dot = from.rfind('.');
        const auto parent = dot == std::string::npos ? m_renames.end() : m_renames.find(from.substr(0, dot));
        if (parent == m_renames.end() || to.rfind(parent->second + ".", 0) != 0)
            out.emplace_back(from, to);
    }
    return out;
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
