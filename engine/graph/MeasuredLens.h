#pragma once

// Numeric lenses: a measured value per node painted on the graph ([overlays]). Time is a
// kernel's self time per artifact call split evenly over the graph nodes it computes (so that a
// module's total adds up to its kernels' time); Error is the artifact's error against float64
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
    /// Time: the kernel(s) the node's time comes from ("cpp_fused_relu_3"), else "".
    const std::string& kernelOf(int node) const;
    /// The module's total (Time, Memory) or worst (Error) over its nodes and those below it.
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
    std::vector<std::string> m_kernels;
    std::size_t m_count = 0;
    double m_min = 0, m_max = 0, m_minPositive = 0, m_unattributed = 0;

    void finish();
};

}  // namespace ps::graph
