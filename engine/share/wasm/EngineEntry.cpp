// The HTML report's graph engine: a C ABI over the unchanged engine/graph sources, compiled to
// WebAssembly (engine/share/wasm/EngineWasm.cmake) and run by the page's graph.js, so that the
// page lays out exactly what the window lays out (GraphSession: the whole VisibleGraph of one
// CollapseState, VisibleGraph::layoutInput). Also compiled natively into tests/share's
// engine_probe, against which the wasm's layouts are compared.
//
// No exceptions (built with -fno-exceptions), no Qt, no files, one thread. State is global: one
// graph per instance (the page instantiates the module once per graph panel).
//
// Calls from JS:
//   ps_alloc(bytes) / ps_free(p)      memory for the graph JSON handed in
//   ps_open(p, len) -> nodes | -1     opens a graph section (GraphModel::fromJson); everything
//                                     collapsed below the root. ps_text() then holds the module
//                                     tree as JSON (or the error, after -1)
//   ps_expand(m), ps_collapse(m), ps_expand_all(), ps_collapse_all(), ps_reveal(node) -> changed,
//   ps_expanded(m) -> 0/1             the collapse state, modules by ModuleTree id
//   ps_layout() -> items              lays out the current state; ps_layout_data() points at
//                                     ps_layout_size() doubles (share/PageLayout.h)
//   ps_text() / ps_text_size()        the last text result (UTF-8)

#include "graph/CollapseState.h"
#include "graph/GraphModel.h"
#include "graph/GraphSearch.h"
#include "graph/LayeredLayout.h"
#include "graph/ModuleTree.h"
#include "graph/VisibleGraph.h"
#include "share/PageLayout.h"

#include <nlohmann/json.hpp>

#include <algorithm>
#include <cstdlib>
#include <memory>
#include <string>
#include <vector>

#if defined(__wasm__)
#define PS_EXPORT(name) __attribute__((export_name(#name)))
#else
#define PS_EXPORT(name)
#endif

namespace {

using namespace ps::graph;

struct Engine {
    std::unique_ptr<GraphModel> graph;
    std::unique_ptr<ModuleTree> tree;
    std::unique_ptr<CollapseState> state;
    std::vector<double> layout;
    std::string text;
};

Engine& engine()
{
    static Engine e;
    return e;
}

bool validModule(int m)
{
    const auto& e = engine();
    return e.tree && m > 0 && m < static_cast<int>(e.tree->modules().size());
}

const char* roleName(Module::Role role)
{
    switch (role) {
    case Module::Role::Model:
        return "model";
    case Module::Role::PhaseGroup:
        return "phase";
    case Module::Role::Gradients:
        return "gradients";
    case Module::Role::Outside:
        return "outside";
    }
    return "model";
}

const char* phaseName(Phase phase)
{
    return toString(phase).data();
}

/// The module tree as the page reads it: per module its id (the index), parent, path, name,
/// type, node count, depth, role, phase, reentrant; per node its name, module and phase.
std::string treeJson(const GraphModel& graph, const ModuleTree& tree)
{
    nlohmann::json modules = nlohmann::json::array();
    for (const auto& m : tree.modules())
        modules.push_back({{"parent", m.parent}, {"path", m.path}, {"name", m.name}, {"type", m.type},
            {"total", m.total}, {"depth", m.depth}, {"role", roleName(m.role)}, {"phase", phaseName(m.phase)},
            {"reentrant", m.reentrant}});
    nlohmann::json moduleOf = nlohmann::json::array(), phaseOf = nlohmann::json::array(),
                   names = nlohmann::json::array();
    for (std::size_t i = 0; i < graph.nodes().size(); ++i) {
        names.push_back(graph.nodes()[i].name);
        moduleOf.push_back(tree.moduleOf(static_cast<int>(i)));
        phaseOf.push_back(phaseName(tree.phaseOf(static_cast<int>(i))));
    }
    const nlohmann::json out{{"modules", std::move(modules)}, {"names", std::move(names)},
        {"moduleOf", std::move(moduleOf)}, {"phaseOf", std::move(phaseOf)}, {"phased", tree.phased()}};
    return out.dump(-1, ' ', false, nlohmann::json::error_handler_t::replace);
}

}  // namespace

