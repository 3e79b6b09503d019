#include "ui/GraphBoxItem.h"

#include <QPainter>
#include <QStyleOptionGraphicsItem>

namespace ps::ui {

namespace {
constexpr qreal kTextLod = 0.5;  // below half size a 9 pt label is under 6 px: not legible, not drawn
}

GraphBoxItem::GraphBoxItem(int item, const QRectF& rect, const Colors& colors)
    : m_item(item), m_rect(rect), m_colors(colors)
{
    setFlag(ItemIsSelectable);
    setZValue(1);
}

void GraphBoxItem::setColors(const Colors& colors)
{
    m_colors = colors;
    update();
}

void GraphBoxItem::setRelation(Relation relation)
{
    if (m_relation == relation)
        return;
    m_relation = relation;
    update();
}

QRectF GraphBoxItem::boundingRect() const
{
    return m_rect.adjusted(-4, -4, 8, 8);
}

QPainterPath GraphBoxItem::shape() const
{
    QPainterPath p;
    p.addRect(m_rect);
    return p;
}

void GraphBoxItem::paintFrame(QPainter* painter, const QPen& pen)
{
    painter->setPen(pen);
    painter->setBrush(m_colors.fill);
    painter->drawRoundedRect(m_rect, 6, 6);
}

void GraphBoxItem::paint(QPainter* painter, const QStyleOptionGraphicsItem* option, QWidget*)
{
    const qreal lod = option->levelOfDetailFromTransform(painter->worldTransform());
    const bool selected = isSelected();
    const QColor relationColor = m_relation == Relation::Upstream ? m_colors.upstream
        : m_relation == Relation::Downstream                      ? m_colors.downstream
                                                                  : m_colors.border;
    if (lod < kTextLod) {
        painter->fillRect(
            m_rect, selected ? m_colors.highlight : (m_relation != Relation::None ? relationColor : m_colors.fill));
        return;
    }
    painter->setRenderHint(QPainter::Antialiasing, true);
    QPen pen(
        selected ? m_colors.highlight : relationColor, selected ? 3.0 : (m_relation != Relation::None ? 2.5 : 1.0));
    if (dashed() && !selected)
        pen.setStyle(Qt::DashLine);
    paintFrame(painter, pen);
    painter->setPen(m_colors.text);
    paintLabels(painter, m_rect.adjusted(8, 3, -8, -3));
}

}  // namespace ps::ui
