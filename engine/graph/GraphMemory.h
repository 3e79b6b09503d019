#pragma once

// What the captured graph allocates, worked out from the nodes' meta (sizes, strides, dtype)
// alone, so that it holds for every stored run, old ones too. Plain data, immutable once built.
//
// The rules (docs/design/graph-tab.md):
// - A node allocates the storage its output spans: (1 + sum of (size - 1) * stride) elements of
//   its dtype's itemsize, 0 for an empty tensor; a tuple-valued node the sum of its tensors.
// - An alias allocates nothing: a view op (view, _unsafe_view, _reshape_alias, reshape, t,
//   transpose, permute, expand, as_strided, slice, select, squeeze, unsqueeze, split, unbind,
//   alias, detach, ...), operator.getitem (an element of a tuple its node allocated) and an
//   in-place op (relu_, add_: it returns its first argument). Its storage is its first input's,
//   which it keeps alive: a storage lives from the node that allocates it to the last user of it
//   or of any alias of it, the output node (the graph's results) counting as the last step.
// - Placeholders and get_attr (inputs, parameters, buffers, constants) are held throughout and
//   counted apart (held()), not in the live total.

#include <cstdint>
#include <optional>
#include <string>
#include <vector>

namespace ps::graph {

class GraphModel;

class GraphMemory {
public:
    explicit GraphMemory(const GraphModel& graph);

    /// Bytes the node's output allocates; nullopt where its meta does not say (no shape, an
    /// unknown dtype). Aliases, placeholders and the output node allocate 0.
    std::optional<std::uint64_t> allocated(int node) const;
    /// The node's storage is another node's (a view, getitem, in-place op).
    bool alias(int node) const;
    /// The node whose allocation the node's value lives in (itself when it allocates).
    int owner(int node) const;
    /// Bytes live right after the node ran: every allocation made at or before it and used at or
    /// after it (the held inputs and parameters not counted).
    std::uint64_t liveAfter(int node) const;
    /// The last node in graph order that needs the node's storage (itself when nothing does).
    int lastUse(int node) const;
    /// Bytes of the placeholders and get_attr nodes: held throughout.
    std::uint64_t held() const { return m_held; }
    /// The largest liveAfter() and the first node where it is reached (-1: an empty graph).
    std::uint64_t peak() const { return m_peak; }
    int peakNode() const { return m_peakNode; }
    /// The allocations live at the peak, largest first.
    std::vector<int> aliveAtPeak() const;
    /// Nodes whose allocation is unknown (no meta): the totals leave them out.
    int unknown() const { return m_unknown; }

    /// "aten.view.default", "operator.getitem", "aten.relu_.default": an op whose result is its
    /// input's storage (the rule above).
    static bool aliasTarget(const std::string& target);

private:
    std::vector<std::optional<std::uint64_t>> m_allocated;
    std::vector<int> m_owner;
    std::vector<int> m_lastUse;
    std::vector<std::uint64_t> m_live;
    std::uint64_t m_held = 0;
    std::uint64_t m_peak = 0;
    int m_peakNode = -1;
    int m_unknown = 0;
};

}  // namespace ps::graph
