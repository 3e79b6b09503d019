#pragma once

// The first phase of LayeredLayout: which layer (0 at the top) each item goes to. Holds the
// graph as the layout reads it (per item its inputs, its users, its band) and the order its
// items are layered in: per band (ascending) a topological order over the edges inside the
// band, preferring graph order; when every remaining item of a band waits on another (a cycle,
// which collapsed modules can make), the earliest goes next and its unmet inputs become back
// edges, laid out reversed (pointing up). An input from a higher band is a back edge too.
//
// Layerings: longest path from the sources, band by band (a band starts below the previous
// band's last layer); then the moves below, each keeping every forward edge pointing down and
// every item inside its band's layers. candidates() makes the layerings the layout orders and
// chooses from. O(items + edges) each move (tighten: per pass).
//
// Plain data, no Qt, no state past construction: any thread; const methods may run on several
// threads at once. Never throws on any input: an input index out of range or an item reading
// itself is no edge; a negative band is band 0. `inputs` must outlive the object.

#include <vector>

namespace ps::graph {

class LayerAssignment {
public:
    /// `bands`: per item its band, or empty (one band); any other size is ignored.
    LayerAssignment(const std::vector<std::vector<int>>& inputs, const std::vector<int>& bands);

    int items() const { return static_cast<int>(m_inputs.size()); }
    const std::vector<std::vector<int>>& inputs() const { return m_inputs; }
    /// Per item the items that read it, once per input naming it (self-reads and bad indices left out).
    const std::vector<std::vector<int>>& users() const { return m_users; }
    const std::vector<int>& band() const { return m_band; }
    /// The items in layering order, and per item its index in it.
    const std::vector<int>& order() const { return m_order; }
    const std::vector<int>& rank() const { return m_rank; }

    /// Whether `u` as an input of `v` is an edge (in range, not `v` itself).
    bool joins(int u, int v) const { return u >= 0 && u < items() && u != v; }
    /// Whether the edge between `u` and `v` points down from `u` (u comes first in order()).
    bool forward(int u, int v) const { return m_rank[u] < m_rank[v]; }

    /// Longest path from the sources, band by band: each item one layer below its lowest
    /// forward input, and below the users it feeds through a back edge.
    const std::vector<int>& longestPath() const { return m_depth; }
    /// Per item the first layer of its band in longestPath().
    const std::vector<int>& bandStart() const { return m_bandStart; }

    /// Items that feed more edges than they read (a weight's transpose) move down next to their
    /// first user within their band, latest in order first; inputs that are sources read by this
    /// item alone count as no read. Items on a back edge stay.
    void pullDown(std::vector<int>& at) const;
    /// Sources (items that read nothing but feed something) move down to just above their
    /// first forward user, never above their band's start nor level with a back-edge user.
    void sinkSources(std::vector<int>& at) const;
    /// Each item to the end of its free range that shortens its edges (up when it reads more
    /// edges than it feeds, down when it feeds more), pass after pass until nothing moves or
    /// kTightenPasses: a local optimum of the total edge span.
    void tighten(std::vector<int>& at) const;
    /// Items joined to nothing take the layer of their nearest neighbour in graph order (the
    /// later one first at equal distance) in their band that is joined to something.
    void placeLoners(std::vector<int>& at) const;
    /// Every item as low as its users allow (within its band's last layer in `at`), latest in
    /// order first; items on a back edge stay.
    void sinkAll(std::vector<int>& at) const;

    /// The layerings to order, the first the layout's default: longest path, pulled down and
    /// sources sunk. Then, on graphs up to kTwoLayeringsItems, the longest path with sources
    /// sunk (when different); on graphs up to kManyLayeringsItems also that one with every item
    /// as low as its users allow, and the three tightened; no layering twice.
    std::vector<std::vector<int>> candidates() const;

    static constexpr int kTwoLayeringsItems = 2000;
    /// An opening view (GraphView opens with at most 80 boxes); the layout also gives these
    /// more crossing-reduction starts.
    static constexpr int kManyLayeringsItems = 100;
    static constexpr int kTightenPasses = 64;

private:
    /// The last layer of each band in `at`.
    std::vector<int> bandLast(const std::vector<int>& at) const;

    const std::vector<std::vector<int>>& m_inputs;
    std::vector<std::vector<int>> m_users;
    std::vector<int> m_band;
    std::vector<int> m_order;
    std::vector<int> m_rank;
    std::vector<int> m_depth;
    std::vector<int> m_bandStart;
};

}  // namespace ps::graph
