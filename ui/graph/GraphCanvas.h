#pragma once

#include "ui/graph/GraphNavigator.h"

#include <QGraphicsView>

#include <functional>
#include <limits>
#include <vector>

namespace ps::ui {

/// The graph's QGraphicsView: drag the background to pan, the wheel (or Ctrl + / Ctrl -) to
/// zoom around the cursor, click to select, Ctrl+click to add to the selection, double-click to
/// activate an item (GraphView expands a module), right-click for an item's menu. With a box
/// selected, the arrow keys ask to move the selection (stepRequested: Up to an input, Down to a
/// user, Left and Right along the layer); with none, or with Ctrl held, they pan. A fitted view
/// stays fitted when the canvas is resized, until the user zooms or pans. Zooming out stops at
/// 0.02, or at the zoom that shows the whole scene when that is smaller: however big the graph,
/// Fit shows all of it (the boxes then draw as their modules' named regions, GraphBoxItem).
class GraphCanvas : public QGraphicsView {
    Q_OBJECT
public:
    explicit GraphCanvas(QWidget* parent = nullptr);

    /// Zooming out stops here unless the whole scene needs less (see minZoom()).
    static constexpr qreal kFloorZoom = 0.02;

    qreal zoom() const;
    /// The zoom at which the whole scene fits the viewport, with a little room around it.
    qreal fitZoom() const;
    /// The least zoom: 0.02, or fitZoom() where that is smaller.
    qreal minZoom() const;
    void setZoom(qreal zoom);
    void zoomBy(qreal factor);
    /// Scrolls the view by `delta` viewport pixels (what was at delta is then at 0,0).
    void scrollBy(const QPointF& delta);
    /// The whole scene in view (never past 1:1 nor past the fit cap), but never smaller than
    /// `minZoom` (then the top is shown).
    void fitScene(qreal minZoom);
    /// The most a fit zooms in (Compare's two sides fitted to one zoom); infinity: no cap.
    void setFitCap(qreal cap) { m_fitCap = cap; }
    qreal fitCap() const { return m_fitCap; }
    /// 1:1, centred on `on` (null: where the view is centred now).
    void showActualSize(const QGraphicsItem* on);
    /// Centres `item`, at 1:1 first when the zoom is too small for its text.
    void showReadable(const QGraphicsItem* item);
    /// What each key does on the canvas and in the node search, for Help > Keyboard Shortcuts.
    static QList<QPair<QString, QString>> keyHelp();
    /// What the canvas draws below kFloorZoom in place of the whole scene, asked at every paint
    /// there (GraphScene::overviewItems(): one picture of the boxes and the regions): a fitted
    /// view of tens of thousands of items would otherwise walk and sort them all every frame.
    /// Empty: the scene as usual.
    void setOverviewItems(std::function<std::vector<QGraphicsItem*>()> items) { m_overviewItems = std::move(items); }
    /// While set, a resize fits the scene again (fitScene(0)); the user's zoom or pan clears it.
    void setKeepFitted(bool keep) { m_keepFitted = keep; }
    bool keepsFitted() const { return m_keepFitted; }

signals:
    /// After every paint of the viewport (the benchmark's "first paint").
    void painted();
    void zoomChanged(qreal zoom);
    void itemActivated(QGraphicsItem* item);
    /// `item` may be null (the background).
    void contextMenuRequested(QGraphicsItem* item, const QPoint& globalPos);
    void stepRequested(GraphNavigator::Step step);
    /// Enter, Return, Space or + (expand) and - (collapse) on the one selected box.
    void expandRequested(QGraphicsItem* item, bool expand);

protected:
    void wheelEvent(QWheelEvent* event) override;
    void paintEvent(QPaintEvent* event) override;
    void mouseDoubleClickEvent(QMouseEvent* event) override;
    void contextMenuEvent(QContextMenuEvent* event) override;
    void keyPressEvent(QKeyEvent* event) override;
    void mouseMoveEvent(QMouseEvent* event) override;
    void resizeEvent(QResizeEvent* event) override;

private:
    void applyZoom(qreal zoom);

    bool m_keepFitted = false;
    qreal m_fitCap = std::numeric_limits<qreal>::infinity();
    std::function<std::vector<QGraphicsItem*>()> m_overviewItems;
};

}  // namespace ps::ui
