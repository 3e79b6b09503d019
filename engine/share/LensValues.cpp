#include "share/LensValues.h"

#include "graph/GraphModel.h"
#include "model/Capture.h"
#include "model/KernelProfile.h"
#include "model/NodeAccuracy.h"

namespace ps::share {

using graph::MeasuredLens;

MeasuredLens LensValues::time(const graph::GraphModel& graph, const model::KernelProfile& profile)
{
    std::vector<MeasuredLens::Kernel> kernels;
    for (const auto& k : profile.kernels)
        kernels.push_back({k.name, k.nodes, k.selfUs});
    return MeasuredLens::time(graph, kernels);
}

MeasuredLens LensValues::error(const graph::GraphModel& graph, const std::vector<model::NodeAccuracy>& nodes)
{
    std::vector<MeasuredLens::NodeError> errors;
    for (const auto& n : nodes)
        errors.push_back({n.node, n.error, n.eagerError, n.leavesBand});
    return MeasuredLens::error(graph, errors);
}

LensValues::LensValues(const graph::GraphModel& graph, const model::Capture& capture)
{
    const auto add = [&](MeasuredLens values, const char* unit) {
        if (!values.any())
            return;
        const auto measure = values.measure();
        m_lenses.push_back({measure, std::move(values), MeasuredLens::name(measure), unit});
    };
    if (capture.profile && capture.profile->error.empty())
        add(time(graph, *capture.profile), "\u00b5s per call");
    if (capture.verify && capture.verify->accuracy && !capture.verify->accuracy->nodes.empty())
        add(error(graph, capture.verify->accuracy->nodes), "\u00d7 eager's error against float64");
    const graph::GraphMemory memory(graph);
    add(MeasuredLens::memory(graph, memory), "bytes allocated");
}

}  // namespace ps::share
