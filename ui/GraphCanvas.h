#pragma once

#include <QGraphicsView>

namespace ps::ui {

/// The graph's QGraphicsView: drag the background to pan, the wheel (or Ctrl + / Ctrl -) to
/// zoom around the cursor, click to select, Ctrl+click to add to the selection, double-click to
/// activate an item (GraphView expands a module), right-click for an item's menu.
class GraphCanvas : public QGraphicsView {
    Q_OBJECT
public:
    explicit GraphCanvas(QWidget* parent = nullptr);

    qreal zoom() const;
    void setZoom(qreal zoom);
    void zoomBy(qreal factor);
    /// The whole scene in view, but never smaller than `minZoom` (then the top is shown).
    void fitScene(qreal minZoom);

signals:
    /// After every paint of the viewport (the benchmark's "first paint").
    void painted();
    void zoomChanged(qreal zoom);
    void itemActivated(QGraphicsItem* item);
    /// `item` may be null (the background).
    void contextMenuRequested(QGraphicsItem* item, const QPoint& globalPos);

protected:
    void wheelEvent(QWheelEvent* event) override;
    void paintEvent(QPaintEvent* event) override;
    void mouseDoubleClickEvent(QMouseEvent* event) override;
    void contextMenuEvent(QContextMenuEvent* event) override;
};

}  // namespace ps::ui
