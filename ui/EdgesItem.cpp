#include "ui/EdgesItem.h"

#include <algorithm>
#include <cmath>

#include <QPainter>
#include <QPainterPath>
#include <QStyleOptionGraphicsItem>

namespace ps::ui {

namespace {
constexpr qreal kCurveLod = 0.5;  // as the boxes: below, one-pixel lines
// Below this, edges (all but the selection's) are not drawn: at 6 % a 50k-node training step
// shows thousands of long edges (its output gathers every gradient) as one grey mass, and
// drawing them took most of a frame (13 ms at 3 %, measured by bench_graph's zoom_all).
constexpr qreal kHiddenLod = 0.06;
constexpr qreal kShortestLine = 4;  // device pixels: a shorter edge is not drawn below kCurveLod

qreal widthFor(int count)
{
    return std::min<qreal>(1.0 + std::log2(static_cast<qreal>(std::max(1, count))), 6.0);
}

QPainterPath curve(const EdgesItem::Edge& e)
{
    QPainterPath p(e.start);
    const qreal dy = std::max<qreal>(24, (e.end.y() - e.start.y()) / 2);
    p.cubicTo(e.start + QPointF(0, dy), e.end - QPointF(0, dy), e.end);
    return p;
}
}  // namespace

EdgesItem::EdgesItem(std::vector<Edge> edges, QColor color, QColor highlight)
    : m_edges(std::move(edges)), m_color(color), m_highlight(highlight)
{
    setFlag(ItemUsesExtendedStyleOption);
    setZValue(0);
    m_edgeBounds.reserve(m_edges.size());
    for (const auto& e : m_edges) {
        // The curve's control points bound it (a back edge's loops past its ends), and the
        // widest pen it is drawn with (merged, highlighted) reaches half its width beyond.
        const qreal pen = std::max<qreal>(2.5, widthFor(e.count)) / 2 + 1;
        QRectF r = curve(e).controlPointRect().adjusted(-pen, -pen, pen, pen);
        m_edgeBounds.push_back(r);
        m_bounds = m_bounds.united(r);
    }
}

void EdgesItem::setHighlighted(const QList<int>& items)
{
    m_highlighted = std::unordered_set<int>(items.begin(), items.end());
    update();
}

void EdgesItem::paint(QPainter* painter, const QStyleOptionGraphicsItem* option, QWidget*)
{
    const QRectF exposed = option->exposedRect;
    const qreal lod = option->levelOfDetailFromTransform(painter->worldTransform());
    if (lod < kHiddenLod && m_highlighted.empty())
        return;
    const bool curves = lod >= kCurveLod;
    painter->setRenderHint(QPainter::Antialiasing, curves);
    painter->setBrush(Qt::NoBrush);
    QPen pen(m_color, 0);  // cosmetic: one pixel whatever the zoom
    painter->setPen(pen);
    QList<QLineF> lines;
    std::vector<std::size_t> hot;
    for (std::size_t i = 0; i < m_edges.size(); ++i) {
        if (!m_edgeBounds[i].intersects(exposed))
            continue;
        const auto& e = m_edges[i];
        if (!m_highlighted.empty() && (m_highlighted.count(e.from) || m_highlighted.count(e.to))) {
            hot.push_back(i);
            continue;
        }
        if (lod < kHiddenLod)
            continue;  // far out, only the selection's edges show
        if (curves && e.count > 1) {
            painter->setPen(QPen(m_color, widthFor(e.count)));
            painter->drawPath(curve(e));
            painter->setPen(pen);
        } else if (curves) {
            painter->drawPath(curve(e));
        } else {
            // Far out, an edge between neighbouring layers is a pixel or two, hidden by the
            // boxes it joins; drawing thousands of them is most of a frame. The long ones,
            // which show the graph's shape, stay.
            const QPointF d = e.end - e.start;
            if ((std::abs(d.x()) + std::abs(d.y())) * lod >= kShortestLine)
                lines.append(QLineF(e.start, e.end));
        }
    }
    if (!lines.isEmpty())
        painter->drawLines(lines);
    if (hot.empty())
        return;
    for (std::size_t i : hot) {
        painter->setPen(QPen(m_highlight, curves ? std::max<qreal>(2.5, widthFor(m_edges[i].count)) : 0));
        if (curves)
            painter->drawPath(curve(m_edges[i]));
        else
            painter->drawLine(m_edges[i].start, m_edges[i].end);
    }
}

}  // namespace ps::ui
