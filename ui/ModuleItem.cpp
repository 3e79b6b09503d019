#include "ui/ModuleItem.h"

#include <QPainter>

namespace ps::ui {

ModuleItem::ModuleItem(
    int item, int module, const QString& path, const QString& type, int nodes, const QRectF& rect, const Colors& colors)
    : GraphBoxItem(item, rect, colors), m_module(module), m_path(path), m_type(type), m_nodes(nodes)
{
    setToolTip(QObject::tr("%1 (%2)\n%n node(s) — double-click to expand", nullptr, nodes)
                   .arg(path, type.isEmpty() ? QObject::tr("module") : type));
}

void ModuleItem::paintFrame(QPainter* painter, const QPen& pen)
{
    // Two cards peeking out behind: "there is more in here".
    painter->setPen(QPen(pen.color(), 1.0));
    painter->setBrush(colors().fill.darker(112));
    painter->drawRoundedRect(rect().translated(6, 6), 6, 6);
    painter->drawRoundedRect(rect().translated(3, 3), 6, 6);
    GraphBoxItem::paintFrame(painter, pen);
}

void ModuleItem::paintLabels(QPainter* painter, const QRectF& inner)
{
    const qreal half = inner.height() / 2;
    QFont font = painter->font();
    font.setBold(true);
    painter->setFont(font);
    const QFontMetricsF fm(font);
    const QString name = m_path.section('.', -1);
    painter->drawText(QRectF(inner.left(), inner.top(), inner.width(), half), Qt::AlignLeft | Qt::AlignVCenter,
        fm.elidedText(
            QStringLiteral("▸ ") + (m_type.isEmpty() ? name : name + " · " + m_type), Qt::ElideMiddle, inner.width()));
    font.setBold(false);
    painter->setFont(font);
    const QFontMetricsF fm2(font);
    // The count always shows; the path (its end is what tells boxes apart) fills what is left.
    const QString count = QObject::tr("%n node(s)", nullptr, m_nodes);
    const QString sep = QStringLiteral(" · ");
    const qreal room = inner.width() - fm2.horizontalAdvance(count + sep);
    QString text = count;
    if (room > fm2.horizontalAdvance(QStringLiteral("…") + name))
        text += sep + fm2.elidedText(m_path, Qt::ElideLeft, room);
    painter->drawText(QRectF(inner.left(), inner.top() + half, inner.width(), half), Qt::AlignLeft | Qt::AlignVCenter,
        fm2.elidedText(text, Qt::ElideRight, inner.width()));
}

}  // namespace ps::ui
