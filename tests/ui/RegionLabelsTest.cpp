// The module regions' headers on a big expanded graph, zoomed out: placed against an index of
// the boxes of their own (BoxGrid) and with labels measured once, they are the very headers
// that asking the scene for the boxes under each one gives, at every zoom a wheel passes. Below
// the overview's floor the items stay as they are and the canvas draws their picture.
#include "UiTestSupport.h"

#include "SyntheticGraph.h"

#include "graph/GraphModel.h"
#include "graph/LayeredLayout.h"
#include "ui/graph/BoxGrid.h"
#include "ui/graph/GraphBoxItem.h"
#include "ui/graph/GraphCanvas.h"
#include "ui/graph/GraphScene.h"
#include "ui/graph/GraphView.h"
#include "ui/graph/ModuleItem.h"
#include "ui/graph/ModuleRegionsItem.h"
#include "ui/graph/NodeItem.h"

#include <QFontMetricsF>
#include <QGraphicsScene>
#include <QSignalSpy>
#include <QTest>

#include <gtest/gtest.h>

#include <limits>
#include <random>
#include <set>

using namespace ps::uitest;

namespace {

bool laidOut(ps::ui::GraphView& view, const std::function<void()>& request)
{
    QSignalSpy spy(&view, &ps::ui::GraphView::graphShown);
    request();
    return waitFor([&]() { return spy.count() > 0 && !view.layoutPending(); }, 60000);
}

std::vector<ps::ui::GraphBoxItem*> boxesOf(const QGraphicsScene& scene)
{
    std::vector<ps::ui::GraphBoxItem*> out;
    for (auto* item : scene.items())
        if (item->type() == ps::ui::NodeItem::Type || item->type() == ps::ui::ModuleItem::Type)
            out.push_back(static_cast<ps::ui::GraphBoxItem*>(item));
    return out;
}

class UiRegionLabels : public ::testing::Test {
protected:
    void SetUp() override
    {
        view.resize(1000, 700);
        view.show();
        ASSERT_TRUE(QTest::qWaitForWindowExposed(&view));
        auto graph = std::make_shared<ps::graph::GraphModel>(
            ps::graph::GraphModel::fromJson(ps::graphtest::transformerGraph(3000, 4)));
        ASSERT_TRUE(laidOut(view, [&]() { view.setGraph(graph); }));
        ASSERT_TRUE(laidOut(view, [&]() { view.expandAll(); }));
    }

