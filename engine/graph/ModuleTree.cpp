#include "graph/ModuleTree.h"

#include "graph/GraphModel.h"

#include <algorithm>
#include <unordered_set>

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

/// What building the tree asks of a node, read once: string compares cost more than the rest.
struct NodeClass {
    enum Kind : std::uint8_t { Compute, Input, Weight, Output };  ///< Weight: parameter or buffer
    Kind kind = Compute;
    Phase recorded = Phase::None;
};

std::vector<NodeClass> classify(const std::vector<GraphNode>& nodes)
{
    std::vector<NodeClass> out(nodes.size());
    for (std::size_t i = 0; i < nodes.size(); ++i) {
        const auto& n = nodes[i];
        auto& c = out[i];
        if (isWeight(n.kind))
            c.kind = NodeClass::Weight;
        else if (n.kind == NodeKind::Input || std::string_view(n.op) == "placeholder")
            c.kind = NodeClass::Input;
        else if (n.kind == NodeKind::Output || std::string_view(n.op) == "output")
            c.kind = NodeClass::Output;
        c.recorded = n.phase;
    }
    return out;
}

/// Ops that compute nothing: they rename, reshape or pick a value ("alias -> grad" chains).
bool isPlumbing(const GraphNode& n)
{
    static const std::unordered_set<std::string> ops = {"alias", "detach", "view", "_unsafe_view", "reshape",
        "_reshape_alias", "t", "transpose", "permute", "expand", "squeeze", "unsqueeze", "clone", "contiguous",
        "as_strided", "view_as", "getitem", "operator.getitem"};
    return ops.count(n.shortTarget()) > 0;
}

/// "gradient of a, gradient of b": every role the node plays in the output is a gradient.
bool onlyGradients(const std::string& roles)
{
    if (roles.empty())
        return false;
    std::size_t start = 0;
    while (start < roles.size()) {
        if (roles.compare(start, 8, "gradient") != 0)
            return false;
        const std::size_t comma = roles.find(", ", start);
        if (comma == std::string::npos)
            break;
        start = comma + 2;
    }
    return true;
}

/// Per node the phase it counts in (see ModuleTree::phaseOf), in one pass in graph order.
std::vector<Phase> effectivePhases(const std::vector<GraphNode>& nodes, const std::vector<NodeClass>& cls)
{
    std::vector<Phase> phase(nodes.size(), Phase::None);
    for (std::size_t i = 0; i < nodes.size(); ++i) {
        if (cls[i].kind != NodeClass::Compute)
            continue;
        Phase p = cls[i].recorded == Phase::Backward ? Phase::Backward : Phase::Forward;
        for (int in : nodes[i].inputs)
            if (phase[static_cast<std::size_t>(in)] == Phase::Backward)
                p = Phase::Backward;
        phase[i] = p;
    }
    return phase;
}

/// The gradient bundle's nodes (see the header), deciding each node after its users: in
/// reverse graph order, which is topological.
std::vector<bool> gradientBundle(
    const std::vector<GraphNode>& nodes, const std::vector<NodeClass>& cls, const std::vector<Phase>& phase)
{
    std::vector<bool> in(nodes.size(), false);
    for (std::size_t i = nodes.size(); i-- > 0;) {
        const auto& n = nodes[i];
        if (phase[i] != Phase::Backward || n.users.empty())
            continue;
        const bool gradient = onlyGradients(n.outputRole);
        bool feedsOutputOnly = true, feedsBundle = true;
        for (int u : n.users) {
            const bool output = cls[static_cast<std::size_t>(u)].kind == NodeClass::Output;
            feedsOutputOnly = feedsOutputOnly && output;
            feedsBundle = feedsBundle && (output ? gradient : in[static_cast<std::size_t>(u)]);
        }
        if (!feedsBundle)
            continue;
        in[i] = isPlumbing(n) || (feedsOutputOnly && normalisedPath(n.modulePath).empty());
    }
    return in;
}

}  // namespace

int ModuleTree::addModule(Module m)
{
    const int id = static_cast<int>(m_modules.size());
    if (m.parent >= 0) {
        auto& parent = m_modules[static_cast<std::size_t>(m.parent)];
        m.depth = parent.depth + 1;
        parent.children.push_back(id);
    }
    m_byPath.emplace(m.path, id);
    m_modules.push_back(std::move(m));
    return id;
}

int ModuleTree::addGroup(std::string_view path, const char* name, Phase phase, Module::Role role, int parent)
{
    Module m;
    m.path = std::string(path);
    m.name = name;
    m.phase = phase;
    m.role = role;
    m.parent = parent;
    return addModule(std::move(m));
}

