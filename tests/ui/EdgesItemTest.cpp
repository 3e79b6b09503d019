// EdgesItem: an edge is drawn along its route (through its bends, not straight between its
// ends), and an edge standing for several carries its count where the zoom makes it readable;
// zoomed out, a run of bends in line (a long edge's virtual items) draws as its one line.
#include "ui/graph/EdgesItem.h"

#include <QGraphicsScene>
#include <QImage>
#include <QPainter>

#include <gtest/gtest.h>

using ps::ui::EdgesItem;

namespace {

// The scene's `area` rendered at `scale` (the zoom the item sees), white behind black edges.
QImage render(const EdgesItem::Edge& edge, qreal scale, const QRectF& area)
{
    QGraphicsScene scene;
    scene.addItem(new EdgesItem({edge}, Qt::black, Qt::red));
    QImage image((area.size() * scale).toSize(), QImage::Format_RGB32);
    image.fill(Qt::white);
    QPainter painter(&image);
    scene.render(&painter, QRectF(image.rect()), area);
    return image;
}

int darkPixels(const QImage& image, const QRect& rect)
{
    int dark = 0;
    for (int y = std::max(0, rect.top()); y <= std::min(image.height() - 1, rect.bottom()); ++y)
        for (int x = std::max(0, rect.left()); x <= std::min(image.width() - 1, rect.right()); ++x)
            if (qGray(image.pixel(x, y)) < 160)
                ++dark;
    return dark;
}

// Down from (50, 0) through a vertical run at x = 250 (a long edge beside a box) to (50, 180).
EdgesItem::Edge routed(int count)
{
    return {0, 1, count, QPolygonF({{50, 0}, {250, 60}, {250, 120}, {50, 180}})};
}

}  // namespace

TEST(EdgesItem, AnEdgeFollowsItsRouteThroughItsBends)
{
    const QRectF area(0, 0, 320, 200);
    for (qreal scale : {1.0, 0.3}) {  // smooth path, then straight lines through the bends
        const QImage image = render(routed(1), scale, area);
        const QPoint onRun = (QPointF(250, 90) * scale).toPoint();
        const QPoint straightLine = (QPointF(50, 90) * scale).toPoint();
        EXPECT_GT(darkPixels(image, QRect(onRun - QPoint(2, 2), QSize(5, 5))), 0) << scale;
        EXPECT_EQ(darkPixels(image, QRect(straightLine - QPoint(2, 2), QSize(5, 5))), 0) << scale;
    }
}

TEST(EdgesItem, AMergedEdgeShowsItsCountWhenReadable)
{
    const QRectF area(0, 0, 320, 200);
    // The edge comes from the right: its label sits left of it, where no line passes.
    const QRectF labelRect = EdgesItem::labelRect(routed(5));
    ASSERT_LT(labelRect.right(), 250);
    const QRect label = labelRect.toRect();
    EXPECT_EQ(darkPixels(render(routed(1), 1.0, area), label), 0);
    EXPECT_GT(darkPixels(render(routed(5), 1.0, area), label), 5);
    // Zoomed far out the text would be a smudge: not drawn.
    const qreal far = 0.3;
    const QRect farLabel = QRectF(labelRect.topLeft() * far, labelRect.size() * far).toRect();
    EXPECT_EQ(darkPixels(render(routed(5), far, area), farLabel), 0);
}

TEST(EdgesItem, ZoomedOutARunOfBendsInLineDrawsAsItsOneLine)
{
    // A long edge down a column of layers (a bend per layer, 100 scene pixels apart) with one
    // jog aside, then back across: zoomed out, the same pixels as the route through its corners
    // alone, the jog included.
    QPolygonF column({{50, 0}});
    for (int y = 100; y <= 2000; y += 100)
        column << QPointF(y == 1000 ? 290 : 250, y);
    column << QPointF(50, 2100);
    const QPolygonF corners({{50, 0}, {250, 100}, {250, 900}, {290, 1000}, {250, 1100}, {250, 2000}, {50, 2100}});
    const QRectF area(0, 0, 320, 2200);
    for (qreal scale : {0.3, 0.1, 0.07}) {
        const QImage many = render({0, 1, 1, column}, scale, area);
        const QImage few = render({0, 1, 1, corners}, scale, area);
        EXPECT_EQ(many, few) << scale;
        const QPoint jog = (QPointF(290, 1000) * scale).toPoint();
        EXPECT_GT(darkPixels(many, QRect(jog - QPoint(1, 1), QSize(3, 3))), 0) << scale;
        const QPoint run = (QPointF(250, 1500) * scale).toPoint();
        EXPECT_GT(darkPixels(many, QRect(run - QPoint(1, 1), QSize(3, 3))), 0) << scale;
    }
}
