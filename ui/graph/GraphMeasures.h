#pragma once

#include "graph/GraphLens.h"
#include "graph/GraphMemory.h"
#include "graph/MeasuredLens.h"

#include <QList>
#include <QString>

#include <optional>
#include <vector>

namespace ps::graph {
class GraphModel;
class ModuleTree;
}  // namespace ps::graph
namespace ps::model {
struct Capture;
}

namespace ps::ui {

/// What the numeric lenses paint on one capture's graph ([overlays]): the kernel profile's time,
/// the localised drift's error and the graph's memory, each a graph::MeasuredLens, and why a
/// lens without data is off. Built once per graph and capture; plain data after.
class GraphMeasures {
public:
    GraphMeasures() = default;
    /// `capture` null: memory only (it needs nothing but the graph).
    GraphMeasures(const graph::GraphModel& graph, const model::Capture* capture);

    /// The lens's values, or null when `lens` is not numeric or has no data.
    const graph::MeasuredLens* lens(graph::Lens lens) const;
    /// Why a numeric lens is off ("not profiled: Run > Profile"), "" when it is on.
    QString unavailable(graph::Lens lens) const;
    const std::optional<graph::GraphMemory>& memory() const { return m_memory; }
    /// The nodes a lens marks: the memory's peak, the nodes where the error leaves eager's band.
    std::vector<int> marked(graph::Lens lens) const;
    /// The legend of a numeric lens as rich text: the ramp from `low` to `high` (the range shown)
    /// in its unit and what the values are (`brief`: a shorter ramp, without the words); and a
    /// longer tooltip.
    QString legendHtml(graph::Lens lens, double low, double high, bool brief = false) const;
    QString legendTip(graph::Lens lens, double low, double high) const;
    /// One line about the memory's peak: "peak 512 KiB live at native_batch_norm, 2 tensors;
    /// 44.7 MiB held by inputs and parameters".
    QString peakText() const;
    /// What the lens measured on the selected nodes and module boxes, for the details pane:
    /// a node's value (Memory: and the live total after it, the peak said at its node), a
    /// module's total or worst (Memory: and its peak live); "" for a lens without data.
    QString detailsHtml(
        graph::Lens lens, const graph::ModuleTree& tree, const QList<int>& nodes, const QList<int>& modules) const;

private:
    std::optional<graph::GraphMemory> m_memory;
    graph::MeasuredLens m_time, m_error, m_bytes;
    QString m_timeWhy, m_errorWhy, m_memoryWhy;
    QString m_timeNote;
    QString m_peakName;
    QString m_peakShort;  ///< "512.0 KiB live"
    int m_nodeCount = 0;
};

}  // namespace ps::ui