int ModuleTree::intern(
    const std::string& modelPath, Phase phase, const std::unordered_map<std::string, std::string>& types)
{
    // A backward copy's key is built in a reused buffer: lookups outnumber new modules.
    thread_local std::string key;
    const std::string* path = &modelPath;
    if (phase == Phase::Backward) {
        key.assign(kBackwardPrefix).append(modelPath);
        path = &key;
    }
    if (auto it = m_byPath.find(*path); it != m_byPath.end())
        return it->second;
    Module m;
    m.path = *path;
    const auto dot = modelPath.rfind('.');
    m.parent = dot == std::string::npos ? std::max(phaseGroup(phase), root())
                                        : intern(modelPath.substr(0, dot), phase, types);
    m.name = dot == std::string::npos ? modelPath : modelPath.substr(dot + 1);
    m.modelPath = modelPath;
    if (auto t = types.find(modelPath); t != types.end())
        m.type = t->second;
    m.phase = phase;
    return addModule(std::move(m));
}

ModuleTree ModuleTree::build(const GraphModel& graph)
{
    ModuleTree t;
    t.m_modules.push_back(Module{});
    t.m_byPath.emplace(std::string(), 0);
    const auto& nodes = graph.nodes();
    const auto& types = graph.moduleTypes();
    const auto cls = classify(nodes);
    bool forward = false, backward = false;
    for (const auto& c : cls) {
        forward = forward || c.recorded == Phase::Forward;
        backward = backward || c.recorded == Phase::Backward;
    }
    // Every module path is usually a known type; in a training step each has two copies.
    const std::size_t expected = (forward && backward ? 2 : 1) * (types.size() + 2);
    t.m_modules.reserve(expected);
    t.m_byPath.reserve(expected);
    std::vector<bool> bundle;
    if (forward && backward) {
        t.m_phaseOf = effectivePhases(nodes, cls);
        bundle = gradientBundle(nodes, cls, t.m_phaseOf);
        t.m_forward = t.addGroup(
            kForwardPrefix, toString(Phase::Forward).data(), Phase::Forward, Module::Role::PhaseGroup, root());
        t.m_backward = t.addGroup(
            kBackwardPrefix, toString(Phase::Backward).data(), Phase::Backward, Module::Role::PhaseGroup, root());
    }
    t.m_moduleOf.assign(nodes.size(), 0);
    std::string lastPath;
    Phase lastPhase = Phase::None;
    int lastModule = 0;
    // Parameters and buffers last, so that the modules come in the order the model computes
    // in (the placeholders list model.2.weight before model.1's first op) and a parameter finds
    // its module wherever a node of it was recorded.
    std::vector<std::size_t> order;
    order.reserve(nodes.size());
    for (int pass = 0; pass < 2; ++pass)
        for (std::size_t i = 0; i < nodes.size(); ++i)
            if ((cls[i].kind == NodeClass::Weight) == (pass == 1))
                order.push_back(i);
    for (std::size_t i : order) {
        const auto& n = nodes[i];
        // In a training step a parameter (and an unrecorded node) sits in the forward copy.
        const Phase phase = !t.phased() ? Phase::None : t.m_phaseOf[i] == Phase::None ? Phase::Forward : t.m_phaseOf[i];
        int m = 0;
        if (!bundle.empty() && bundle[i]) {
            if (t.m_gradients < 0)
                t.m_gradients
                    = t.addGroup(kGradientsPath, "gradients", Phase::Backward, Module::Role::Gradients, t.m_backward);
            m = t.m_gradients;
        } else if (!n.modulePath.empty() && n.modulePath == lastPath && phase == lastPhase) {
            m = lastModule;  // runs of nodes in one module: no string work
        } else {
            std::string path = normalisedPath(n.modulePath);
            if (path.empty() && cls[i].kind == NodeClass::Weight) {
                // "model.0.weight" lives in "model.0" when the graph knows that module.
                const auto dot = n.qualname.rfind('.');
                if (dot != std::string::npos) {
                    std::string owner = n.qualname.substr(0, dot);
                    if (types.count(owner) || t.m_byPath.count(owner))
                        path = std::move(owner);
                }
            }
            if (!path.empty())
                m = t.intern(path, phase, types);
            else if (t.phased() && t.m_phaseOf[i] != Phase::None)
                m = t.phaseGroup(t.m_phaseOf[i]);  // the loss, the backward outside every module
            if (!n.modulePath.empty()) {
                lastPath = n.modulePath;
                lastPhase = phase;
                lastModule = m;
            }
        }
        t.m_moduleOf[i] = m;
    }
    if (t.phased()) {
        // A phase's nodes outside every module (a loss of a few ops and its backward): one box.
        for (auto [group, path] :
            {std::pair{t.m_forward, kForwardOutsidePath}, std::pair{t.m_backward, kBackwardOutsidePath}}) {
            const auto outside = std::count(t.m_moduleOf.begin(), t.m_moduleOf.end(), group);
            if (outside < kOutsideBundleFrom)
                continue;
            const int bundle = t.addGroup(
                path, "outside", t.m_modules[static_cast<std::size_t>(group)].phase, Module::Role::Outside, group);
            std::replace(t.m_moduleOf.begin(), t.m_moduleOf.end(), group, bundle);
        }
    }
    for (std::size_t i = 0; i < nodes.size(); ++i)
        t.m_modules[static_cast<std::size_t>(t.m_moduleOf[i])].nodes.push_back(static_cast<int>(i));
    if (t.phased()) {
        t.m_twin.assign(t.m_modules.size(), -1);
        for (std::size_t id = 1; id < t.m_modules.size(); ++id) {
            const auto& m = t.m_modules[id];
            if (m.phase != Phase::Backward || m.role != Module::Role::Model)
                continue;
            if (auto f = t.m_byPath.find(m.modelPath); f != t.m_byPath.end()) {
                t.m_twin[id] = f->second;
                t.m_twin[static_cast<std::size_t>(f->second)] = static_cast<int>(id);
            }
        }
    }
    // Totals bottom-up: a child always has a larger id than its parent.
    for (auto& m : t.m_modules)
        m.total = static_cast<int>(m.nodes.size());
    for (std::size_t id = t.m_modules.size(); id-- > 1;)
        t.m_modules[static_cast<std::size_t>(t.m_modules[id].parent)].total += t.m_modules[id].total;
    t.markReentrant(graph);
    return t;
}

