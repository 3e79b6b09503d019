#include "ui/graph/GraphBoxItem.h"

#include "ui/common/StatusStyle.h"

#include <QFontMetricsF>
#include <QPaintDevice>
#include <QPainter>
#include <QStyleOptionGraphicsItem>
#include <QWidget>

#include <cmath>

namespace ps::ui {

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

void GraphBoxItem::setMarked(bool marked)
{
    if (m_marked == marked)
        return;
    m_marked = marked;
    update();
}

GraphBoxItem::Detail GraphBoxItem::detailAt(qreal lod, qreal fontPx, qreal boxHeight)
{
    if (fontPx * lod >= kMinTextPx)
        return Detail::Full;
    if (boxHeight * lod >= kTitleBoxPx)
        return Detail::Title;
    return Detail::Plain;
}

qreal GraphBoxItem::titlePixelsAt(qreal lod, qreal fontPx) const
{
    switch (detailAt(lod, fontPx, m_rect.height())) {
    case Detail::Full:
        return fontPx * lod;
    case Detail::Title:
        return kTitlePx;
    case Detail::Plain:
        break;
    }
    return titleBesideAt(lod, fontPx) ? kTitlePx : 0;
}

qreal GraphBoxItem::fontPixels(const QFont& font, const QPaintDevice* device)
{
    if (font.pixelSize() > 0)
        return font.pixelSize();
    const int dpi = device ? device->logicalDpiY() : 96;
    return font.pointSizeF() * dpi / 72.0;
}

void GraphBoxItem::setRoomBeside(qreal right, qreal clearance)
{
    prepareGeometryChange();
    m_roomRight = std::max<qreal>(0, right);
    m_clearance = std::max<qreal>(0, clearance);
    m_elidedLod = -1;
}

bool GraphBoxItem::titleBesideAt(qreal lod, qreal fontPx) const
{
    const Detail detail = detailAt(lod, fontPx, m_rect.height());
    if (detail == Detail::Full || m_roomRight * lod < kBesideMinPx || m_clearance * lod < kTitlePx + 4)
        return false;
    if (detail == Detail::Plain)
        return true;
    // Title detail: beside only when the title does not fit in the box. Measured once per zoom,
    // not on every paint of every box.
    if (std::abs(lod - m_fitsLod) > 0.01 * lod) {
        const QFont font = titleFont(QFont(), lod, fontPx);
        m_titleFits = QFontMetricsF(font).horizontalAdvance(shortTitle()) <= m_rect.width() - 6 / lod;
        m_fitsLod = lod;
    }
    return !m_titleFits;
}

QRectF GraphBoxItem::titleBesideRectAt(qreal lod, qreal fontPx) const
{
    if (!titleBesideAt(lod, fontPx))
        return {};
    const QFontMetricsF metrics(titleFont(QFont(), lod, fontPx));
    const qreal pad = 3 / lod;
    const qreal width = std::min(metrics.horizontalAdvance(shortTitle()), m_roomRight - 2 * pad);
    return QRectF(m_rect.right() + pad, m_rect.center().y() - metrics.height() / 2, width, metrics.height());
}

QRectF GraphBoxItem::boundingRect() const
{
    const qreal beside = std::max<qreal>(0, (m_clearance - m_rect.height()) / 2);
    return m_rect.adjusted(-4, -4 - beside, 8 + m_roomRight, 8 + beside);
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

void GraphBoxItem::paint(QPainter* painter, const QStyleOptionGraphicsItem* option, QWidget* widget)
{
    // A title beside the box is on the canvas, not on the box: the canvas's text colour.
    m_besideText = widget ? widget->palette().color(QPalette::Text) : m_colors.text;
    const qreal lod = option->levelOfDetailFromTransform(painter->worldTransform());
    const qreal fontPx = fontPixels(painter->font(), painter->device());
    const Detail detail = detailAt(lod, fontPx, m_rect.height());
    const bool selected = isSelected();
    const QColor relationColor = m_relation == Relation::Upstream ? m_colors.upstream
        : m_relation == Relation::Downstream                      ? m_colors.downstream
        : m_marked                                                ? StatusStyle::color(model::CaptureStatus::Error)
                                                                  : m_colors.border;
    const bool framed = m_relation != Relation::None || m_marked;
    const bool beside = detail != Detail::Full && titleBesideAt(lod, fontPx);
    if (detail == Detail::Plain) {
        painter->fillRect(m_rect, selected ? m_colors.highlight : (framed ? relationColor : m_colors.fill));
        if (beside)
            paintTitle(painter, lod, fontPx, true);
        return;
    }
    if (detail == Detail::Title) {
        painter->fillRect(m_rect, m_colors.fill);
        if (selected || framed) {
            QPen pen(selected ? m_colors.highlight : relationColor, selected || m_marked ? 3.0 : 2.0);
            pen.setCosmetic(true);
            painter->setPen(pen);
            painter->setBrush(Qt::NoBrush);
            painter->drawRect(m_rect);
        }
        paintTitle(painter, lod, fontPx, beside);
        return;
    }
    painter->setRenderHint(QPainter::Antialiasing, true);
    QPen pen(selected ? m_colors.highlight : relationColor,
        selected || m_marked ? 3.0 : (m_relation != Relation::None ? 2.5 : 1.0));
    if (dashed() && !selected)
        pen.setStyle(Qt::DashLine);
    paintFrame(painter, pen);
    painter->setPen(m_colors.text);
    paintLabels(painter, m_rect.adjusted(8, 3, -8, -3));
}

QFont GraphBoxItem::titleFont(const QFont& base, qreal lod, qreal fontPx)
{
    QFont font = base;
    font.setBold(true);
    // kTitlePx on screen whatever the zoom: the font grows in the scene as the view shrinks.
    const qreal grow = kTitlePx / (fontPx * lod);
    if (font.pixelSize() > 0)
        font.setPixelSize(std::max(1, qRound(font.pixelSize() * grow)));
    else
        font.setPointSizeF(font.pointSizeF() * grow);
    return font;
}

QString GraphBoxItem::elidedPath(const QString& path, const QFontMetricsF& fm, qreal width)
{
    if (fm.horizontalAdvance(path) <= width)
        return path;
    const QStringList parts = path.split('.');
    const QString ellipsis = QStringLiteral("…");
    if (parts.size() >= 3) {
        // Cut in the middle: the root and the last two parts ("model…bn2.weight"), then the
        // last two alone ("…bn2.weight"): the module and what of it, never "…2.weight".
        const QString tail = parts.mid(parts.size() - 2).join('.');
        for (const QString& candidate : {parts.front() + ellipsis + tail, ellipsis + tail})
            if (fm.horizontalAdvance(candidate) <= width)
                return candidate;
        return fm.elidedText(tail, Qt::ElideMiddle, width);
    }
    return fm.elidedText(path, Qt::ElideMiddle, width);
}

void GraphBoxItem::paintTitle(QPainter* painter, qreal lod, qreal fontPx, bool beside)
{
    const QFont base = painter->font();
    const QFont font = titleFont(base, lod, fontPx);
    const qreal pad = 3 / lod;  // 3 px on screen
    const QRectF inner = beside
        ? QRectF(m_rect.right() + pad, m_rect.center().y() - m_clearance / 2, m_roomRight - 2 * pad, m_clearance)
        : m_rect.adjusted(pad, 0, -pad, 0);
    if (std::abs(lod - m_elidedLod) > 0.01 * lod || beside != m_elidedBeside) {
        // A dotted path ("model.layers.3.attn.weight") says the most at its end; a name with a
        // type ("0 · Block") at its start.
        const QString title = shortTitle();
        const bool path = title.contains('.') && !title.contains(' ');
        const QFontMetricsF fm(font);
        m_elided = path ? elidedPath(title, fm, inner.width()) : fm.elidedText(title, Qt::ElideRight, inner.width());
        m_elidedLod = lod;
        m_elidedBeside = beside;
    }
    painter->setFont(font);
    painter->setPen(beside ? m_besideText : m_colors.text);
    painter->drawText(inner, (beside ? Qt::AlignLeft | Qt::AlignVCenter : Qt::AlignCenter), m_elided);
    painter->setFont(base);  // the canvas does not restore the painter between items
}

}  // namespace ps::ui
