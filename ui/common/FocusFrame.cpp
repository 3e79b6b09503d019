#include "ui/common/FocusFrame.h"

#include <QPainter>

namespace ps::ui {

FocusFrame::FocusFrame() : OverlayWidget(nullptr)
{
    setObjectName(QStringLiteral("paneFocusFrame"));
}

void FocusFrame::paintEvent(QPaintEvent*)
{
    QPainter p(this);
    QPen pen(palette().color(QPalette::Highlight), kWidth);
    pen.setJoinStyle(Qt::MiterJoin);
    p.setPen(pen);
    p.setBrush(Qt::NoBrush);
    const qreal half = kWidth / 2.0;
    p.drawRect(QRectF(rect()).adjusted(half, half, -half, -half));
}

}  // namespace ps::ui
