#include "compare/NodeBlocks.h"

#include "compare/NodeFields.h"

#include <algorithm>
#include <map>
#include <string>
#include <string_view>
#include <tuple>
#include <unordered_map>

namespace ps::compare {

namespace {

using nlohmann::json;
using F = NodeFields;

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
                    types.emplace(F::text(m, "path"), F::text(m, "type"));
        bool first = true;
        std::string_view root;
        for (const json& node : nodes) {
            const std::string_view path = F::owner(node);
            if (!F::modulePath(node).empty())
                types.emplace(path, F::moduleType(node));
            if (path.empty())
                continue;
            root = first ? path : F::commonAncestor(root, path);
            first = false;
        }
        rootDepth = F::depth(root);
    }

    std::string typeOf(std::string_view path) const
    {
        auto it = types.find(path);
        return it == types.end() ? std::string() : std::string(it->second);
    }
};

/// The modules a set of nodes is named by: the deepest module holding them all, or where that
/// is the outermost module (two layers side by side in a Sequential), the modules themselves.
std::vector<std::string_view> namesOf(const std::vector<std::string_view>& owners, int rootDepth)
{
    if (owners.empty())
        return {};
    std::string_view ancestor = owners.front();
    for (std::string_view p : owners)
        ancestor = F::commonAncestor(ancestor, p);
    if (owners.size() == 1 || F::depth(ancestor) > rootDepth)
        return {ancestor};
    return owners;
}

/// Whether `path` is one of `names` or inside one of them.
bool covered(std::string_view path, const std::vector<std::string_view>& names)
{
    return std::any_of(names.begin(), names.end(), [path](std::string_view n) {
        return path == n || (path.size() > n.size() && path.substr(0, n.size()) == n && path[n.size()] == '.');
    });
}

bool allCovered(const std::vector<std::string_view>& paths, const std::vector<std::string_view>& names)
{
    return std::all_of(paths.begin(), paths.end(), [&](std::string_view p) { return covered(p, names); });
}

std::vector<std::string_view> ownersOf(const json& nodes, const std::vector<int>& indices)
{
    std::vector<std::string_view> owners;
    for (int i : indices)
        if (const std::string_view path = F::owner(nodes[static_cast<std::size_t>(i)]);
            !path.empty() && std::find(owners.begin(), owners.end(), path) == owners.end())
            owners.push_back(path);
    return owners;
}

NodeBlock makeBlock(const json& nodes, const BlockNames& names, bool added, const std::vector<int>& indices)
{
    NodeBlock block;
    block.added = added;
    block.first = indices.front();
    block.count = static_cast<int>(indices.size());
    const std::vector<std::string_view> owners = ownersOf(nodes, indices);
    const std::vector<std::string_view> named = namesOf(owners, names.rootDepth);
    block.modules.assign(named.begin(), named.end());
    std::vector<std::string> types;
    for (std::size_t k = 0; k < named.size() && k < 3; ++k) {
        block.module += (k ? ", " : "") + std::string(named[k]);
        if (std::string t = names.typeOf(named[k]);
            !t.empty() && std::find(types.begin(), types.end(), t) == types.end())
            types.push_back(std::move(t));
    }
    if (named.size() > 3)
        block.module += ", …";
    for (const std::string& t : types)
        block.moduleType += (block.moduleType.empty() ? "" : ", ") + t;

    // The three commonest ops, those that compute first (getitem and alias only pick outputs and
    // views); then the placeholders by kind.
    std::map<std::string, int> ops;
    std::map<std::string, int> kinds;
    for (int i : indices) {
        const json& node = nodes[static_cast<std::size_t>(i)];
        if (F::text(node, "op") == "call_function")
            ++ops[F::text(node, "target")];
        else if (!F::text(node, "kind").empty() && F::text(node, "kind") != "output")
            ++kinds[F::text(node, "kind")];  // parameter, buffer, input, constant
    }
    const auto plumbing = [](const std::string& op) { return op == "operator.getitem" || op == "aten.alias.default"; };
    std::vector<std::tuple<bool, int, std::string>> byCount;
    for (const auto& [op, n] : ops)
        byCount.emplace_back(plumbing(op), -n, op);
    std::sort(byCount.begin(), byCount.end());
    const auto counted = [](std::string name, int n) { return n > 1 ? name + " x" + std::to_string(n) : name; };
    for (std::size_t k = 0; k < byCount.size() && k < 3; ++k) {
        std::string op = std::get<2>(byCount[k]);
        if (op.rfind("aten.", 0) == 0)
            op = op.substr(5);
        if (auto dot = op.rfind(".default"); dot != std::string::npos && dot + 8 == op.size())
            op.resize(dot);
        block.ops += (block.ops.empty() ? "" : ", ") + counted(op, -std::get<1>(byCount[k]));
    }
    if (byCount.size() > 3)
        block.ops += ", …";
    std::vector<std::pair<int, std::string>> byKind;
    for (const auto& [kind, n] : kinds)
        byKind.emplace_back(-n, kind);
    std::sort(byKind.begin(), byKind.end());
    for (std::size_t k = 0; k < byKind.size(); ++k)
        block.ops += (k == 0 ? (block.ops.empty() ? "" : "; ") : ", ") + counted(byKind[k].second, -byKind[k].first);
    return block;
}

}  // namespace