    ps::ui::GraphView view;
};

TEST_F(UiRegionLabels, TheGridFindsTheBoxesTheScenesIndexFinds)
{
    QGraphicsScene& scene = *view.canvas()->scene();
    const auto boxes = boxesOf(scene);
    ASSERT_GT(boxes.size(), 2000u);
    std::vector<QRectF> bounds;
    for (auto* b : boxes)
        bounds.push_back(b->sceneBoundingRect());
    const ps::ui::BoxGrid grid(bounds);
    const QRectF all = scene.sceneRect();
    std::mt19937 random(7);
    std::uniform_real_distribution<qreal> unit(0, 1);
    int found = 0;
    for (int k = 0; k < 200; ++k) {
        // From a speck to a fifth of the scene, anywhere on it and past its edges.
        const qreal w = all.width() * 0.2 * unit(random) + 1, h = all.height() * 0.2 * unit(random) + 1;
        const QRectF r(
            all.left() - w / 2 + unit(random) * all.width(), all.top() - h / 2 + unit(random) * all.height(), w, h);
        std::set<const ps::ui::GraphBoxItem*> fromScene, fromGrid;
        for (auto* item : scene.items(r, Qt::IntersectsItemBoundingRect))
            if (item->type() == ps::ui::NodeItem::Type || item->type() == ps::ui::ModuleItem::Type)
                fromScene.insert(static_cast<const ps::ui::GraphBoxItem*>(item));
        const auto near = grid.near(r);
        for (int i : near)
            fromGrid.insert(boxes[static_cast<std::size_t>(i)]);
        EXPECT_EQ(near.size(), fromGrid.size()) << "each box once";
        EXPECT_EQ(fromGrid, fromScene) << "in " << r.x() << "," << r.y() << " " << r.width() << "x" << r.height();
        found += static_cast<int>(fromGrid.size());
    }
    EXPECT_GT(found, 1000) << "the rectangles meet boxes";
}

TEST_F(UiRegionLabels, HeadersAreThoseThatAskingTheSceneGivesAtEveryZoom)
{
    auto* canvas = view.canvas();
    ASSERT_NE(view.regions(), nullptr);
    // The regions shown, with names long enough that some are cut to their regions: once
    // placed with an index of the boxes (as the scene's own regions are), once asking the scene
    // what is under each header. Neither drawn: only asked.
    auto regions = view.regions()->regions();
    for (auto& r : regions)
        r.label = r.label + QStringLiteral(" of the layer whose name goes on and on");
    auto make = [&]() {
        auto* item = new ps::ui::ModuleRegionsItem(
            regions, ps::graph::LayoutOptions{}.nodeHeight, Qt::black, Qt::black, Qt::white);
        canvas->scene()->addItem(item);
        item->setVisible(false);
        return item;
    };
    auto* shown = make();
    const auto boxes = boxesOf(*canvas->scene());
    shown->setBoxes({boxes.begin(), boxes.end()});
    auto* asking = make();

    const QFont font = canvas->font();
    QFont bold = font;
    bold.setBold(true);
    const QFontMetricsF metrics(bold);
    int headers = 0, cut = 0;
    canvas->centerOn(canvas->sceneRect().center());
    for (qreal zoom = 0.005; zoom < 0.2; zoom *= 1.15) {
        canvas->setZoom(zoom);
        const QTransform toScreen = canvas->viewportTransform();
        const QRectF area = canvas->viewport()->rect();
        const auto mine = shown->labelsAt(toScreen, area, font);
        const auto theirs = asking->labelsAt(toScreen, area, font);
        ASSERT_EQ(mine.size(), theirs.size()) << "at zoom " << zoom;
        for (std::size_t i = 0; i < mine.size(); ++i) {
            EXPECT_EQ(mine[i].region, theirs[i].region) << "at zoom " << zoom;
            EXPECT_EQ(mine[i].chip, theirs[i].chip) << "at zoom " << zoom;
            EXPECT_EQ(mine[i].text, theirs[i].text) << "at zoom " << zoom;
            // A header cut to its region keeps the name's start and fits its chip.
            const QString& name = regions[static_cast<std::size_t>(mine[i].region)].label;
            if (mine[i].text != name && mine[i].text.endsWith(QChar(0x2026))) {
                ++cut;
                EXPECT_TRUE(name.startsWith(mine[i].text.chopped(1))) << mine[i].text.toStdString();
                EXPECT_LE(metrics.horizontalAdvance(mine[i].text) + 8, mine[i].chip.width() + 0.5);
            }
        }
        headers += static_cast<int>(mine.size());
    }
    EXPECT_GT(headers, 20) << "regions are named as the wheel passes";
    EXPECT_GT(cut, 0) << "and some headers are cut to their regions";
}

TEST_F(UiRegionLabels, CrossingTheOverviewFloorLeavesEveryItemAsItWasAndDrawsThePicture)
{
    // Below the floor the canvas draws one picture of the boxes in place of the scene; the
    // items are not hidden and shown again on the way (on the 50k-node graph, 40 ms each way).
    auto* canvas = view.canvas();
    auto* scene = dynamic_cast<ps::ui::GraphScene*>(canvas->scene());
    ASSERT_NE(scene, nullptr);
    std::vector<QGraphicsItem*> items;
    for (auto* item : scene->items())
        if (item->isVisible())
            items.push_back(item);
    ASSERT_GT(items.size(), 2000u);
    canvas->setZoom(ps::ui::GraphCanvas::kFloorZoom / 4);
    ASSERT_LT(canvas->zoom(), ps::ui::GraphCanvas::kFloorZoom) << "the graph is tall enough to pass the floor";
    EXPECT_TRUE(scene->overview());
    const auto drawn = scene->overviewItems();
    ASSERT_FALSE(drawn.empty());
    EXPECT_EQ(drawn.front()->scene(), nullptr) << "the picture is drawn by the canvas, not an item of the scene";
    for (auto* item : items)
        ASSERT_TRUE(item->isVisible());
    const QImage below = canvas->viewport()->grab().toImage();
    const QRgb base = canvas->palette().color(canvas->backgroundRole()).rgb();
    int painted = 0;
    for (int y = 0; y < below.height(); y += 2)
        for (int x = 0; x < below.width(); x += 2)
            painted += below.pixel(x, y) != base;
    EXPECT_GT(painted, below.width() * below.height() / 400) << "the picture of the boxes is drawn";
    canvas->setZoom(0.5);
    EXPECT_FALSE(scene->overview());
    EXPECT_TRUE(scene->overviewItems().empty());
    for (auto* item : items)
        ASSERT_TRUE(item->isVisible());
}

}  // namespace

TEST(BoxGrid, ARectangleThatIsNotFiniteMeetsNothingAndQueriesFarOffFindNothing)
{
    const qreal nan = std::numeric_limits<qreal>::quiet_NaN();
    const ps::ui::BoxGrid grid(
        std::vector<QRectF>{QRectF(0, 0, 10, 10), QRectF(nan, 0, 10, 10), QRectF(1e6, 0, 10, 10)});
    EXPECT_EQ(grid.near(QRectF(-5, -5, 20, 20)), std::vector<int>{0});
    EXPECT_EQ(grid.near(QRectF(1e6 - 1, 1, 2, 2)), std::vector<int>{2});
    EXPECT_TRUE(grid.near(QRectF(-1e300, -1e300, 1, 1)).empty());
    EXPECT_TRUE(grid.near(QRectF(5e5, 0, 10, 10)).empty());
    EXPECT_TRUE(ps::ui::BoxGrid(std::vector<QRectF>()).near(QRectF(0, 0, 1, 1)).empty());
}
