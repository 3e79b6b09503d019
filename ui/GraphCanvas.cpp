#include "ui/GraphCanvas.h"

#include <QContextMenuEvent>
#include <QGraphicsItem>
#include <QMouseEvent>
#include <QWheelEvent>

#include <algorithm>
#include <cmath>

namespace ps::ui {

namespace {
constexpr qreal kMinZoom = 0.02;
constexpr qreal kMaxZoom = 4.0;
}  // namespace

GraphCanvas::GraphCanvas(QWidget* parent) : QGraphicsView(parent)
{
    setDragMode(ScrollHandDrag);
    setTransformationAnchor(AnchorUnderMouse);
    setResizeAnchor(AnchorViewCenter);
    setRenderHint(QPainter::Antialiasing, true);
    setRenderHint(QPainter::TextAntialiasing, true);
    setViewportUpdateMode(SmartViewportUpdate);
    setOptimizationFlag(DontSavePainterState, true);
    setFrameShape(QFrame::NoFrame);
    setBackgroundRole(QPalette::Base);
}

qreal GraphCanvas::zoom() const
{
    return transform().m11();
}

void GraphCanvas::setZoom(qreal z)
{
    z = std::clamp(z, kMinZoom, kMaxZoom);
    setTransform(QTransform::fromScale(z, z));
    emit zoomChanged(z);
}

void GraphCanvas::zoomBy(qreal factor)
{
    const qreal target = std::clamp(zoom() * factor, kMinZoom, kMaxZoom);
    const qreal f = target / zoom();
    if (std::abs(f - 1) < 1e-9)
        return;
    scale(f, f);
    emit zoomChanged(target);
}

void GraphCanvas::fitScene(qreal minZoom)
{
    const QRectF r = sceneRect();
    if (r.isEmpty())
        return;
    const QSizeF vp = viewport()->size();
    const qreal fit = std::min(vp.width() / r.width(), vp.height() / r.height()) * 0.95;
    if (fit >= minZoom) {
        setZoom(std::min(fit, 1.0));
        centerOn(r.center());
    } else {
        setZoom(minZoom);
        const qreal visibleHeight = vp.height() / minZoom;
        centerOn(QPointF(r.center().x(), r.top() + visibleHeight / 2));
    }
}

void GraphCanvas::wheelEvent(QWheelEvent* event)
{
    const int delta = event->angleDelta().y();
    if (delta == 0) {
        QGraphicsView::wheelEvent(event);
        return;
    }
    zoomBy(std::pow(1.0015, delta));
    event->accept();
}

void GraphCanvas::mouseDoubleClickEvent(QMouseEvent* event)
{
    if (QGraphicsItem* item = itemAt(event->position().toPoint());
        item && item->flags() & QGraphicsItem::ItemIsSelectable) {
        emit itemActivated(item);
        event->accept();
        return;
    }
    QGraphicsView::mouseDoubleClickEvent(event);
}

void GraphCanvas::contextMenuEvent(QContextMenuEvent* event)
{
    QGraphicsItem* item = itemAt(event->pos());
    if (item && !(item->flags() & QGraphicsItem::ItemIsSelectable))
        item = nullptr;
    emit contextMenuRequested(item, event->globalPos());
    event->accept();
}

void GraphCanvas::paintEvent(QPaintEvent* event)
{
    QGraphicsView::paintEvent(event);
    emit painted();
}

}  // namespace ps::ui
