#pragma once

#include <QRectF>

#include <algorithm>
#include <cstdint>
#include <vector>

namespace ps::ui {

/// Rectangles of the scene (its boxes) in square cells of the scene: which of them meet a
/// rectangle, in time that grows with the boxes near it, not with the scene. The module
/// headers ask it several times per region on every zoomed-out frame, the minimap on every
/// scroll step; QGraphicsScene::items() answered the headers in 10 s a frame on the 50k-node
/// graph (about a millisecond a query).
class BoxGrid {
public:
    BoxGrid() = default;
    explicit BoxGrid(std::vector<QRectF> rects);

    /// The indices of the rectangles that meet `sceneRect`, each once, in no set order.
    std::vector<int> near(const QRectF& sceneRect) const;
    /// Whether `hit(i)` holds for a rectangle i that meets `sceneRect`: stops at the first
    /// (a header over a crowd of boxes is refused at the first it covers).
    template <typename Hit> bool anyNear(const QRectF& sceneRect, Hit&& hit) const
    {
        return visit(sceneRect, [&](int i) { return hit(i); });
    }
    const QRectF& rect(int i) const { return m_bounds[static_cast<std::size_t>(i)]; }
    bool empty() const { return m_bounds.empty(); }

private:
    /// Calls `fn(i)` once for each rectangle i that meets `sceneRect` until it returns true;
    /// returns whether one did.
    template <typename Fn> bool visit(const QRectF& sceneRect, Fn&& fn) const
    {
        const Edges q = Edges::of(sceneRect);
        if (m_start.empty() || q.empty() || !q.meets(m_areaEdges))
            return false;
        if (++m_query == 0) {  // wrapped: every stamp is stale again
            std::fill(m_seen.begin(), m_seen.end(), 0);
            m_query = 1;
        }
        // Each cell's members with their edges beside them: the test that refuses most is read in
        // order from one array, inline (QRectF::intersects, out of line, was most of a header's
        // place on a 50k-node graph zoomed out).
        for (int y = row(sceneRect.top()); y <= row(sceneRect.bottom()); ++y)
            for (int x = column(sceneRect.left()); x <= column(sceneRect.right()); ++x) {
                const auto c
                    = static_cast<std::size_t>(y) * static_cast<std::size_t>(m_columns) + static_cast<std::size_t>(x);
                for (int k = m_start[c]; k < m_start[c + 1]; ++k) {
                    const Member& m = m_members[static_cast<std::size_t>(k)];
                    if (!m.edges.meets(q))
                        continue;
                    const auto i = static_cast<std::size_t>(m.index);
                    if (m_seen[i] == m_query)
                        continue;
                    m_seen[i] = m_query;
                    if (fn(m.index))
                        return true;
                }
            }
        return false;
    }
    /// A rectangle by its edges, normalised (as QRectF::intersects does first). An empty or not
    /// finite one is kept out of the grid and meets nothing, so between two that are not empty
    /// meets() is QRectF::intersects: an overlap of some area.
    struct Edges {
        qreal left = 0, top = 0, right = 0, bottom = 0;
        static Edges of(const QRectF& r)
        {
            const QRectF n = r.normalized();
            return {n.left(), n.top(), n.right(), n.bottom()};
        }
        bool empty() const { return !(left < right && top < bottom); }
        bool meets(const Edges& o) const
        {
            return left < o.right && o.left < right && top < o.bottom && o.top < bottom;
        }
    };
    struct Member {
        Edges edges;
        int index = 0;
    };
    int column(qreal x) const;
    int row(qreal y) const;

    std::vector<QRectF> m_bounds;
    QRectF m_area;  ///< all of them
    Edges m_areaEdges;
    qreal m_cell = 512;
    int m_columns = 0, m_rows = 0;
    std::vector<int> m_start;  ///< per cell, where its boxes begin in m_members (one past the end last)
    std::vector<Member> m_members;
    mutable std::vector<std::uint32_t> m_seen;  ///< per rectangle, the query that last met it
    mutable std::uint32_t m_query = 0;
};

}  // namespace ps::ui
