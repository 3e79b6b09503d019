// The Graph tab at the size a 1280x800 window gives it (about 806x445), on a real model's graph
// (torchvision resnet18 in eval mode as precompile captured it): what opens teaches something,
// Fit never shows a box without its name, search and 1:1 go to the selection, and the minimap
// never hides a box. PS_SHOT_DIR=DIR writes what each test saw there as PNGs.
#include "UiTestSupport.h"

#include "graph/GraphModel.h"
#include "ui/graph/GraphBoxItem.h"
#include "ui/graph/GraphCanvas.h"
#include "ui/graph/GraphMinimap.h"
#include "ui/graph/GraphView.h"
#include "ui/graph/ModuleItem.h"
#include "ui/graph/NodeItem.h"

#include <QApplication>
#include <QFile>
#include <QFontMetricsF>
#include <QGraphicsScene>
#include <QSignalSpy>
#include <QTest>

#include <gtest/gtest.h>

using namespace ps::uitest;

namespace {

// A dotted name too long for its box is cut in the middle: the root and the last two parts stay,
// so the module is never lost ("…1.weight" named nothing).
TEST(UiGraphNames, ADottedNameIsCutInTheMiddleKeepingItsLastTwoParts)
{
    const QFontMetricsF fm(QApplication::font());
    const QString path = QStringLiteral("model.layer4.1.bn2.weight");
    EXPECT_EQ(ps::ui::GraphBoxItem::elidedPath(path, fm, fm.horizontalAdvance(path)), path);
    const QString cut
        = ps::ui::GraphBoxItem::elidedPath(path, fm, fm.horizontalAdvance(QStringLiteral("model…bn2.weight")));
    EXPECT_EQ(cut, QStringLiteral("model…bn2.weight"));
    EXPECT_EQ(ps::ui::GraphBoxItem::elidedPath(path, fm, fm.horizontalAdvance(QStringLiteral("…bn2.weight"))),
        QStringLiteral("…bn2.weight"));
}

/// tests/gallery/resnet18_inference.py as the worker captured it (276 nodes).
std::shared_ptr<ps::graph::GraphModel> resnet18()
{
    QFile f(sourcePath("tests/fixtures/graphs/resnet18_inference.json"));
    if (!f.open(QIODevice::ReadOnly))
        return nullptr;
    return std::make_shared<ps::graph::GraphModel>(
        ps::graph::GraphModel::fromJson(nlohmann::json::parse(f.readAll().toStdString())["graph"]));
}

class UiGraphAt1280 : public ::testing::Test {
protected:
    void SetUp() override
    {
        view.resize(806, 445);
        view.show();
        ASSERT_TRUE(QTest::qWaitForWindowExposed(&view));
        graph = resnet18();
        ASSERT_TRUE(graph);
        ASSERT_TRUE(shown([&]() { view.setGraph(graph); }));
    }

    bool shown(const std::function<void()>& request)
    {
        QSignalSpy spy(&view, &ps::ui::GraphView::graphShown);
        request();
        return waitFor([&]() { return spy.count() > 0 && !view.layoutPending(); }, 60000)
            && waitForSettled([&]() { return view.canvas()->zoom(); }, 5000);
    }

    std::vector<ps::ui::GraphBoxItem*> boxes() const
    {
        std::vector<ps::ui::GraphBoxItem*> out;
        for (auto* item : view.canvas()->scene()->items())
            if (item->type() == ps::ui::NodeItem::Type || item->type() == ps::ui::ModuleItem::Type)
                out.push_back(static_cast<ps::ui::GraphBoxItem*>(item));
        return out;
    }

    void save(const QString& name)
    {
        if (const QString dir = qEnvironmentVariable("PS_SHOT_DIR"); !dir.isEmpty())
            view.grab().save(dir + "/" + name + ".png");
    }

