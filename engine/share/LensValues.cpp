#include "share/LensValues.h"

#include "graph/GraphModel.h"
#include "model/Capture.h"

namespace ps::share {

using graph::MeasuredLens;

LensValues::LensValues(const graph::GraphModel& graph, const model::Capture& capture)
{
    const auto add = [&](MeasuredLens values, const char* unit) {
        if (!values.any())
            return;
        const auto measure = values.measure();
        m_lenses.push_back({measure, std::move(values), MeasuredLens::name(measure), unit});
    };
    if (capture.profile && capture.profile->error.empty()) {
        std::vector<MeasuredLens::Kernel> kernels;
        for (const auto& k : capture.profile->kernels)
            kernels.push_back({k.name, k.nodes, k.selfUs});
        add(MeasuredLens::time(graph, kernels), "\u00b5s per call");
    }
    if (capture.verify && capture.verify->accuracy && !capture.verify->accuracy->nodes.empty()) {
        std::vector<MeasuredLens::NodeError> nodes;
        for (const auto& n : capture.verify->accuracy->nodes)
            nodes.push_back({n.node, n.error, n.eagerError, n.leavesBand});
        add(MeasuredLens::error(graph, nodes), "\u00d7 eager's error against float64");
    }
    const graph::GraphMemory memory(graph);
    add(MeasuredLens::memory(graph, memory), "bytes allocated");
}

}  // namespace ps::share
