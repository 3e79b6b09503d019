#include "graph/MeasuredLens.h"

#include "graph/GraphMemory.h"
#include "graph/GraphModel.h"
#include "graph/ModuleTree.h"

#include <algorithm>
#include <cmath>
#include <cstdio>

namespace ps::graph {

namespace {

bool usable(double v)
{
    return std::isfinite(v) && v >= 0;
}

std::string printed(const char* format, double value)
{
    char buf[64];
    std::snprintf(buf, sizeof buf, format, value);
    return buf;
}

}  // namespace

MeasuredLens MeasuredLens::time(const GraphModel& graph, const std::vector<Kernel>& kernels)
{
    MeasuredLens lens;
    lens.m_measure = Measure::Time;
    const std::size_t n = graph.nodes().size();
    lens.m_values.assign(n, std::nullopt);
    for (const auto& k : kernels) {
        if (!usable(k.selfUs))
            continue;
        std::vector<int> known;
        for (const auto& name : k.nodes)
            if (const int i = graph.indexOf(name); i >= 0 && std::find(known.begin(), known.end(), i) == known.end())
                known.push_back(i);
        if (known.empty()) {
            lens.m_unattributed += k.selfUs;
            continue;
        }
        std::sort(known.begin(), known.end());
        for (int i : known)
            lens.m_values[i] = lens.m_values[i].value_or(0) + k.selfUs;
        lens.m_groups.push_back({k.name, std::move(known), k.selfUs});
    }
    std::stable_sort(lens.m_groups.begin(), lens.m_groups.end(),
        [](const Group& a, const Group& b) { return a.us != b.us ? a.us > b.us : a.kernel < b.kernel; });
    lens.m_nodeGroups.assign(n, {});
    for (int g = 0; g < static_cast<int>(lens.m_groups.size()); ++g)
        for (int i : lens.m_groups[static_cast<std::size_t>(g)].nodes)
            lens.m_nodeGroups[static_cast<std::size_t>(i)].push_back(g);
    lens.finish();
    return lens;
}

MeasuredLens MeasuredLens::error(const GraphModel& graph, const std::vector<NodeError>& nodes)
{
    MeasuredLens lens;
    lens.m_measure = Measure::Error;
    const std::size_t n = graph.nodes().size();
    lens.m_values.assign(n, std::nullopt);
    lens.m_leaves.assign(n, false);
    for (const auto& e : nodes) {
        const int i = graph.indexOf(e.node);
        if (i < 0)
            continue;
        lens.m_leaves[i] = lens.m_leaves[i] || e.leavesBand;
        if (!e.error || !e.eagerError || !usable(*e.error) || !usable(*e.eagerError))
            continue;
        // Over an exact eager (0) any error is off the scale; an exact artifact is 1x (eager's own).
        double ratio = *e.eagerError > 0 ? *e.error / *e.eagerError : (*e.error > 0 ? 1e6 : 1.0);
        ratio = std::min(ratio, 1e6);
        if (usable(ratio))
            lens.m_values[i] = std::max(ratio, lens.m_values[i].value_or(0));
    }
    lens.finish();
    return lens;
}

MeasuredLens MeasuredLens::memory(const GraphModel& graph, const GraphMemory& memory)
{
    MeasuredLens lens;
    lens.m_measure = Measure::Memory;
    const auto& nodes = graph.nodes();
    lens.m_values.assign(nodes.size(), std::nullopt);
    for (std::size_t i = 0; i < nodes.size(); ++i) {
        const auto& op = nodes[i].op;
        if (op == "placeholder" || op == "get_attr" || op == "output")
            continue;
        if (const auto b = memory.allocated(static_cast<int>(i)))
            lens.m_values[i] = static_cast<double>(*b);
    }
    lens.finish();
    return lens;
}

void MeasuredLens::finish()
{
    m_count = 0;
    for (const auto& v : m_values) {
        if (!v)
            continue;
        if (m_count++ == 0)
            m_min = m_max = *v;
        m_min = std::min(m_min, *v);
        m_max = std::max(m_max, *v);
        if (*v > 0 && (m_minPositive == 0 || *v < m_minPositive))
            m_minPositive = *v;
    }
}

std::optional<double> MeasuredLens::node(int node) const
{
    return node >= 0 && node < static_cast<int>(m_values.size()) ? m_values[node] : std::nullopt;
}

bool MeasuredLens::leavesBand(int node) const
{
    return node >= 0 && node < static_cast<int>(m_leaves.size()) && m_leaves[node];
}

std::string MeasuredLens::kernelOf(int node) const
{
    std::string names;
    for (int g : kernelsOf(node))
        names += (names.empty() ? "" : ", ") + m_groups[static_cast<std::size_t>(g)].kernel;
    return names;
}

std::vector<int> MeasuredLens::kernelsOf(int node) const
{
    return node >= 0 && node < static_cast<int>(m_nodeGroups.size()) ? m_nodeGroups[static_cast<std::size_t>(node)]
                                                                     : std::vector<int>{};
}

std::optional<double> MeasuredLens::module(const ModuleTree& tree, int module) const
{
    std::optional<double> out;
    std::vector<bool> counted(m_measure == Measure::Time ? m_groups.size() : 0, false);
    for (int i : tree.nodesIn(module)) {
        const auto v = node(i);
        if (!v)
            continue;
        if (m_measure == Measure::Time) {  // each kernel computing a node of it, once
            for (int g : kernelsOf(i))
                if (!counted[static_cast<std::size_t>(g)]) {
                    counted[static_cast<std::size_t>(g)] = true;
                    out = out.value_or(0) + m_groups[static_cast<std::size_t>(g)].us;
                }
            continue;
        }
        out = m_measure == Measure::Error ? std::max(out.value_or(0), *v) : out.value_or(0) + *v;
    }
    return out;
}

double MeasuredLens::position(double value) const
{
    if (!(value > m_minPositive) || m_max <= m_minPositive)
        return value > 0 && m_max > 0 && m_max <= m_minPositive ? 1.0 : 0.0;
    const double t = std::log(value / m_minPositive) / std::log(m_max / m_minPositive);
    return std::clamp(t, 0.0, 1.0);
}

double MeasuredLens::position(double value, double low, double high)
{
    if (!std::isfinite(value) || !(high > 0))
        return 0.0;
    low = low > 0 ? low : std::min(high, 1e-9 * high);
    if (value <= low || high <= low)
        return value >= high && high > 0 && value > 0 ? 1.0 : 0.0;
    return std::clamp(std::log(value / low) / std::log(high / low), 0.0, 1.0);
}

std::string MeasuredLens::format(Measure measure, double value)
{
    if (!std::isfinite(value))
        return "-";
    switch (measure) {
    case Measure::Time:
        if (value >= 1e6)
            return printed("%.2f s", value / 1e6);
        if (value >= 1e3)
            return printed("%.2f ms", value / 1e3);
        return printed(value >= 10 ? "%.0f µs" : "%.1f µs", value);
    case Measure::Error:
        return value >= 1e6 ? std::string("≥10⁶× band") : printed(value >= 10 ? "%.0f× band" : "%.2f× band", value);
    case Measure::Memory:
        if (value >= 1024.0 * 1024 * 1024)
            return printed("%.2f GiB", value / (1024.0 * 1024 * 1024));
        if (value >= 1024.0 * 1024)
            return printed("%.1f MiB", value / (1024.0 * 1024));
        if (value >= 1024)
            return printed("%.1f KiB", value / 1024);
        return printed("%.0f B", value);
    }
    return {};
}

std::string MeasuredLens::name(Measure measure)
{
    switch (measure) {
    case Measure::Time:
        return "time";
    case Measure::Error:
        return "error";
    case Measure::Memory:
        return "memory";
    }
    return "time";
}

}  // namespace ps::graph
