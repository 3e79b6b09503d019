#pragma once

#include <QColor>
#include <QGraphicsItem>
#include <QLineF>
#include <QList>

#include <unordered_set>
#include <vector>

namespace ps::ui {

/// All edges of the graph scene in one item: thousands of edge items would each cost an index
/// entry and a paint call. Paints only the edges whose bounds meet the exposed area; curves
/// when zoomed in, straight lines when zoomed out, nothing when so far out that edges would be
/// a grey wash. An edge standing for several graph edges (a collapsed module's) is drawn
/// thicker. Edges touching highlighted items are drawn last, in the highlight colour.
class EdgesItem : public QGraphicsItem {
public:
    struct Edge {
        int from;  ///< item indices
        int to;
        int count;      ///< graph edges merged into this one
        QPointF start;  ///< bottom centre of the producer
        QPointF end;    ///< top centre of the consumer
    };

    EdgesItem(std::vector<Edge> edges, QColor color, QColor highlight);

    void setHighlighted(const QList<int>& items);
    std::size_t edgeCount() const { return m_edges.size(); }

    QRectF boundingRect() const override { return m_bounds; }
    void paint(QPainter* painter, const QStyleOptionGraphicsItem* option, QWidget* widget) override;

private:
    std::vector<Edge> m_edges;
    std::vector<QRectF> m_edgeBounds;
    QRectF m_bounds;
    QColor m_color;
    QColor m_highlight;
    std::unordered_set<int> m_highlighted;
};

}  // namespace ps::ui
