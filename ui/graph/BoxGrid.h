#pragma once

#include <QRectF>

#include <cstdint>
#include <vector>

namespace ps::ui {

class GraphBoxItem;

/// The scene's boxes in square cells of the scene, by their bounding rectangles (the room
/// beside a box, where its title may be drawn, included): which boxes may meet a rectangle, in
/// time that grows with the boxes near it, not with the scene. ModuleRegionsItem asks it
/// several times per region on every zoomed-out frame; QGraphicsScene::items() answered the
/// same question in 10 s a frame on the 50k-node graph (its index walked per query).
class BoxGrid {
public:
    BoxGrid() = default;
    explicit BoxGrid(const std::vector<GraphBoxItem*>& boxes);

    /// The boxes whose bounding rectangles meet `sceneRect`, each once, in no set order.
    std::vector<const GraphBoxItem*> near(const QRectF& sceneRect) const;
    bool empty() const { return m_boxes.empty(); }

private:
    int column(qreal x) const;
    int row(qreal y) const;

    std::vector<const GraphBoxItem*> m_boxes;
    std::vector<QRectF> m_bounds;  ///< per box, its bounding rectangle in the scene
    QRectF m_area;                 ///< all of them
    qreal m_cell = 512;
    int m_columns = 0, m_rows = 0;
    std::vector<int> m_start;  ///< per cell, where its boxes begin in m_members (one past the end last)
    std::vector<int> m_members;
    mutable std::vector<std::uint32_t> m_seen;  ///< per box, the query that last met it
    mutable std::uint32_t m_query = 0;
};

}  // namespace ps::ui