void ModuleTree::markReentrant(const GraphModel& graph)
{
    // Graph order is a topological order (make_fx's): a path from a module back into it runs
    // between the module's first and last node. Per module, one sweep of that window marks the
    // outside nodes fed from the module; a module node fed by a marked one closes a cycle.
    // Each node is in the windows of its ancestors only: O(depth x edges) in all.
    const auto& nodes = graph.nodes();
    const std::size_t n = nodes.size();
    std::vector<int> first(m_modules.size(), -1), last(m_modules.size(), -1);
    for (std::size_t i = 0; i < n; ++i)
        for (int m = m_moduleOf[i]; m > 0; m = m_modules[static_cast<std::size_t>(m)].parent) {
            auto& f = first[static_cast<std::size_t>(m)];
            f = f < 0 ? static_cast<int>(i) : f;
            last[static_cast<std::size_t>(m)] = static_cast<int>(i);
        }
    std::vector<char> fed(n, 0);
    for (std::size_t id = 1; id < m_modules.size(); ++id) {
        Module& mod = m_modules[id];
        if (mod.role != Module::Role::Model || first[id] < 0 || mod.total < 2)
            continue;
        const auto lo = static_cast<std::size_t>(first[id]), hi = static_cast<std::size_t>(last[id]);
        const auto inside
            = [&](std::size_t i) { return i >= lo && i <= hi && contains(static_cast<int>(id), m_moduleOf[i]); };
        for (std::size_t i = lo; i <= hi && !mod.reentrant; ++i) {
            const bool in = inside(i);
            for (int u : nodes[i].inputs) {
                const auto from = static_cast<std::size_t>(u);
                if (from < lo || from >= i)
                    continue;
                if (in && fed[from])
                    mod.reentrant = true;  // out of the module and back in
                else if (!in && (fed[from] || inside(from)))
                    fed[i] = 1;
            }
        }
        std::fill(fed.begin() + static_cast<std::ptrdiff_t>(lo), fed.begin() + static_cast<std::ptrdiff_t>(hi) + 1, 0);
    }
}

int ModuleTree::phaseGroup(Phase phase) const
{
    return phase == Phase::Forward ? m_forward : phase == Phase::Backward ? m_backward : -1;
}

ModuleTree::PathInfo ModuleTree::describe(const std::string& path)
{
    PathInfo info;
    std::string_view rest = path;
    if (path == kGradientsPath) {
        info.phase = Phase::Backward;
        info.role = Module::Role::Gradients;
        info.name = "gradients";
        return info;
    }
    if (path == kForwardOutsidePath || path == kBackwardOutsidePath) {
        info.phase = path == kForwardOutsidePath ? Phase::Forward : Phase::Backward;
        info.role = Module::Role::Outside;
        info.name = "outside";
        return info;
    }
    for (auto [prefix, phase] :
        {std::pair{kForwardPrefix, Phase::Forward}, std::pair{kBackwardPrefix, Phase::Backward}})
        if (rest.substr(0, prefix.size()) == prefix) {
            info.phase = phase;
            rest.remove_prefix(prefix.size());
            if (rest.empty()) {
                info.role = Module::Role::PhaseGroup;
                info.name = std::string(toString(phase));
                return info;
            }
        }
    info.modelPath = std::string(rest);
    const auto dot = rest.rfind('.');
    info.name = std::string(dot == std::string_view::npos ? rest : rest.substr(dot + 1));
    return info;
}

int ModuleTree::find(const std::string& path) const
{
    std::string key = normalisedPath(path);
    if (auto exact = m_byPath.find(key); exact != m_byPath.end())
        return exact->second;  // "forward:" alone, "forward:[outside]"
    // "forward:model.0" is "model.0".
    if (phased() && key.size() > kForwardPrefix.size() && key.compare(0, kForwardPrefix.size(), kForwardPrefix) == 0)
        key.erase(0, kForwardPrefix.size());
    auto it = m_byPath.find(key);
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
        if (m_modules[id].role == Module::Role::Model
            && (best < 0 || m_modules[id].total > m_modules[static_cast<std::size_t>(best)].total))
            best = static_cast<int>(id);
    return best;
}

}  // namespace ps::graph
