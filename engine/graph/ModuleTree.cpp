#include "graph/ModuleTree.h"

#include "graph/GraphModel.h"

#include <algorithm>

namespace ps::graph {

namespace {

/// "a..b." -> "a.b": an empty segment names no module (and would show as a blank box).
std::string normalisedPath(const std::string& path)
{
    if (path.find("..") == std::string::npos && (path.empty() || (path.front() != '.' && path.back() != '.')))
        return path;
    std::string out;
    std::size_t start = 0;
    while (start <= path.size()) {
        const std::size_t dot = std::min(path.find('.', start), path.size());
        if (dot > start) {
            if (!out.empty())
                out += '.';
            out.append(path, start, dot - start);
        }
        start = dot + 1;
    }
    return out;
}

}  // namespace

int ModuleTree::intern(const std::string& path, const std::unordered_map<std::string, std::string>& types)
{
    if (auto it = m_byPath.find(path); it != m_byPath.end())
        return it->second;
    const auto dot = path.rfind('.');
    const int parent = intern(dot == std::string::npos ? std::string() : path.substr(0, dot), types);
    Module m;
    m.path = path;
    m.name = dot == std::string::npos ? path : path.substr(dot + 1);
    if (auto t = types.find(path); t != types.end())
        m.type = t->second;
    m.parent = parent;
    m.depth = m_modules[static_cast<std::size_t>(parent)].depth + 1;
    const int id = static_cast<int>(m_modules.size());
    m_modules.push_back(std::move(m));
    m_modules[static_cast<std::size_t>(parent)].children.push_back(id);
    m_byPath.emplace(path, id);
    return id;
}

ModuleTree ModuleTree::build(const GraphModel& graph)
{
    ModuleTree t;
    t.m_modules.push_back(Module{});
    t.m_byPath.emplace(std::string(), 0);
    const auto& nodes = graph.nodes();
    const auto& types = graph.moduleTypes();
    t.m_moduleOf.assign(nodes.size(), 0);
    for (std::size_t i = 0; i < nodes.size(); ++i) {
        const auto& n = nodes[i];
        std::string path = normalisedPath(n.modulePath);
        if (path.empty() && (n.kind == "parameter" || n.kind == "buffer")) {
            // "model.0.weight" lives in "model.0" when the graph knows that module.
            const auto dot = n.qualname.rfind('.');
            if (dot != std::string::npos) {
                std::string owner = n.qualname.substr(0, dot);
                if (types.count(owner) || t.m_byPath.count(owner))
                    path = std::move(owner);
            }
        }
        const int m = path.empty() ? 0 : t.intern(path, types);
        t.m_moduleOf[i] = m;
        t.m_modules[static_cast<std::size_t>(m)].nodes.push_back(static_cast<int>(i));
    }
    // Totals bottom-up: a child always has a larger id than its parent.
    for (auto& m : t.m_modules)
        m.total = static_cast<int>(m.nodes.size());
    for (std::size_t id = t.m_modules.size(); id-- > 1;)
        t.m_modules[static_cast<std::size_t>(t.m_modules[id].parent)].total += t.m_modules[id].total;
    return t;
}

int ModuleTree::find(const std::string& path) const
{
    auto it = m_byPath.find(normalisedPath(path));
    return it == m_byPath.end() ? -1 : it->second;
}

bool ModuleTree::contains(int ancestor, int module) const
{
    for (int m = module; m >= 0; m = m_modules[static_cast<std::size_t>(m)].parent)
        if (m == ancestor)
            return true;
    return false;
}

std::vector<int> ModuleTree::chain(int module) const
{
    std::vector<int> out;
    for (int m = module; m > 0; m = m_modules[static_cast<std::size_t>(m)].parent)
        out.push_back(m);
    std::reverse(out.begin(), out.end());
    return out;
}

std::vector<int> ModuleTree::nodesIn(int module) const
{
    std::vector<int> out;
    std::vector<int> stack{module};
    while (!stack.empty()) {
        const auto& m = m_modules[static_cast<std::size_t>(stack.back())];
        stack.pop_back();
        out.insert(out.end(), m.nodes.begin(), m.nodes.end());
        stack.insert(stack.end(), m.children.begin(), m.children.end());
    }
    std::sort(out.begin(), out.end());
    return out;
}

int ModuleTree::largest() const
{
    int best = -1;
    for (std::size_t id = 1; id < m_modules.size(); ++id)
        if (best < 0 || m_modules[id].total > m_modules[static_cast<std::size_t>(best)].total)
            best = static_cast<int>(id);
    return best;
}

}  // namespace ps::graph
