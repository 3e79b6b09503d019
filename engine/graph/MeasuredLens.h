#pragma once

// Numeric lenses: a measured value per node painted on the graph ([overlays]). Time is the self
// time per artifact call of the kernel(s) computing the node, the whole kernel's on each node of
// its group (a view fused into an 8 ms kernel is part of those 8 ms, not an 8 ms node of its own);
// a module's total is the time of the kernels computing its nodes, each once (a kernel spanning
// two modules counts in both, once in their parent). Error is the artifact's error against float64
// over eager's own at the node ("x band": 1 is eager's own error, leaves_band marks where the
// artifact leaves it); Memory is the bytes the node's output allocates (GraphMemory). A
// collapsed module shows its nodes' total (Time, Memory) or worst (Error). Plain data: the UI
// turns the report's model::KernelProfile and NodeAccuracy into the inputs below.

#include <cstdint>
#include <optional>
#include <string>
#include <vector>

namespace ps::graph {

class GraphMemory;
class GraphModel;
class ModuleTree;

class MeasuredLens {
public:
    enum class Measure { Time, Error, Memory };

    /// A kernel's self time (microseconds per call) and the nodes it computes, by name.
    struct Kernel {
        std::string name;
        std::vector<std::string> nodes;
        double selfUs = 0;
    };
    /// One node's error against float64, and eager's.
    struct NodeError {
        std::string node;
        std::optional<double> error;
        std::optional<double> eagerError;
        bool leavesBand = false;
    };

    /// Time: one attributed kernel, its self time and the graph nodes it computes.
    struct Group {
        std::string kernel;
        std::vector<int> nodes;
        double us = 0;
    };

    MeasuredLens() = default;
    /// Kernels naming no node of the graph, or with a time that is not finite and positive, are
    /// left out (unattributedUs()).
    static MeasuredLens time(const GraphModel& graph, const std::vector<Kernel>& kernels);
    static MeasuredLens error(const GraphModel& graph, const std::vector<NodeError>& nodes);
    static MeasuredLens memory(const GraphModel& graph, const GraphMemory& memory);

    Measure measure() const { return m_measure; }
    /// True when at least one node has a value.
    bool any() const { return m_count > 0; }
    std::optional<double> node(int node) const;
    /// Error: the node leaves eager's band.
    bool leavesBand(int node) const;
    /// Time: the kernel(s) the node's time comes from, the slowest first ("cpp_fused_relu_3"), else "".
    std::string kernelOf(int node) const;
    /// Time: the kernels naming a node of the graph, the slowest first (ties by name).
    const std::vector<Group>& kernels() const { return m_groups; }
    /// Time: the indices in kernels() of those computing `node`.
    std::vector<int> kernelsOf(int node) const;
    /// The module's total (Memory; Time: of the kernels computing its nodes, each once) or worst
    /// (Error) over its nodes and those below it.
    std::optional<double> module(const ModuleTree& tree, int module) const;
    /// The smallest and largest node values (0, 0 without values).
    double min() const { return m_min; }
    double max() const { return m_max; }
    /// Time: microseconds of kernels that name no node of the graph.
    double unattributedUs() const { return m_unattributed; }
    /// Where a value falls on the colour ramp, 0..1: logarithmic between min and max (times and
    /// bytes span decades), 0 for a value at or under the smallest positive one.
    double position(double value) const;
    /// The same over the range [low, high] of what is shown (module totals run past the nodes').
    static double position(double value, double low, double high);

    /// A value in its unit: "1.25 ms", "830 µs", "4.2× band", "512 KiB".
    static std::string format(Measure measure, double value);
    static std::string name(Measure measure);  ///< "time", "error", "memory"

private:
    Measure m_measure = Measure::Time;
    std::vector<std::optional<double>> m_values;
    std::vector<bool> m_leaves;
    std::vector<Group> m_groups;
    std::vector<std::vector<int>> m_nodeGroups;  ///< Time: a node's kernels, indices in m_groups
    std::size_t m_count = 0;
    double m_min = 0, m_max = 0, m_minPositive = 0, m_unattributed = 0;

    void finish();
};

}  // namespace ps::graph
