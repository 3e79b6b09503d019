#include "ui/NodeItem.h"

#include "ui/GraphModel.h"

#include <QFontMetricsF>
#include <QPainter>
#include <QStyleOptionGraphicsItem>

namespace ps::ui {

namespace {
constexpr qreal kTextLod = 0.35;
}

NodeItem::NodeItem(int index, const GraphNode* node, const QRectF& rect, const Colors& colors)
    : m_index(index), m_node(node), m_rect(rect), m_colors(colors)
{
    setFlag(ItemIsSelectable);
    setZValue(1);
    setToolTip(QString::fromStdString(node->name + "\n" + node->target));
}

void NodeItem::setRelated(bool related)
{
    if (m_related == related)
        return;
    m_related = related;
    update();
}

QRectF NodeItem::boundingRect() const
{
    return m_rect.adjusted(-3, -3, 3, 3);
}

QPainterPath NodeItem::shape() const
{
    QPainterPath p;
    p.addRect(m_rect);
    return p;
}

void NodeItem::paint(QPainter* painter, const QStyleOptionGraphicsItem* option, QWidget*)
{
    const qreal lod = option->levelOfDetailFromTransform(painter->worldTransform());
    const bool selected = isSelected();
    if (lod < kTextLod) {
        painter->fillRect(m_rect, selected ? m_colors.highlight : (m_related ? m_colors.border : m_colors.fill));
        return;
    }
    painter->setRenderHint(QPainter::Antialiasing, true);
    QPen pen(selected ? m_colors.highlight : m_colors.border, selected ? 3.0 : (m_related ? 2.0 : 1.0));
    if (m_node->phase == "backward" && !selected)
        pen.setStyle(Qt::DashLine);
    painter->setPen(pen);
    painter->setBrush(m_colors.fill);
    painter->drawRoundedRect(m_rect, 6, 6);

    painter->setPen(m_colors.text);
    QFont font = painter->font();
    const QRectF inner = m_rect.adjusted(8, 3, -8, -3);
    const qreal half = inner.height() / 2;
    font.setBold(true);
    painter->setFont(font);
    QFontMetricsF fm(font);
    const QString title = QString::fromStdString(m_node->kind == "compute" || m_node->qualname.empty()
                                                     ? m_node->name : m_node->qualname);
    painter->drawText(QRectF(inner.left(), inner.top(), inner.width(), half), Qt::AlignLeft | Qt::AlignVCenter,
                      fm.elidedText(title, Qt::ElideMiddle, inner.width()));
    font.setBold(false);
    painter->setFont(font);
    QFontMetricsF fm2(font);
    QString sub = QString::fromStdString(m_node->kind == "compute" ? m_node->shortTarget() : m_node->kind);
    if (!m_node->shape.empty())
        sub += "  " + QString::fromStdString(m_node->shape);
    painter->drawText(QRectF(inner.left(), inner.top() + half, inner.width(), half), Qt::AlignLeft | Qt::AlignVCenter,
                      fm2.elidedText(sub, Qt::ElideRight, inner.width()));
}

} // namespace ps::ui
