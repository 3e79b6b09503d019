#include "graph/GraphMemory.h"

#include "graph/GraphModel.h"

#include <algorithm>
#include <array>
#include <string_view>

namespace ps::graph {

namespace {

/// The op name of "aten.view.default" ("view"), or "" for a target outside aten.
std::string_view atenOp(std::string_view target)
{
    if (target.rfind("aten.", 0) != 0)
        return {};
    target.remove_prefix(5);
    return target.substr(0, target.find('.'));
}

constexpr std::array<std::string_view, 33> kViews = {"view", "_unsafe_view", "_reshape_alias", "reshape", "view_as",
    "t", "transpose", "permute", "expand", "expand_as", "as_strided", "slice", "select", "squeeze", "unsqueeze",
    "split", "split_with_sizes", "unbind", "chunk", "narrow", "alias", "detach", "diagonal", "unfold", "movedim",
    "view_as_real", "view_as_complex", "unflatten", "flatten", "numpy_T", "lift_fresh", "_indices", "_values"};

}  // namespace

bool GraphMemory::aliasTarget(const std::string& target)
{
    if (target == "operator.getitem" || target == "getitem" || target == "_operator.getitem")
        return true;
    const std::string_view op = atenOp(target);
    if (op.empty())
        return false;
    if (op.size() > 1 && op.back() == '_' && op[op.size() - 2] != '_')
        return true;  // in place: relu_, add_ (not a private op's trailing "__")
    return std::find(kViews.begin(), kViews.end(), op) != kViews.end();
}

GraphMemory::GraphMemory(const GraphModel& graph)
{
    const auto& nodes = graph.nodes();
    const int n = static_cast<int>(nodes.size());
    m_allocated.assign(n, std::nullopt);
    m_owner.resize(n);
    m_lastUse.resize(n);
    m_live.assign(n, 0);
    std::vector<bool> heldNode(n, false);
    for (int i = 0; i < n; ++i) {
        const GraphNode& node = nodes[i];
        m_owner[i] = i;
        m_lastUse[i] = i;
        const bool placeholder = node.op == "placeholder" || node.op == "get_attr";
        if (node.op == "output") {
            m_allocated[i] = 0;
            continue;
        }
        if (aliasTarget(node.target) && !node.inputs.empty() && node.inputs.front() < i) {
            m_owner[i] = m_owner[node.inputs.front()];
            m_allocated[i] = 0;
            continue;
        }
        std::optional<std::uint64_t> bytes;
        for (const auto& v : node.values) {
            const auto b = v.storageBytes();
            if (!b) {
                bytes.reset();
                break;
            }
            bytes = bytes.value_or(0) + *b;
        }
        if (placeholder) {
            heldNode[i] = true;
            m_held += bytes.value_or(0);
            m_allocated[i] = 0;
            continue;
        }
        if (!bytes && node.op == "call_function")
            ++m_unknown;
        m_allocated[i] = bytes;
    }
    // A storage is needed until the last user of any node living in it.
    for (int i = 0; i < n; ++i)
        for (int u : nodes[i].users)
            if (u >= 0 && u < n)
                m_lastUse[m_owner[i]] = std::max(m_lastUse[m_owner[i]], u);
    for (int i = 0; i < n; ++i)
        m_lastUse[i] = std::max(m_lastUse[i], m_lastUse[m_owner[i]]);
    // Sweep graph order: add at the allocating node, remove after its storage's last use.
    std::vector<std::uint64_t> freedAfter(n, 0);
    std::uint64_t live = 0;
    for (int i = 0; i < n; ++i) {
        if (m_owner[i] == i && !heldNode[i])
            if (const auto b = m_allocated[i]; b && *b > 0) {
                live += *b;
                freedAfter[m_lastUse[i]] += *b;
            }
        m_live[i] = live;
        if (m_peakNode < 0 || live > m_peak) {
            m_peak = live;
            m_peakNode = i;
        }
        live -= freedAfter[i];
    }
}

std::optional<std::uint64_t> GraphMemory::allocated(int node) const
{
    return node >= 0 && node < static_cast<int>(m_allocated.size()) ? m_allocated[node] : std::nullopt;
}

bool GraphMemory::alias(int node) const
{
    return node >= 0 && node < static_cast<int>(m_owner.size()) && m_owner[node] != node;
}

int GraphMemory::owner(int node) const
{
    return node >= 0 && node < static_cast<int>(m_owner.size()) ? m_owner[node] : -1;
}

std::uint64_t GraphMemory::liveAfter(int node) const
{
    return node >= 0 && node < static_cast<int>(m_live.size()) ? m_live[node] : 0;
}

int GraphMemory::lastUse(int node) const
{
    return node >= 0 && node < static_cast<int>(m_lastUse.size()) ? m_lastUse[node] : -1;
}

std::vector<int> GraphMemory::aliveAtPeak() const
{
    std::vector<int> out;
    if (m_peakNode < 0)
        return out;
    for (int i = 0; i <= m_peakNode; ++i)
        if (m_owner[i] == i && m_lastUse[i] >= m_peakNode && m_allocated[i].value_or(0) > 0)
            out.push_back(i);
    std::stable_sort(out.begin(), out.end(), [&](int a, int b) { return *m_allocated[a] > *m_allocated[b]; });
    return out;
}

}  // namespace ps::graph
