#pragma once

// The studio's numeric lenses ([overlays]) on one capture's graph, for what leaves the studio:
// Time (the kernel profile's self time split over the nodes a kernel computes), Error (the
// localised drift: the artifact's error over eager's own at each node) and Memory (the bytes a
// node's output allocates, worked out from the graph's meta). Each is a graph::MeasuredLens
// built exactly as the window builds it (ui/graph/GraphMeasures), so an export shows the values
// the window shows. Plain data once built.

#include "graph/GraphMemory.h"
#include "graph/MeasuredLens.h"

#include <optional>
#include <string>
#include <vector>

namespace ps::graph {
class GraphModel;
}
namespace ps::model {
struct Capture;
struct KernelProfile;
struct NodeAccuracy;
}  // namespace ps::model

namespace ps::share {

class LensValues {
public:
    /// One lens with data: its measure, its values, and what it is in words.
    struct Lens {
        graph::MeasuredLens::Measure measure = graph::MeasuredLens::Measure::Time;
        graph::MeasuredLens values;
        std::string name;  ///< "time", "error", "memory"
        std::string unit;  ///< "µs per call", "× eager's error", "bytes allocated"
    };

    LensValues(const graph::GraphModel& graph, const model::Capture& capture);

    /// The Time lens of a profile: each kernel's self time over the nodes it computes (the
    /// window's GraphMeasures reads the same).
    static graph::MeasuredLens time(const graph::GraphModel& graph, const model::KernelProfile& profile);
    /// The Error lens of localised drift (accuracy.nodes).
    static graph::MeasuredLens error(const graph::GraphModel& graph, const std::vector<model::NodeAccuracy>& nodes);

    /// The lenses that have at least one node value, in the order time, error, memory.
    const std::vector<Lens>& lenses() const& { return m_lenses; }
    /// Of a temporary (`for (auto& l : LensValues(g, c).lenses())`): the lenses themselves.
    std::vector<Lens> lenses() && { return std::move(m_lenses); }

private:
    std::vector<Lens> m_lenses;
};

}  // namespace ps::share