std::vector<NodeBlock> NodeBlocks::collect(
    const json& graph, const json& nodes, const std::vector<int>& indices, bool added)
{
    std::vector<NodeBlock> out;
    const BlockNames names(graph, nodes);
    struct Group {
        std::vector<int> indices;
        std::vector<std::string_view> owners;
        std::vector<std::string_view> named;
    };
    std::vector<Group> groups;
    std::unordered_map<std::string_view, int> byPrefix;  ///< every prefix of a group's modules -> it
    std::size_t k = 0;
    while (k < indices.size()) {
        std::size_t end = k + 1;
        while (end < indices.size() && indices[end] == indices[end - 1] + 1)
            ++end;
        Group run{std::vector<int>(indices.begin() + static_cast<std::ptrdiff_t>(k),
                      indices.begin() + static_cast<std::ptrdiff_t>(end)),
            {}, {}};
        run.owners = ownersOf(nodes, run.indices);
        run.named = namesOf(run.owners, names.rootDepth);
        // Candidates: the latest group with a module on the path of the run's first module, or
        // one under a name of the run (an index of every prefix of every group's modules: no scan
        // of all the groups per run).
        int into = -1;
        auto tryGroup = [&](std::string_view path) {
            auto it = byPrefix.find(path);
            if (into < 0 && it != byPrefix.end()) {
                const Group& g = groups[static_cast<std::size_t>(it->second)];
                if (allCovered(run.owners, g.named) || allCovered(g.owners, run.named))
                    into = it->second;
            }
        };
        if (!run.owners.empty()) {
            for (std::string_view p = run.owners.front();; p = p.substr(0, p.rfind('.'))) {
                tryGroup(p);
                if (p.find('.') == std::string_view::npos)
                    break;
            }
            for (std::string_view n : run.named)
                tryGroup(n);
        }
        if (into < 0) {
            into = static_cast<int>(groups.size());
            groups.push_back(std::move(run));
        } else {
            Group& g = groups[static_cast<std::size_t>(into)];
            g.indices.insert(g.indices.end(), run.indices.begin(), run.indices.end());
            for (std::string_view p : run.owners)
                if (std::find(g.owners.begin(), g.owners.end(), p) == g.owners.end())
                    g.owners.push_back(p);
            g.named = namesOf(g.owners, names.rootDepth);
        }
        for (std::string_view owner : groups[static_cast<std::size_t>(into)].owners)
            for (std::string_view p = owner;; p = p.substr(0, p.rfind('.'))) {
                byPrefix[p] = into;
                if (p.find('.') == std::string_view::npos)
                    break;
            }
        k = end;
    }
    for (Group& g : groups) {
        std::sort(g.indices.begin(), g.indices.end());
        out.push_back(makeBlock(nodes, names, added, g.indices));
    }
    return out;
}

}  // namespace ps::compare
