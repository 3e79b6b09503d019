#include "ui/graph/GraphOverviewItem.h"

#include <QPainter>
#include <QPainterPath>

#include <algorithm>
#include <cmath>

namespace ps::ui {

GraphOverviewItem::GraphOverviewItem(const QRectF& sceneRect, const std::vector<GraphMinimap::Box>& boxes)
    : m_rect(sceneRect)
{
    setZValue(1);  // where the boxes are; the regions' labels stay above
    setAcceptedMouseButtons(Qt::NoButton);
    if (sceneRect.isEmpty())
        return;
    const qreal scale = kSide / std::max(sceneRect.width(), sceneRect.height());
    m_image = QImage(std::max(1, qRound(sceneRect.width() * scale)), std::max(1, qRound(sceneRect.height() * scale)),
        QImage::Format_ARGB32_Premultiplied);
    m_image.fill(Qt::transparent);
    QPainter p(&m_image);
    // A box keeps a pixel at least, so that none disappears from the picture.
    for (const auto& b : boxes) {
        const QRectF r((b.rect.left() - sceneRect.left()) * scale, (b.rect.top() - sceneRect.top()) * scale,
            std::max<qreal>(1, b.rect.width() * scale), std::max<qreal>(1, b.rect.height() * scale));
        p.fillRect(r, b.fill.darker(115));
    }
    p.end();
    m_levels.reserve(16);  // the pointer below stays valid
    for (const QImage* last = &m_image; last->width() > 64 && last->height() > 64;) {
        m_levels.push_back(
            last->scaled(last->width() / 2, last->height() / 2, Qt::IgnoreAspectRatio, Qt::SmoothTransformation));
        last = &m_levels.back();
    }
}

void GraphOverviewItem::paint(QPainter* painter, const QStyleOptionGraphicsItem*, QWidget*)
{
    if (m_image.isNull())
        return;
    const QRectF target = painter->worldTransform().mapRect(m_rect);
    const QImage* source = &m_image;
    for (const QImage& level : m_levels)
        if (level.width() >= target.width() && level.height() >= target.height())
            source = &level;
    painter->save();
    painter->setRenderHint(QPainter::SmoothPixmapTransform, true);
    painter->drawImage(m_rect, *source);
    painter->restore();
}

}  // namespace ps::ui
