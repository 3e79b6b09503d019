#include "share/PageGraph.h"

#include "graph/CollapseState.h"
#include "graph/GraphModel.h"
#include "graph/ModuleTree.h"
#include "model/Capture.h"
#include "model/JsonFields.h"
#include "share/LensValues.h"
#include "share/PageLayout.h"

#include <cmath>

namespace ps::share {

using nlohmann::json;

namespace {

json lensJson(const LensValues::Lens& lens, const graph::GraphModel& g, const graph::ModuleTree& tree)
{
    const auto& values = lens.values;
    json nodes = json::array(), leaves = json::array(), kernels = json::array(), modules = json::array();
    for (int i = 0; i < static_cast<int>(g.nodes().size()); ++i) {
        const auto v = values.node(i);
        if (v && std::isfinite(*v))
            nodes.push_back({i, *v, graph::MeasuredLens::format(lens.measure, *v)});
        if (values.leavesBand(i))
            leaves.push_back(i);
        if (const std::string k = values.kernelOf(i); !k.empty()) {
            // A fused kernel's time is its group's: say so beside the value ("all of K, 5 nodes").
            const auto groups = values.kernelsOf(i);
            const auto size
                = groups.size() == 1 ? values.kernels()[static_cast<std::size_t>(groups[0])].nodes.size() : 0;
            kernels.push_back({i, size > 1 ? "all of " + k + ", " + std::to_string(size) + " nodes" : k});
        }
    }
    for (int m = 1; m < static_cast<int>(tree.modules().size()); ++m)
        if (const auto v = values.module(tree, m); v && std::isfinite(*v))
            modules.push_back({tree.module(m).path, *v, graph::MeasuredLens::format(lens.measure, *v)});
    return {{"name", lens.name}, {"unit", lens.unit}, {"nodes", std::move(nodes)}, {"modules", std::move(modules)},
        {"leaves", std::move(leaves)}, {"kernels", std::move(kernels)}};
}

}  // namespace

json PageGraph::toJson(const model::Capture& capture)
{
    const json& section = model::JsonFields::member(capture.json, "graph");
    if (!section.is_object())
        return nullptr;
    const auto g = graph::GraphModel::fromJson(section, model::JsonFields::member(capture.json, "lowering"));
    if (g.empty())
        return nullptr;
    const auto tree = graph::ModuleTree::build(g);

    json kernels = json::object();
    json dynamic = json::object();  // a marked input's dims in words (GraphNode::dynamic)
    for (const auto& n : g.nodes()) {
        if (!n.kernel.empty())
            kernels[n.name] = n.kernel;
        if (!n.dynamic.empty())
            dynamic[n.name] = n.dynamic;
    }

    json lenses = json::array();
    for (const auto& lens : LensValues(g, capture).lenses())
        lenses.push_back(lensJson(lens, g, tree));

    const auto opening = graph::CollapseState::initial(tree, graph::CollapseState::kOpeningBudget);
    json expanded = json::array();
    for (int m = 1; m < static_cast<int>(tree.modules().size()); ++m)
        if (opening.expanded(m))
            expanded.push_back(tree.module(m).path);

    std::string error = g.error();
    if (error.empty() && !g.complete())
        error = "the capture did not finish: the graph is partial";
    return {{"graph", section}, {"nodes", g.nodes().size()}, {"error", error}, {"kernels", std::move(kernels)},
        {"dynamic", std::move(dynamic)}, {"lenses", std::move(lenses)},
        {"opening",
            {{"budget", graph::CollapseState::kOpeningBudget}, {"expanded", std::move(expanded)},
                {"layout", PageLayout::of(g, tree, opening)}}}};
}

}  // namespace ps::share
