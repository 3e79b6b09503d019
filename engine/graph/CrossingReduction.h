#pragma once

// Orders the items of each layer of a proper layered graph (every edge joins two neighbouring
// layers; long edges already cut by virtual items) so that few edges cross. Sweeps alternately
// down and up, sorting each layer by the median or barycenter of its neighbours in the layer
// just placed (an item without such neighbours keeps its slot); on graphs small enough each
// sweep is followed by sifting (each item moved to the slot of its layer where its edges cross
// fewest) and adjacent exchanges (transpose: two neighbours swapped whenever that removes
// crossings), both counted exactly against the two neighbouring layers. Crossings are counted
// exactly after every sweep (an inversion count per layer pair, O(edges log items)) and the
// best order seen is kept. A small graph is started from many orders (the given one, its
// mirror, shuffles with a fixed seed; both sort keys), each swept alone (past an opening view's
// size with half the sweeps and patience; the mirror sweeps to the mirror of the given one's
// result, taken without sweeping; past 5000 items no shuffles, which never won there); the
// starts that end with the fewest crossings are then refined within the work budget, keeping
// the best, and its paths of one-in-one-out items shifted whole (shiftChains) while that
// helps. Each phase ends early once it stops finding better orders (a run of starts without a
// new best; the swept starts also at half the budget, except where more than the default
// starts are asked for). On graphs of many long edges (a training step's saved activations)
// the local optima of single starts vary by a factor of five, so many cheap starts beat few
// refined ones. The order found ends oriented like the given one
// (orientLike). Deterministic. Plain data, any thread.

#include <cstdint>
#include <utility>
#include <vector>

namespace ps::graph {

class CrossingReduction {
public:
    /// `layers`: per layer its items (ids 0 .. items-1), in the initial order; `edges`: pairs
    /// (upper, lower) where lower lies in the layer right below upper's.
    CrossingReduction(std::vector<std::vector<int>> layers, int items, const std::vector<std::pair<int, int>>& edges);

    /// Reorders the layers. `sweeps`: down-and-up sweep pairs on graphs too big to refine;
    /// `maxStarts`: the most starting orders a small graph gets (each refined start costs time:
    /// the layout asks for more only on a view the size of an opening one).
    /// `longEdges`: a view of few real items that its long edges made big (an expanded training
    /// step: a saved activation's edge cut into hundreds of virtual items) is refined all the
    /// same, up to kLongRefineItems, its chains not shifted (work without a bound at that size).
    void run(int sweeps, int maxStarts = kDefaultStarts, bool longEdges = false);
    static constexpr int kDefaultStarts = 128;

    /// The first start of run() alone (the given order swept by median), its order kept: a
    /// quick measure of how well these layers order, without search. Returns its crossings. A
    /// run() after it goes on from there (the same order as without).
    std::int64_t firstStart();

    /// Shifts each path of items that read one item and feed one (a long edge's virtual items,
    /// a chain of unary ops) a slot left or right in all its layers at once, step by step
    /// while that removes crossings: a move no exchange within one layer finds when the path
    /// crosses a column of boxes, each step alone adding as many crossings as it removes.
    /// Returns whether anything moved. run() ends with it on small graphs.
    bool shiftChains();

    const std::vector<std::vector<int>>& layers() const { return m_layers; }
    /// Edge crossings of the current order (each pair of edges between two layers that cross).
    std::int64_t crossings() const;

    /// Items (virtual ones included) up to which sweeps are refined by transposition and
    /// several starts are tried; above it, only sweeps, keeping the best.
    static constexpr int kRefineItems = 20000;
    static constexpr int kRefineEdges = 40000;
    static constexpr std::int64_t kWorkBudget = 15'000'000;
    static constexpr int kLongRefineItems = 70000;
    static constexpr int kLongRefineEdges = 90000;
    /// Work done so far (see spent()).
    std::int64_t work() const { return m_work; }

private:
    enum class Key { Median, Barycenter };
    void sweepLayer(int layer, bool byUpper, Key key);
    bool transposeLayer(int layer);
    bool siftLayer(int layer);
    void transposeAll();
    std::int64_t crossingsBelow(int layer) const;
    /// Per item, the crossings of its edges (a crossing counted at all four ends).
    std::vector<std::int64_t> crossingsAt() const;
    /// Crossings of v's edges with w's, both of the layer last sorted: with v left of w and with
    /// w left of v.
    struct Pair {
        std::int64_t vLeft = 0, wLeft = 0;
    };
    Pair pairCrossings(int v, int w) const;
    /// Each item of `layer` gets its neighbours' positions sorted (m_sortedUp, m_sortedDown).
    void sortNeighbours(int layer) const;
    /// Sweeps (each refined with `refine`) until `iterations`, or `patience` in a row without a
    /// better order; the best order kept, its crossings returned.
    std::int64_t search(int iterations, Key key, bool refine, bool downFirst, int patience);
    void place(int layer);
    void placeAll();
    /// `layers` as the order, every position placed.
    void setLayers(std::vector<std::vector<int>> layers);
    /// Mirrors every layer when that brings the order nearer `given` (the sum of how far each
    /// item is from its slot there). A mirrored order crosses exactly as often; this keeps a view
    /// and the same view with a module opened (both given in graph order) from coming out as
    /// each other's mirror.
    void orientLike(const std::vector<std::vector<int>>& given);
    /// One start: `order` swept alone by `key` (no refinement); its crossings, its best order kept.
    /// `thorough`: as many sweeps as a refined start gets (an opening view's starts, asked for
    /// all); else half (an expanded view's, whose refinement makes the order).
    std::int64_t sweepFrom(std::vector<std::vector<int>> order, Key key, bool thorough);
    /// The Fenwick tree m_tree over a layer's positions: entries at or left of `p`; one more at `p`.
    std::int64_t treeAtOrLeft(int p) const;
    void treeAdd(int p) const;
    /// Refinement stops once its work (neighbour positions compared, roughly) passes the
    /// budget: counted, not timed, so the same graph always gets the same order.
    bool spent() const { return m_work > kWorkBudget; }

    std::vector<std::vector<int>> m_layers;
    std::vector<int> m_pos;  ///< per item, its index in its layer
    // Neighbours in the layer above and below, compressed rows.
    std::vector<int> m_upStart, m_up, m_downStart, m_down;
    struct Keyed {
        double key;
        int slot;  ///< among the layer's movable items: ties keep their order
        int item;
    };
    std::vector<Keyed> m_movable;  ///< sweepLayer's, kept to spare an allocation per layer
    std::vector<char> m_fixed;
    std::size_t m_edgeCount = 0;
    mutable std::vector<int> m_scratchA;
    // Per edge slot (as m_up, m_down), the positions of an item's neighbours sorted.
    mutable std::vector<int> m_sortedUp, m_sortedDown;
    mutable std::vector<int> m_tree;
    mutable std::int64_t m_work = 0;
    /// A start swept: its crossings, its index among run()'s starts, its order.
    struct Swept {
        std::int64_t crossings;
        int index;
        std::vector<std::vector<int>> layers;
    };
    std::vector<Swept> m_swept;             ///< by firstStart(), for run()
    std::vector<std::vector<int>> m_given;  ///< the order firstStart() started from
    std::int64_t m_workBefore = 0;          ///< and the work done before it
};

}  // namespace ps::graph