    ps::ui::GraphView view;
    std::shared_ptr<ps::graph::GraphModel> graph;
};

/// The fewest pixels on screen of any box's title at the canvas's zoom (0: a box shows none).
qreal smallestTitle(const std::vector<ps::ui::GraphBoxItem*>& boxes, const ps::ui::GraphView& view)
{
    const qreal fontPx = ps::ui::GraphBoxItem::fontPixels(view.canvas()->font(), view.canvas()->viewport());
    qreal smallest = 1e9;
    for (auto* box : boxes)
        smallest = std::min(smallest, box->titlePixelsAt(view.canvas()->zoom(), fontPx));
    return smallest;
}

TEST_F(UiGraphAt1280, AModelOpensWithItsTopLevelModulesNamed)
{
    save("open");
    // Not "x, model · ResNet, output": the model is open, its stages are boxes, each named.
    EXPECT_TRUE(view.isExpanded("model"));
    EXPECT_GT(boxes().size(), 3u);
    EXPECT_GE(smallestTitle(boxes(), view), ps::ui::GraphBoxItem::kMinTextPx);
}

TEST_F(UiGraphAt1280, FitNeverShowsABoxWithoutItsName)
{
    if (!view.isExpanded("model")) {
        ASSERT_TRUE(shown([&]() { view.expandModule("model"); }));
    }
    ASSERT_TRUE(shown([&]() { view.expandModule("model.layer1"); }));
    view.zoomToFit();
    ASSERT_TRUE(waitForSettled([&]() { return view.canvas()->zoom(); }, 5000));
    save("fit");
    EXPECT_GE(smallestTitle(boxes(), view), ps::ui::GraphBoxItem::kMinTextPx) << "zoom " << view.canvas()->zoom();
}

/// Where `item`'s box is on the canvas's viewport.
QRect onScreen(const ps::ui::GraphView& view, const QGraphicsItem* item)
{
    return view.canvas()->mapFromScene(item->sceneBoundingRect()).boundingRect();
}

TEST_F(UiGraphAt1280, EnterInTheSearchShowsTheMatchReadableAndCentred)
{
    ASSERT_TRUE(shown([&]() { view.expandAll(); }));
    view.zoomToFit();
    ASSERT_TRUE(waitForSettled([&]() { return view.canvas()->zoom(); }, 5000));
    ASSERT_LT(view.canvas()->zoom(), 0.2) << "the whole of resnet18 fitted is a speck";
    view.setSearch("layer3.1.conv2");
    ASSERT_GT(view.matchCount(), 0);
    view.findNext();
    ASSERT_TRUE(waitFor([&]() { return !view.layoutPending(); }, 30000));
    const auto selected = view.canvas()->scene()->selectedItems();
    ASSERT_EQ(selected.size(), 1);
    save("search");
    EXPECT_GE(view.canvas()->zoom(), 1.0);
    const QRect box = onScreen(view, selected.front());
    const QPoint middle = view.canvas()->viewport()->rect().center();
    EXPECT_LE((box.center() - middle).manhattanLength(), 4) << "the match is centred";
}

TEST_F(UiGraphAt1280, OneToOneGoesToTheSelectionAndCollapseAllFits)
{
    ASSERT_TRUE(shown([&]() { view.expandAll(); }));
    view.zoomToFit();
    ASSERT_TRUE(waitForSettled([&]() { return view.canvas()->zoom(); }, 5000));
    int node = -1;
    for (std::size_t i = 0; i < graph->nodes().size() && node < 0; ++i)
        if (graph->nodes()[i].modulePath == "model.layer2.0.bn1")
            node = int(i);
    ASSERT_GE(node, 0);
    view.selectNodes({node}, false);
    const auto selected = view.canvas()->scene()->selectedItems();
    ASSERT_EQ(selected.size(), 1);
    view.zoomReset();
    EXPECT_DOUBLE_EQ(view.canvas()->zoom(), 1.0);
    EXPECT_TRUE(view.canvas()->viewport()->rect().contains(onScreen(view, selected.front()).center()))
        << "1:1 shows the selection";

    ASSERT_TRUE(shown([&]() { view.collapseAll(); }));
    save("collapsed");
    const QRectF scene = view.canvas()->mapFromScene(view.canvas()->sceneRect()).boundingRect();
    EXPECT_TRUE(QRectF(view.canvas()->viewport()->rect()).adjusted(-1, -1, 1, 1).contains(scene))
        << "collapsed, the graph is shown whole";
    EXPECT_GE(view.canvas()->zoom(), 0.5);
}

TEST_F(UiGraphAt1280, TheMinimapHidesNoBoxWhereACornerIsFree)
{
    ASSERT_TRUE(shown([&]() { view.expandAll(); }));
    view.zoomReset();  // zoomed in: part of the graph is out of view, the minimap shows
    view.canvas()->centerOn(view.canvas()->sceneRect().center());
    QWidget* minimap = view.minimap();
    ASSERT_TRUE(waitFor([&]() { return minimap->isVisible(); }, 5000));
    save("minimap");
    const QRect covered(view.canvas()->viewport()->mapFrom(view.canvas(), minimap->pos()), minimap->size());
    int hidden = 0;
    for (auto* box : boxes())
        hidden += view.canvas()->mapFromScene(box->mapRectToScene(box->rect())).boundingRect().intersects(covered);
    EXPECT_EQ(hidden, 0) << "a corner of this view is free of boxes";
}

TEST_F(UiGraphAt1280, AnOpenBlockReadsTopDownThoughItsReluIsAppliedTwice)
{
    // BasicBlock applies its one ReLU module twice: one box for it would be a cycle, and the
    // layout drew conv2 and bn2 at the top of the graph, above the stem.
    ASSERT_TRUE(shown([&]() { view.expandModule("model.layer4"); }));
    ASSERT_TRUE(shown([&]() { view.expandModule("model.layer4.0"); }));
    save("layer4");
    int upward = 0;
    QStringList which;
    for (int i = 0; i < int(graph->nodes().size()); ++i)
        for (int u : graph->nodes()[std::size_t(i)].inputs) {
            const auto* from = view.boxOfNode(u);
            const auto* to = view.boxOfNode(i);
            if (from && to && from != to && from->rect().top() >= to->rect().top()) {
                ++upward;
                which << QString::fromStdString(
                    graph->nodes()[std::size_t(u)].name + " -> " + graph->nodes()[std::size_t(i)].name);
            }
        }
    EXPECT_EQ(upward, 0) << which.join(", ").toStdString();
}

}  // namespace
