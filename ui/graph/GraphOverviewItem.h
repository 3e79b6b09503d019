#pragma once

#include "ui/graph/GraphMinimap.h"

#include <QGraphicsItem>
#include <QImage>

#include <vector>

namespace ps::ui {

/// Every box of the scene in one picture, for zooms below GraphCanvas::kFloorZoom (a big graph
/// fully expanded, fitted): there each box is a pixel or less, and drawing tens of thousands of
/// box items and their edges would take a tenth of a second a frame; one picture scaled to the
/// view takes a millisecond. GraphScene shows it in place of the boxes and the edges there; the
/// module regions (ModuleRegionsItem) stay on top and name what is in it. The picture is drawn
/// once per layout or lens, at most kSide pixels on its long side.
class GraphOverviewItem : public QGraphicsItem {
public:
    enum { Type = UserType + 6 };
    static constexpr int kSide = 4096;

    GraphOverviewItem(const QRectF& sceneRect, const std::vector<GraphMinimap::Box>& boxes);

    const QImage& image() const { return m_image; }

    int type() const override { return Type; }
    QRectF boundingRect() const override { return m_rect; }
    /// Empty: clicks go through to what is below.
    QPainterPath shape() const override { return {}; }
    void paint(QPainter* painter, const QStyleOptionGraphicsItem* option, QWidget* widget) override;

private:
    QRectF m_rect;
    QImage m_image;
    // The picture halved again and again: each frame draws from the smallest that is still as
    // big as the view of it, so scaling it costs what the view holds, not the whole picture.
    std::vector<QImage> m_levels;
};

}  // namespace ps::ui
