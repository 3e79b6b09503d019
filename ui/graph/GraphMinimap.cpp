#include "ui/graph/GraphMinimap.h"

#include "ui/graph/GraphCanvas.h"

#include <QGraphicsItem>
#include <QMouseEvent>
#include <QPainter>
#include <QScrollBar>

#include <algorithm>

namespace ps::ui {

namespace {
constexpr int kSide = 160;  // the longer side of the minimap, in pixels
constexpr int kMinimapMargin = 10;
}  // namespace

GraphMinimap::GraphMinimap(GraphCanvas* canvas) : QWidget(canvas), m_canvas(canvas)
{
    setCursor(Qt::PointingHandCursor);
    setToolTip(tr("Overview: click or drag to move the view"));
    // The viewport's own resize: when the canvas's arrives, the viewport is not resized yet.
    canvas->viewport()->installEventFilter(this);
    for (QScrollBar* bar : {canvas->horizontalScrollBar(), canvas->verticalScrollBar()})
        connect(bar, &QScrollBar::valueChanged, this, &GraphMinimap::updateShown);
    connect(canvas, &GraphCanvas::zoomChanged, this, &GraphMinimap::updateShown);
    hide();
}

void GraphMinimap::setBoxes(const QRectF& sceneRect, const std::vector<Box>& boxes)
{
    m_sceneRect = sceneRect;
    m_content = QRectF();
    std::vector<QRectF> rects;
    rects.reserve(boxes.size());
    for (const auto& b : boxes) {
        m_content = m_content.united(b.rect);
        rects.push_back(b.rect);
    }
    m_grid = BoxGrid(std::move(rects));
    if (sceneRect.isEmpty()) {
        m_image = QImage();
        hide();
        return;
    }
    // Tall graphs stay readable: at least a third of the side across.
    const qreal aspect = sceneRect.width() / sceneRect.height();
    QSize size = aspect >= 1 ? QSize(kSide, std::max(kSide / 3, int(kSide / aspect)))
                             : QSize(std::max(kSide / 3, int(kSide * aspect)), kSide);
    m_image = QImage(size, QImage::Format_ARGB32_Premultiplied);
    QColor bg = palette().color(QPalette::Window);
    bg.setAlpha(190);
    m_image.fill(bg);
    QPainter p(&m_image);
    const qreal sx = size.width() / sceneRect.width(), sy = size.height() / sceneRect.height();
    for (const auto& b : boxes) {
        QRectF r((b.rect.left() - sceneRect.left()) * sx, (b.rect.top() - sceneRect.top()) * sy,
            std::max<qreal>(1, b.rect.width() * sx), std::max<qreal>(1, b.rect.height() * sy));
        p.fillRect(r, b.fill.darker(115));
    }
    p.setPen(palette().color(QPalette::Mid));
    p.drawRect(QRect(QPoint(0, 0), size - QSize(1, 1)));
    p.end();
    resize(size);
    place();
    updateShown();
}

void GraphMinimap::updateShown()
{
    const QRectF view = m_canvas->mapToScene(m_canvas->viewport()->rect()).boundingRect();
    // Half a pixel of slack: a fitted view's edges fall on fractions of a scene unit.
    const qreal slack = 0.5 / std::max(m_canvas->zoom(), 1e-6);
    const bool wanted = !m_image.isNull() && !view.adjusted(-slack, -slack, slack, slack).contains(m_content);
    if (wanted == isHidden())
        setVisible(wanted);
    if (wanted) {
        place();  // the view moved: the boxes under each corner did too
        update();
    }
}

QRectF GraphMinimap::imageRect() const
{
    return QRectF(QPointF(0, 0), m_image.size());
}

QPointF GraphMinimap::toScene(const QPointF& pos) const
{
    if (m_image.isNull())
        return {};
    return QPointF(m_sceneRect.left() + pos.x() / m_image.width() * m_sceneRect.width(),
        m_sceneRect.top() + pos.y() / m_image.height() * m_sceneRect.height());
}

QRectF GraphMinimap::viewOutline() const
{
    if (m_image.isNull())
        return {};
    const QRectF view = m_canvas->mapToScene(m_canvas->viewport()->rect()).boundingRect();
    const qreal sx = m_image.width() / m_sceneRect.width(), sy = m_image.height() / m_sceneRect.height();
    return QRectF((view.left() - m_sceneRect.left()) * sx, (view.top() - m_sceneRect.top()) * sy, view.width() * sx,
        view.height() * sy)
        .intersected(imageRect().adjusted(0, 0, -1, -1));
}

void GraphMinimap::paintEvent(QPaintEvent*)
{
    if (m_image.isNull())
        return;
    QPainter p(this);
    p.drawImage(0, 0, m_image);
    QColor h = palette().color(QPalette::Highlight);
    p.setPen(QPen(h, 1.5));
    h.setAlpha(40);
    p.setBrush(h);
    p.drawRect(viewOutline());
}

void GraphMinimap::mousePressEvent(QMouseEvent* event)
{
    m_canvas->centerOn(toScene(event->position()));
    event->accept();
}

void GraphMinimap::mouseMoveEvent(QMouseEvent* event)
{
    if (event->buttons() & Qt::LeftButton)
        m_canvas->centerOn(toScene(event->position()));
    event->accept();
}

bool GraphMinimap::eventFilter(QObject* watched, QEvent* event)
{
    if (watched == m_canvas->viewport() && event->type() == QEvent::Resize) {
        place();
        updateShown();
    }
    return QWidget::eventFilter(watched, event);
}

void GraphMinimap::place()
{
    // The corner that hides the fewest boxes now: bottom right unless boxes are there (a
    // narrow graph's middle column is at no corner; a wide row's is at the bottom).
    const QRect vp = m_canvas->viewport()->geometry();
    const QPoint corners[] = {{vp.right() - width() - kMinimapMargin, vp.bottom() - height() - kMinimapMargin},
        {vp.left() + kMinimapMargin, vp.bottom() - height() - kMinimapMargin},
        {vp.right() - width() - kMinimapMargin, vp.top() + kMinimapMargin},
        {vp.left() + kMinimapMargin, vp.top() + kMinimapMargin}};
    const auto hides = [this](const QPoint& corner) {
        return boxAreaUnder(QRect(m_canvas->viewport()->mapFrom(m_canvas, corner), size()));
    };
    // Called on every scroll step: in the preferred corner while it hides nothing, it stays
    // (one query instead of four; the search below would pick that corner too).
    if (isVisible() && pos() == corners[0] && hides(corners[0]) == 0) {
        raise();
        return;
    }
    QPoint best = corners[0];
    qint64 fewest = -1;
    for (const QPoint& corner : corners) {
        const qint64 hidden = hides(corner);
        if (fewest < 0 || hidden < fewest) {
            fewest = hidden;
            best = corner;
        }
        if (hidden == 0)
            break;
    }
    if (pos() != best)
        move(best);
    raise();
}

qint64 GraphMinimap::boxAreaUnder(const QRect& viewportRect) const
{
    // The boxes themselves (not the room their titles may take beside them), from the grid of
    // their rectangles: asking the scene (and each box's shape) on every scroll step took a
    // sixth of a zoomed-out frame of the 50k-node graph.
    qint64 area = 0;
    const QRectF inScene = m_canvas->mapToScene(viewportRect).boundingRect();
    for (int i : m_grid.near(inScene)) {
        const QRect shown = m_canvas->mapFromScene(m_grid.rect(i)).boundingRect() & viewportRect;
        area += qint64(shown.width()) * shown.height();
    }
    return area;
}

}  // namespace ps::ui
