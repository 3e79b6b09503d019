#include "ui/graph/GraphCanvas.h"

#include "ui/graph/GraphBoxItem.h"

#include <QContextMenuEvent>
#include <QGraphicsItem>
#include <QGraphicsScene>
#include <QKeyEvent>
#include <QLineF>
#include <QMouseEvent>
#include <QPainter>
#include <QScrollBar>
#include <QStyleOptionGraphicsItem>
#include <QWheelEvent>

#include <algorithm>
#include <cmath>

namespace ps::ui {

namespace {
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
    viewport()->setAutoFillBackground(true);  // the one fill of a frame (paintEvent draws over it)
    // The user moving a scroll bar pans (actionTriggered: not emitted when the view scrolls itself).
    for (QScrollBar* bar : {horizontalScrollBar(), verticalScrollBar()})
        connect(bar, &QScrollBar::actionTriggered, this, [this]() { m_keepFitted = false; });
}

qreal GraphCanvas::zoom() const
{
    return transform().m11();
}

void GraphCanvas::setZoom(qreal z)
{
    m_keepFitted = false;
    applyZoom(z);
}

qreal GraphCanvas::fitZoom() const
{
    const QRectF r = sceneRect();
    if (r.isEmpty())
        return 1.0;
    const QSizeF vp = viewport()->size();
    return std::min(vp.width() / r.width(), vp.height() / r.height()) * 0.95;
}

qreal GraphCanvas::minZoom() const
{
    return std::min(kFloorZoom, fitZoom());
}

void GraphCanvas::applyZoom(qreal z)
{
    z = std::clamp(z, minZoom(), kMaxZoom);
    setTransform(QTransform::fromScale(z, z));
    emit zoomChanged(z);
}

void GraphCanvas::zoomBy(qreal factor)
{
    m_keepFitted = false;
    const qreal target = std::clamp(zoom() * factor, minZoom(), kMaxZoom);
    const qreal f = target / zoom();
    if (std::abs(f - 1) < 1e-9)
        return;
    scale(f, f);
    emit zoomChanged(target);
}

void GraphCanvas::scrollBy(const QPointF& delta)
{
    horizontalScrollBar()->setValue(horizontalScrollBar()->value() + qRound(delta.x()));
    verticalScrollBar()->setValue(verticalScrollBar()->value() + qRound(delta.y()));
}

void GraphCanvas::fitScene(qreal minZoom)
{
    const QRectF r = sceneRect();
    if (r.isEmpty())
        return;
    const QSizeF vp = viewport()->size();
    const qreal fit = fitZoom();
    if (fit >= minZoom) {
        applyZoom(std::max(std::min({fit, 1.0, m_fitCap}), minZoom));
        centerOn(r.center());
    } else {
        applyZoom(minZoom);
        const qreal visibleHeight = vp.height() / minZoom;
        centerOn(QPointF(r.center().x(), r.top() + visibleHeight / 2));
    }
}

void GraphCanvas::wheelEvent(QWheelEvent* event)
{
    const int delta = event->angleDelta().y();
    if (delta == 0) {
        m_keepFitted = false;
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

void GraphCanvas::keyPressEvent(QKeyEvent* event)
{
    const int key = event->key();
    const bool opens = key == Qt::Key_Return || key == Qt::Key_Enter || key == Qt::Key_Space || key == Qt::Key_Plus;
    if ((opens || key == Qt::Key_Minus) && scene() && scene()->selectedItems().size() == 1
        && !(event->modifiers() & (Qt::ControlModifier | Qt::AltModifier | Qt::MetaModifier))) {
        emit expandRequested(scene()->selectedItems().front(), opens);
        event->accept();
        return;
    }
    if (opens && scene() && scene()->selectedItems().isEmpty()
        && !(event->modifiers() & (Qt::ControlModifier | Qt::AltModifier | Qt::MetaModifier))) {
        // Nothing selected: the box nearest the middle of the view is, so that the keys alone
        // start walking the graph (the arrows pan until something is selected).
        const QPointF middle = mapToScene(viewport()->rect().center());
        QGraphicsItem* nearest = nullptr;
        qreal best = 0;
        for (QGraphicsItem* item : items(viewport()->rect()))
            if (item->flags() & QGraphicsItem::ItemIsSelectable) {
                const qreal d = QLineF(item->sceneBoundingRect().center(), middle).length();
                if (!nearest || d < best) {
                    nearest = item;
                    best = d;
                }
            }
        if (nearest) {
            nearest->setSelected(true);
            event->accept();
            return;
        }
    }
    if (key != Qt::Key_Up && key != Qt::Key_Down && key != Qt::Key_Left && key != Qt::Key_Right) {
        QGraphicsView::keyPressEvent(event);
        return;
    }
    const Qt::KeyboardModifiers mods = event->modifiers() & ~Qt::KeypadModifier;
    if (mods == Qt::NoModifier && scene() && !scene()->selectedItems().isEmpty()) {
        using Step = GraphNavigator::Step;
        emit stepRequested(key == Qt::Key_Up ? Step::Input
                : key == Qt::Key_Down        ? Step::User
                : key == Qt::Key_Left        ? Step::Previous
                                             : Step::Next);
        event->accept();
        return;
    }
    if (mods == Qt::ControlModifier) {
        m_keepFitted = false;
        // Pan whatever is selected (a plain arrow does that only with nothing selected).
        QScrollBar* bar = key == Qt::Key_Up || key == Qt::Key_Down ? verticalScrollBar() : horizontalScrollBar();
        bar->triggerAction(key == Qt::Key_Up || key == Qt::Key_Left ? QAbstractSlider::SliderSingleStepSub
                                                                    : QAbstractSlider::SliderSingleStepAdd);
        event->accept();
        return;
    }
    m_keepFitted = false;  // an arrow pans
    QGraphicsView::keyPressEvent(event);
}

void GraphCanvas::mouseMoveEvent(QMouseEvent* event)
{
    if (event->buttons() & Qt::LeftButton)
        m_keepFitted = false;  // a drag pans
    QGraphicsView::mouseMoveEvent(event);
}

void GraphCanvas::resizeEvent(QResizeEvent* event)
{
    QGraphicsView::resizeEvent(event);
    if (m_keepFitted)
        fitScene(0);
}

void GraphCanvas::paintEvent(QPaintEvent* event)
{
    const auto overview = m_overviewItems && zoom() < kFloorZoom ? m_overviewItems() : std::vector<QGraphicsItem*>{};
    if (overview.empty()) {
        QGraphicsView::paintEvent(event);
        emit painted();
        return;
    }
    // The viewport filled its background before this (the constructor): a second fill of the
    // whole viewport was a tenth of a zoomed-out frame.
    QPainter painter(viewport());
    painter.setRenderHints(renderHints());
    painter.setFont(font());
    painter.setWorldTransform(viewportTransform());
    QStyleOptionGraphicsItem option;
    option.exposedRect = mapToScene(event->rect()).boundingRect();
    for (QGraphicsItem* item : overview) {
        painter.save();
        item->paint(&painter, &option, viewport());
        painter.restore();
    }
    painter.end();
    emit painted();
}

void GraphCanvas::showActualSize(const QGraphicsItem* on)
{
    // 1:1 where the user is working: on `on` (the selection), else where the view is.
    const QPointF centre = mapToScene(viewport()->rect().center());
    setZoom(1.0);
    centerOn(on ? on->sceneBoundingRect().center() : centre);
}

void GraphCanvas::showReadable(const QGraphicsItem* item)
{
    // A match found from a fitted speck of a graph is shown where it can be read.
    if (zoom() * GraphBoxItem::fontPixels(font(), viewport()) < GraphBoxItem::kMinTextPx)
        setZoom(1.0);
    centerOn(item->sceneBoundingRect().center());
}

QList<QPair<QString, QString>> GraphCanvas::keyHelp()
{
    return {{tr("Search the graph's nodes (in the Graph tab)"), tr("Ctrl+F")},
        {tr("Go to the next / previous node that matches (in the node search)"), tr("Enter, Shift+Enter")},
        {tr("From the node search to the canvas"), tr("Tab")}, {tr("Select the node's input / user"), tr("Up, Down")},
        {tr("Select the previous / next node"), tr("Left, Right")},
        {tr("Select the box in the middle of the view (nothing selected)"), tr("Enter, Space")},
        {tr("Expand the selected module"), tr("Enter, Space, +")},
        {tr("Collapse the module around the selected node"), tr("-")}, {tr("Pan the graph"), tr("Ctrl+arrows")},
        {tr("Zoom in / out"), tr("Ctrl++, Ctrl+-, Ctrl+wheel")}, {tr("Fit the graph"), tr("Ctrl+0")}};
}

}  // namespace ps::ui
