#pragma once

#include <QRectF>

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
    const QRectF& rect(int i) const { return m_bounds[static_cast<std::size_t>(i)]; }
    bool empty() const { return m_bounds.empty(); }

private:
    int column(qreal x) const;
    int row(qreal y) const;

    std::vector<QRectF> m_bounds;
    QRectF m_area;  ///< all of them
    qreal m_cell = 512;
    int m_columns = 0, m_rows = 0;
    std::vector<int> m_start;  ///< per cell, where its boxes begin in m_members (one past the end last)
    std::vector<int> m_members;
    mutable std::vector<std::uint32_t> m_seen;  ///< per rectangle, the query that last met it
    mutable std::uint32_t m_query = 0;
};

}  // namespace ps::ui