extern "C" {

PS_EXPORT(ps_alloc) void* ps_alloc(int bytes)
{
    return std::malloc(static_cast<std::size_t>(std::max(bytes, 1)));
}

PS_EXPORT(ps_free) void ps_free(void* p)
{
    std::free(p);
}

PS_EXPORT(ps_open) int ps_open(const char* text, int length)
{
    auto& e = engine();
    e.graph.reset();
    e.tree.reset();
    e.state.reset();
    e.layout.clear();
    auto j = nlohmann::json::parse(text, text + std::max(length, 0), nullptr, false);
    if (j.is_discarded() || !j.is_object()) {
        e.text = "the graph is not a JSON object";
        return -1;
    }
    e.graph = std::make_unique<GraphModel>(GraphModel::fromJson(j));
    e.tree = std::make_unique<ModuleTree>(ModuleTree::build(*e.graph));
    e.state = std::make_unique<CollapseState>(*e.tree);
    e.text = treeJson(*e.graph, *e.tree);
    return static_cast<int>(e.graph->nodes().size());
}

PS_EXPORT(ps_expand) void ps_expand(int module)
{
    if (validModule(module))
        engine().state->expand(*engine().tree, module);
}

PS_EXPORT(ps_collapse) void ps_collapse(int module)
{
    if (validModule(module))
        engine().state->collapse(module);
}

PS_EXPORT(ps_expand_all) void ps_expand_all()
{
    auto& e = engine();
    if (e.tree)
        *e.state = CollapseState::allExpanded(*e.tree);
}

PS_EXPORT(ps_collapse_all) void ps_collapse_all()
{
    auto& e = engine();
    if (e.tree)
        *e.state = CollapseState(*e.tree);
}

PS_EXPORT(ps_reveal) int ps_reveal(int node)
{
    auto& e = engine();
    if (!e.graph || node < 0 || node >= static_cast<int>(e.graph->nodes().size()))
        return 0;
    return e.state->reveal(*e.tree, node) ? 1 : 0;
}

PS_EXPORT(ps_expanded) int ps_expanded(int module)
{
    auto& e = engine();
    if (!e.tree || module < 0 || module >= static_cast<int>(e.tree->modules().size()))
        return 0;
    return module == 0 || e.state->expanded(module) || e.tree->module(module).reentrant ? 1 : 0;
}

PS_EXPORT(ps_layout) int ps_layout()
{
    auto& e = engine();
    if (!e.graph)
        return -1;
    e.layout = ps::share::PageLayout::of(*e.graph, *e.tree, *e.state);
    return e.layout.empty() ? 0 : static_cast<int>(e.layout[0]);
}

PS_EXPORT(ps_layout_data) const double* ps_layout_data()
{
    return engine().layout.data();
}

PS_EXPORT(ps_layout_size) int ps_layout_size()
{
    return static_cast<int>(engine().layout.size());
}

/// The nodes a search finds, by graph::GraphSearch (any field: name, op, module, shape), as the
/// window's search finds them: their count, and ps_text() the JSON array of their indices in
/// graph order. -1 before a graph is open.
PS_EXPORT(ps_search) int ps_search(const char* text, int length)
{
    auto& e = engine();
    if (!e.graph)
        return -1;
    const auto found = GraphSearch::find(*e.graph, std::string(text, static_cast<std::size_t>(std::max(length, 0))));
    e.text = nlohmann::json(found).dump();
    return static_cast<int>(found.size());
}

PS_EXPORT(ps_text) const char* ps_text()
{
    return engine().text.c_str();
}

PS_EXPORT(ps_text_size) int ps_text_size()
{
    return static_cast<int>(engine().text.size());
}

#if defined(__wasm__)
// wasm32-wasi's libc++abi lacks it (ModuleTree's thread_local key needs it); one thread that
// never exits: thread_local destructors never have to run.
int __cxa_thread_atexit(void (*)(void*), void*, void*)
{
    return 0;
}
#endif
}
