#include "ui/common/FadeOverlay.h"

#include <QPaintEvent>
#include <QPainter>

namespace ps::ui {

FadeOverlay::FadeOverlay(QWidget* target, qreal opacity) : OverlayWidget(target), m_opacity(opacity)
{
    setObjectName(QStringLiteral("fadeOverlay"));
}

void FadeOverlay::paintEvent(QPaintEvent* event)
{
    QPainter p(this);
    QColor veil = palette().color(QPalette::Window);
    veil.setAlphaF(float(m_opacity));
    p.fillRect(event->rect(), veil);
}

}  // namespace ps::ui
