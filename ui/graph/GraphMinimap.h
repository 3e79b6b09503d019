#pragma once

#include "ui/graph/BoxGrid.h"

#include <QImage>
#include <QWidget>

#include <vector>

namespace ps::ui {

class GraphCanvas;

/// The whole graph in small, in a corner of the canvas's viewport (bottom right unless boxes are
/// there and another corner hides fewer: chosen again as the view moves and is resized), with
/// the part in view outlined. Click or drag in it to move the view there.
/// Shown only while part of the graph is out of view: when the whole graph fits, it would only
/// cover some of it. Translucent, so what is under it still shows. The picture is drawn once
/// per layout (or lens), from the boxes' rectangles and fills, so panning only repaints the
/// outline.
class GraphMinimap : public QWidget {
    Q_OBJECT
public:
    explicit GraphMinimap(GraphCanvas* canvas);

    struct Box {
        QRectF rect;
        QColor fill;
    };
    /// Redraws the picture of the scene `sceneRect` from these boxes.
    void setBoxes(const QRectF& sceneRect, const std::vector<Box>& boxes);
    /// The scene point a widget position stands for.
    QPointF toScene(const QPointF& widgetPos) const;
    /// The outline of the canvas's view, in widget coordinates.
    QRectF viewOutline() const;

protected:
    void paintEvent(QPaintEvent* event) override;
    void mousePressEvent(QMouseEvent* event) override;
    void mouseMoveEvent(QMouseEvent* event) override;
    bool eventFilter(QObject* watched, QEvent* event) override;

private:
    /// On-screen area of the boxes under `viewportRect` (viewport coordinates).
    qint64 boxAreaUnder(const QRect& viewportRect) const;

    void place();
    /// Shown while the boxes are not all in view.
    void updateShown();
    QRectF imageRect() const;

    GraphCanvas* m_canvas;
    QImage m_image;
    QRectF m_sceneRect;
    QRectF m_content;  ///< around every box
    BoxGrid m_grid;    ///< the boxes' rectangles
};

}  // namespace ps::ui
