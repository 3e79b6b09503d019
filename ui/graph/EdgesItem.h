#pragma once

#include <QColor>
#include <QGraphicsItem>
#include <QLineF>
#include <QList>
#include <QPolygonF>

#include <unordered_set>
#include <vector>

namespace ps::ui {

/// All edges of the graph scene in one item: thousands of edge items would each cost an index
/// entry and a paint call. Paints only the pieces of edges (a few bends each) whose bounds meet
/// the exposed area. Each edge
/// follows its route (the layout's: through the gaps between layers and vertical runs past the
/// boxes): zoomed in, a smooth path (straight runs, S-bends in the gaps, every joint vertical,
/// so the curve keeps to the rectangle of each two points and clear of boxes); zoomed out,
/// straight lines through its bends, dropping those closer than a pixel or two; so far out
/// that edges would be a grey wash, nothing. An edge standing for several graph edges (a
/// collapsed module's) is drawn thicker and, when the zoom makes it readable, labelled with
/// its count near the consumer's end. Edges touching highlighted items are drawn last, in the
/// highlight colour.
class EdgesItem : public QGraphicsItem {
public:
    struct Edge {
        int from;  ///< item indices
        int to;
        int count;  ///< graph edges merged into this one
        /// From the producer's end through its bends to the consumer's end (two points at least).
        QPolygonF route;
    };

    EdgesItem(std::vector<Edge> edges, QColor color, QColor highlight);

    void setHighlighted(const QList<int>& items);
    std::size_t edgeCount() const { return m_edges.size(); }
    const Edge& edge(std::size_t i) const { return m_edges[i]; }

    /// Where the count of a merged edge is written: beside its last bend, a quarter of the way
    /// up from the consumer (so labels of edges meeting at one box stand apart), on the side
    /// the edge does not come from.
    static QRectF labelRect(const Edge& edge);

    QRectF boundingRect() const override { return m_bounds; }
    void paint(QPainter* painter, const QStyleOptionGraphicsItem* option, QWidget* widget) override;

private:
    /// A run of a route's points, culled on its own: a long edge's bounds would meet almost
    /// every view (a side lane's route spans the graph's width and height).
    struct Piece {
        int edge;
        int first;  ///< point indices, inclusive; neighbouring pieces share a point
        int last;
        bool shared;  ///< a side lane's vertical run, drawn with m_shared unless highlighted
    };

    std::vector<Edge> m_edges;
    std::vector<Piece> m_pieces;
    std::vector<QRectF> m_pieceBounds;
    /// Pieces by horizontal band of the scene (kBandHeight high; a piece is listed in every band
    /// it meets), so a frame looks only at the bands it shows; pieces taller than a few bands
    /// (side lanes) are in m_tall, looked at every frame.
    std::vector<std::vector<int>> m_bands;
    std::vector<int> m_tall;
    QList<QLineF> m_shared;  ///< the side lanes' runs, overlapping ones merged
    QRectF m_bounds;
    QColor m_color;
    QColor m_highlight;
    std::unordered_set<int> m_highlighted;
};

}  // namespace ps::ui
