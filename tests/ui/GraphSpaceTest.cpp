// The Graph tab's space and zoom: the canvas takes most of a 1400x900 window, a graph opens
// fitted with every box's name readable (8 px or more on screen), zoomed out the boxes keep
// their titles and the modules are named regions, no title covering another, and the minimap
// sits in the bottom-right corner only while part of the graph is out of view. PS_SHOT_DIR=DIR
// saves the fitted graphs whose titles are checked there as PNGs.
#include "UiTestSupport.h"

#include "SyntheticGraph.h"

#include "graph/GraphModel.h"
#include "graph/LayeredLayout.h"
#include "graph/VisibleGraph.h"
#include "ui/graph/GraphBoxItem.h"
#include "ui/graph/GraphCanvas.h"
#include "ui/graph/GraphMinimap.h"
#include "ui/graph/GraphScene.h"
#include "ui/graph/GraphSession.h"
#include "ui/graph/GraphView.h"
#include "ui/graph/ModuleItem.h"
#include "ui/graph/ModuleRegionsItem.h"
#include "ui/graph/NodeItem.h"
#include "ui/library/RunStore.h"
#include "ui/report/ReportView.h"
#include "ui/window/MainWindow.h"

#include <QFile>
#include <QGraphicsScene>
#include <QImage>
#include <QSignalSpy>
#include <QTabWidget>
#include <QTest>

#include <gtest/gtest.h>

#include <tuple>

using namespace ps::uitest;

namespace {

/// resources/examples/training_step.py as the worker captured it (37 nodes).
nlohmann::json trainingStep()
{
    QFile f(sourcePath("tests/fixtures/graphs/training_step.json"));
    if (!f.open(QIODevice::ReadOnly))
        return {};
    return nlohmann::json::parse(f.readAll().toStdString())["graph"];
}

std::shared_ptr<ps::graph::GraphModel> model(const nlohmann::json& graph)
{
    return std::make_shared<ps::graph::GraphModel>(ps::graph::GraphModel::fromJson(graph));
}

bool shown(ps::ui::GraphView& view, const std::function<void()>& request)
{
    QSignalSpy spy(&view, &ps::ui::GraphView::graphShown);
    request();
    return waitFor([&]() { return spy.count() > 0 && !view.layoutPending(); }, 60000);
}

/// `view` shown at `size` with all of `graph` expanded.
::testing::AssertionResult showExpanded(ps::ui::GraphView& view, const QSize& size, const nlohmann::json& graph)
{
    view.resize(size);
    view.show();
    if (!QTest::qWaitForWindowExposed(&view))
        return ::testing::AssertionFailure() << "the view was not exposed";
    if (!shown(view, [&]() { view.setGraph(model(graph)); }) || !shown(view, [&]() { view.expandAll(); }))
        return ::testing::AssertionFailure() << "the graph was not laid out";
    return ::testing::AssertionSuccess();
}

std::vector<ps::ui::GraphBoxItem*> boxes(const ps::ui::GraphView& view)
{
    std::vector<ps::ui::GraphBoxItem*> out;
    for (auto* item : view.canvas()->scene()->items())
        if (item->type() == ps::ui::NodeItem::Type || item->type() == ps::ui::ModuleItem::Type)
            out.push_back(static_cast<ps::ui::GraphBoxItem*>(item));
    return out;
}

qreal fontPx(const ps::ui::GraphView& view)
{
    return ps::ui::GraphBoxItem::fontPixels(view.canvas()->font(), view.canvas()->viewport());
}

/// The scene's rectangle on the viewport lies inside it (a pixel of slack for rounding).
::testing::AssertionResult fitted(const ps::ui::GraphView& view)
{
    const auto* canvas = view.canvas();
    const QRectF onScreen = canvas->mapFromScene(canvas->sceneRect()).boundingRect();
    const QRectF viewport = QRectF(canvas->viewport()->rect()).adjusted(-1, -1, 1, 1);
    if (viewport.contains(onScreen))
        return ::testing::AssertionSuccess();
    return ::testing::AssertionFailure() << "the scene shows at " << onScreen.x() << "," << onScreen.y() << " "
                                         << onScreen.width() << "x" << onScreen.height() << " on a viewport of "
                                         << canvas->viewport()->width() << "x" << canvas->viewport()->height();
}

/// What a relayout or refit of the canvas changes: its viewport's size, its zoom and where it looks.
std::tuple<QSize, qreal, QPointF> canvasState(const ps::ui::GraphView& view)
{
    const auto* canvas = view.canvas();
    return {canvas->viewport()->size(), canvas->zoom(), canvas->mapToScene(canvas->viewport()->rect().center())};
}

/// Every box's title at the canvas's zoom, in pixels on screen: the smallest, and how many.
std::pair<qreal, int> smallestTitleShown(const ps::ui::GraphView& view)
{
    qreal smallest = 1e9;
    const auto all = boxes(view);
    for (auto* box : all)
        smallest = std::min(smallest, box->titlePixelsAt(view.canvas()->zoom(), fontPx(view)));
    return {smallest, static_cast<int>(all.size())};
}

/// Pixels inside `box` on the rendered viewport that are much darker than its fill: its text.
int inkIn(const ps::ui::GraphView& view, const ps::ui::GraphBoxItem* box)
{
    const QImage image = view.canvas()->viewport()->grab().toImage();
    const QRect r = view.canvas()->mapFromScene(box->rect()).boundingRect().adjusted(2, 2, -2, -2);
    int ink = 0;
    for (int y = std::max(0, r.top()); y <= std::min(image.height() - 1, r.bottom()); ++y)
        for (int x = std::max(0, r.left()); x <= std::min(image.width() - 1, r.right()); ++x)
            ink += qGray(image.pixel(x, y)) < 110;
    return ink;
}

class UiGraphSpace : public ::testing::Test {
protected:
    /// A window of `size` on a library in `here` holding `graph` as run 1, shown on its Graph
    /// tab, laid out.
    static void openInWindow(
        ps::ui::MainWindow& window, const TempDir& here, const QSize& size, const nlohmann::json& graph)
    {
        {
            ps::ui::RunStore store(here.file("library.sqlite3"));
            QString error;
            ASSERT_GT(store.insert(syntheticRun(here.write("step.py", "x = 1\n").toStdString(), graph), &error), 0)
                << error.toStdString();
        }
        window.resize(size);
        window.show();
        ASSERT_TRUE(QTest::qWaitForWindowExposed(&window));
        ASSERT_EQ(window.width(), size.width());
        auto* view = window.report()->graphView();
        QSignalSpy spy(view, &ps::ui::GraphView::graphShown);
        ASSERT_TRUE(window.openStoredRun(1));
        window.report()->tabs()->setCurrentIndex(ps::ui::ReportView::GraphTab);
        ASSERT_TRUE(waitFor([&]() { return spy.count() > 0 && !view->layoutPending(); }, 60000));
        // The splitter's move and the refit it causes.
        ASSERT_TRUE(waitForSettled([&]() { return canvasState(*view); }, 5000));
    }

    TempDir dir;
};

TEST_F(UiGraphSpace, TheCanvasGetsMostOfTheWindowAndTheGraphOpensFittedAndReadable)
{
    for (const QSize size : {QSize(1400, 900), QSize(1280, 800), QSize(1920, 1080)}) {
        SCOPED_TRACE(QStringLiteral("%1x%2").arg(size.width()).arg(size.height()).toStdString());
        TempDir here;
        ps::ui::MainWindow window(windowOptions(here, /*prewarm=*/false));
        ASSERT_NO_FATAL_FAILURE(openInWindow(window, here, size, trainingStep()));
        auto* view = window.report()->graphView();
        EXPECT_GE(view->canvas()->viewport()->width(), 0.6 * window.width())
            << "the canvas is " << view->canvas()->viewport()->width() << " px wide";
        EXPECT_FALSE(view->sidePanelShown());
        EXPECT_TRUE(fitted(*view));
        const auto [smallest, count] = smallestTitleShown(*view);
        EXPECT_GT(count, 5);
        EXPECT_GE(smallest, 8) << "a box's name is under 8 px at Fit";
    }
}

TEST_F(UiGraphSpace, ALargeGraphOpensFittedWithEveryBoxNamed)
{
    ps::ui::MainWindow window(windowOptions(dir, /*prewarm=*/false));
    ASSERT_NO_FATAL_FAILURE(openInWindow(window, dir, QSize(1400, 900), ps::graphtest::transformerGraph(3000, 2)));
    auto* view = window.report()->graphView();
    EXPECT_TRUE(fitted(*view));
    const auto [smallest, count] = smallestTitleShown(*view);
    EXPECT_GT(count, 5);
    EXPECT_GE(smallest, 8) << "a box's name is under 8 px at Fit";
    // Fit stays fit when the window changes size, until the user zooms.
    const QSize before = view->canvas()->viewport()->size();
    window.resize(1200, 800);
    ASSERT_TRUE(waitFor([&]() { return view->canvas()->viewport()->size() != before; }, 5000));
    ASSERT_TRUE(waitForSettled([&]() { return canvasState(*view); }, 5000));
    EXPECT_TRUE(fitted(*view));
}

TEST_F(UiGraphSpace, TheOpeningStateIsTheLargestThatReadsAtFitOnTheCanvas)
{
    const auto graph = model(ps::graphtest::transformerGraph(3000, 2));
    auto open = [&](const ps::ui::GraphOpening& opening) {
        ps::ui::GraphSession session;
        QSignalSpy spy(&session, &ps::ui::GraphSession::layoutShown);
        session.open(graph, opening);
        EXPECT_TRUE(waitFor([&]() { return spy.count() > 0; }, 60000));
        const auto* layout = session.layout();
        return std::make_pair(
            static_cast<int>(session.visible()->items().size()), opening.fittedZoom(layout->width, layout->height));
    };
    ps::ui::GraphOpening opening;
    opening.margin = 40;
    opening.readableZoom = 0.6;
    opening.titleZoom = 0.3;
    const auto [unbounded, zoomAnywhere] = open(opening);  // no canvas: the budget alone
    EXPECT_GT(unbounded, 40);
    opening.width = 1400;
    opening.height = 850;
    const auto [onCanvas, zoom] = open(opening);
    EXPECT_LT(onCanvas, unbounded) << "the budget's state would be unreadable at Fit";
    EXPECT_GE(zoom, opening.readableZoom);
    opening.width = 10000;  // room for everything
    opening.height = 10000;
    EXPECT_EQ(open(opening).first, unbounded);
    opening.width = 300;  // room for nothing: the titles, at least, stay readable where they can
    opening.height = 200;
    EXPECT_LE(open(opening).first, onCanvas);
}

TEST_F(UiGraphSpace, ZoomedOutBoxesKeepTheirTitlesThenModulesAreNamedRegions)
{
    ps::ui::GraphView view;
    ASSERT_TRUE(showExpanded(view, QSize(1200, 800), ps::graphtest::transformerGraph(800, 2)));
    auto* canvas = view.canvas();
    const qreal px = fontPx(view);

    // Too small for two lines, big enough for a title: each box says its name in 9 px.
    canvas->setZoom(0.9 * ps::ui::GraphBoxItem::kMinTextPx / px);
    ASSERT_LT(canvas->zoom() * px, 8);
    auto* first = view.boxOfNode(view.graph()->nodes().size() / 2);
    ASSERT_NE(first, nullptr);
    canvas->centerOn(first->rect().center());
    EXPECT_EQ(first->titlePixelsAt(canvas->zoom(), px), ps::ui::GraphBoxItem::kTitlePx);
    EXPECT_GT(inkIn(view, first), 10) << "the box's title is drawn";
    EXPECT_EQ(
        view.regions()->labelsAt(canvas->viewportTransform(), canvas->viewport()->rect(), canvas->font()).size(), 0u)
        << "no region labels while the boxes have names";

    // The whole graph: boxes too small for text, the modules around them named instead.
    view.zoomToFit();
    ASSERT_TRUE(fitted(view));
    EXPECT_EQ(first->titlePixelsAt(canvas->zoom(), px), 0);
    const auto labels
        = view.regions()->labelsAt(canvas->viewportTransform(), canvas->viewport()->rect(), canvas->font());
    ASSERT_GE(labels.size(), 3u) << "the expanded modules are named";
    for (const auto& l : labels) {
        EXPECT_FALSE(l.text.isEmpty());
        EXPECT_GE(l.chip.height(), 8 + 4) << "a label of at least 8 px";
        EXPECT_TRUE(QRectF(canvas->viewport()->rect()).intersects(l.chip));
        for (const auto& o : labels) {
            if (&o != &l) {
                EXPECT_FALSE(l.chip.intersects(o.chip)) << "labels do not cover each other";
            }
        }
    }
    // And they are drawn: the first label's chip holds text.
    const QImage image = canvas->viewport()->grab().toImage();
    int ink = 0;
    const QRect chip = labels.front().chip.toRect().adjusted(2, 2, -2, -2);
    for (int y = chip.top(); y <= chip.bottom(); ++y)
        for (int x = chip.left(); x <= chip.right(); ++x)
            ink += image.rect().contains(x, y) && qGray(image.pixel(x, y)) < 110;
    EXPECT_GT(ink, 10);
}

/// Every title the canvas draws now, in the scene: a box's beside it (or its box, where it is
/// drawn in the box) and the regions' labels; and how many of each.
struct Titles {
    std::vector<QRectF> rects;
    int beside = 0;
    int regions = 0;
};
Titles titlesShown(const ps::ui::GraphView& view)
{
    Titles out;
    const auto* canvas = view.canvas();
    const qreal zoom = canvas->zoom();
    for (auto* box : boxes(view)) {
        if (const QRectF r = box->titleBesideRectAt(zoom, fontPx(view)); !r.isEmpty()) {
            out.rects.push_back(r);
            ++out.beside;
        } else if (box->titlePixelsAt(zoom, fontPx(view)) > 0) {
            out.rects.push_back(box->rect());
        }
    }
    const QTransform toScene = canvas->viewportTransform().inverted();
    for (const auto& l :
        view.regions()->labelsAt(canvas->viewportTransform(), canvas->viewport()->rect(), canvas->font())) {
        out.rects.push_back(toScene.mapRect(l.chip));
        ++out.regions;
    }
    return out;
}

/// No two of `titles` intersect.
::testing::AssertionResult apart(const Titles& titles)
{
    const auto& r = titles.rects;
    for (std::size_t i = 0; i < r.size(); ++i)
        for (std::size_t j = i + 1; j < r.size(); ++j)
            if (r[i].intersects(r[j]))
                return ::testing::AssertionFailure()
                    << "titles at " << r[i].x() << "," << r[i].y() << " " << r[i].width() << "x" << r[i].height()
                    << " and " << r[j].x() << "," << r[j].y() << " " << r[j].width() << "x" << r[j].height()
                    << " overlap (scene units)";
    return ::testing::AssertionSuccess();
}

TEST_F(UiGraphSpace, AtFitAndOneToOneNoTitleCoversAnother)
{
    // A fitted chain whose boxes are named beside them inside named regions: the region's label
    // in its corner covered the names of its first row (the forward blocks of a 3,000-node
    // training step; the loss's region of the training step expanded on a small canvas).
    struct Case {
        const char* name;
        QSize size;
        nlohmann::json graph;
        bool expandAll;
    };
    const Case cases[] = {{"transformer", QSize(1200, 800), ps::graphtest::transformerGraph(3000, 2), false},
        {"training step", QSize(806, 445), trainingStep(), true}};
    for (const auto& c : cases) {
        SCOPED_TRACE(c.name);
        ps::ui::GraphView view;
        view.resize(c.size);
        view.show();
        ASSERT_TRUE(QTest::qWaitForWindowExposed(&view));
        ASSERT_TRUE(shown(view, [&]() { view.setGraph(model(c.graph)); }));
        if (c.expandAll) {
            ASSERT_TRUE(shown(view, [&]() { view.expandAll(); }));
        }
        view.zoomToFit();
        ASSERT_TRUE(fitted(view));
        if (const QString dir = qEnvironmentVariable("PS_SHOT_DIR"); !dir.isEmpty())
            view.grab().save(QStringLiteral("%1/titles-%2.png").arg(dir, QString(c.name).replace(' ', '-')));
        const Titles atFit = titlesShown(view);
        EXPECT_GT(atFit.beside, 0) << "no box is named beside it at Fit: nothing to cover";
        EXPECT_GT(atFit.regions, 0) << "no region is named at Fit";
        EXPECT_TRUE(apart(atFit)) << "at Fit";

        view.zoomReset();
        ASSERT_DOUBLE_EQ(view.canvas()->zoom(), 1.0);
        const Titles atOne = titlesShown(view);
        EXPECT_GT(atOne.rects.size(), 0u);
        EXPECT_TRUE(apart(atOne)) << "at 1:1";
    }
}

TEST_F(UiGraphSpace, AtFitAResnetsModuleHeadersCoverNoBoxAndKeepTheirNames)
{
    // resnet18 at Fit in the Graph tab of a 1280x800 window: the headers were drawn over each
    // region's first box and cut to "mode…" and "layer…" by the narrow column of the chain.
    QFile f(sourcePath("tests/fixtures/graphs/resnet18_inference.json"));
    ASSERT_TRUE(f.open(QIODevice::ReadOnly));
    const auto graph = nlohmann::json::parse(f.readAll().toStdString())["graph"];
    for (const bool all : {false, true}) {
        SCOPED_TRACE(all ? "expanded" : "opening");
        ps::ui::GraphView view;
        view.resize(806, 445);
        view.show();
        ASSERT_TRUE(QTest::qWaitForWindowExposed(&view));
        ASSERT_TRUE(shown(view, [&]() { view.setGraph(model(graph)); }));
        if (all) {
            ASSERT_TRUE(shown(view, [&]() { view.expandAll(); }));
        }
        view.zoomToFit();
        ASSERT_TRUE(fitted(view));
        auto* canvas = view.canvas();
        if (const QString dir = qEnvironmentVariable("PS_SHOT_DIR"); !dir.isEmpty())
            view.grab().save(QStringLiteral("%1/resnet-headers-%2.png").arg(dir, all ? "all" : "opening"));
        const auto labels
            = view.regions()->labelsAt(canvas->viewportTransform(), canvas->viewport()->rect(), canvas->font());
        ASSERT_GE(labels.size(), all ? 3u : 1u) << "the expanded modules are named";
        for (const auto& l : labels) {
            SCOPED_TRACE(l.text.toStdString());
            const QString name = view.regions()->regions()[static_cast<std::size_t>(l.region)].label.section(' ', 0, 0);
            EXPECT_TRUE(l.text.startsWith(name)) << "the module's name is whole: " << name.toStdString();
            for (auto* box : boxes(view))
                if (box->isVisible()) {
                    EXPECT_FALSE(canvas->mapFromScene(box->rect()).boundingRect().intersects(l.chip.toRect()))
                        << "covers a box";
                }
        }
    }
}

TEST_F(UiGraphSpace, TheMinimapSitsInTheBottomRightCornerOnlyWhenTheGraphDoesNotFit)
{
    ps::ui::GraphView view;
    view.resize(1200, 800);
    view.show();
    ASSERT_TRUE(QTest::qWaitForWindowExposed(&view));
    ASSERT_TRUE(shown(view, [&]() { view.setGraph(model(trainingStep())); }));
    auto* minimap = view.minimap();
    auto* canvas = view.canvas();
    EXPECT_TRUE(fitted(view));
    EXPECT_FALSE(minimap->isVisible()) << "the whole graph is in view: nothing to find with the minimap";

    auto inCorner = [&]() {
        const QRect vp = canvas->viewport()->geometry();
        const QRect m = minimap->geometry();
        return vp.contains(m) && vp.right() - m.right() <= 16 && vp.bottom() - m.bottom() <= 16
            && m.width() < vp.width() / 3 && m.height() < vp.height() / 2;
    };
    // Shown, placed and hidden as the canvas changes (the assertions below read each state).
    for (int i = 0; i < 6; ++i)
        view.zoomIn();
    waitFor([&]() { return minimap->isVisible() && inCorner(); }, 5000);
    EXPECT_TRUE(minimap->isVisible());
    EXPECT_TRUE(inCorner());
    QSize before = canvas->viewport()->size();
    view.resize(900, 650);
    ASSERT_TRUE(waitFor([&]() { return canvas->viewport()->size() != before; }, 5000)) << "the canvas kept its size";
    waitFor([&]() { return minimap->isVisible() && inCorner(); }, 5000);
    EXPECT_TRUE(minimap->isVisible());
    EXPECT_TRUE(inCorner()) << "re-anchored after a resize";
    before = canvas->viewport()->size();
    view.resize(1300, 850);
    ASSERT_TRUE(waitFor([&]() { return canvas->viewport()->size() != before; }, 5000)) << "the canvas kept its size";
    waitFor([&]() { return inCorner(); }, 5000);
    EXPECT_TRUE(inCorner()) << "re-anchored after a resize";

    view.zoomToFit();
    waitFor([&]() { return !minimap->isVisible(); }, 5000);
    EXPECT_FALSE(minimap->isVisible());
}

TEST_F(UiGraphSpace, TheSidePanelOpensBesideTheCanvasOnRequest)
{
    ps::ui::GraphView view;
    view.resize(1200, 800);
    view.show();
    ASSERT_TRUE(QTest::qWaitForWindowExposed(&view));
    ASSERT_TRUE(shown(view, [&]() { view.setGraph(model(trainingStep())); }));
    ASSERT_FALSE(view.sidePanelShown());
    const int wide = view.canvas()->viewport()->width();
    view.setSidePanelShown(true);
    waitFor([&]() { return view.canvas()->viewport()->width() < wide - 150 && fitted(view); }, 5000);
    EXPECT_TRUE(view.sidePanelShown());
    EXPECT_LT(view.canvas()->viewport()->width(), wide - 150);
    EXPECT_TRUE(fitted(view)) << "the fitted graph is fitted again to the narrower canvas";
    view.setSidePanelShown(false);
    waitFor([&]() { return view.canvas()->viewport()->width() == wide; }, 5000);
    EXPECT_EQ(view.canvas()->viewport()->width(), wide);
}

}  // namespace

TEST_F(UiGraphSpace, FitShowsABigExpandedGraphWholeWithItsModulesNamed)
{
    // All of a 3,000-node graph expanded on a small canvas: the whole of it fits only well below
    // the 0.02 that zooming out otherwise stops at.
    ps::ui::GraphView view;
    ASSERT_TRUE(showExpanded(view, QSize(640, 420), ps::graphtest::transformerGraph(3000, 4)));
    auto* canvas = view.canvas();
    view.zoomToFit();
    ASSERT_LT(canvas->fitZoom(), 0.02) << "the graph is not big enough to test the floor";
    EXPECT_TRUE(fitted(view));
    EXPECT_DOUBLE_EQ(canvas->zoom(), canvas->fitZoom());

    // What is drawn there: no box text, the expanded modules named in labels of 8 px or more.
    auto* first = view.boxOfNode(view.graph()->nodes().size() / 2);
    ASSERT_NE(first, nullptr);
    EXPECT_EQ(first->titlePixelsAt(canvas->zoom(), fontPx(view)), 0);
    const auto labels
        = view.regions()->labelsAt(canvas->viewportTransform(), canvas->viewport()->rect(), canvas->font());
    ASSERT_GE(labels.size(), 2u) << "the modules are named at Fit";
    for (const auto& l : labels) {
        EXPECT_FALSE(l.text.isEmpty());
        EXPECT_GE(l.chip.height(), 8 + 4) << "a label of at least 8 px";
        EXPECT_TRUE(QRectF(canvas->viewport()->rect()).contains(l.chip));
    }

    // There the boxes and edges are one picture (tens of thousands of items would take a tenth
    // of a second a frame), drawn: ink on the canvas where the graph is.
    auto* scene = static_cast<ps::ui::GraphScene*>(canvas->scene());
    EXPECT_TRUE(scene->overview());
    EXPECT_FALSE(scene->overviewItems().empty()) << "the canvas draws the picture in place of the items";
    const QImage image = canvas->viewport()->grab().toImage();
    const QRect graphArea = canvas->mapFromScene(canvas->sceneRect()).boundingRect().intersected(image.rect());
    int ink = 0;
    for (int y = graphArea.top(); y <= graphArea.bottom(); ++y)
        for (int x = graphArea.left(); x <= graphArea.right(); ++x)
            ink += qGray(image.pixel(x, y)) < 230;
    EXPECT_GT(ink, 200) << "the boxes' picture is drawn";

    // Zooming out stops at the whole graph; zooming in and out again comes back to it.
    view.zoomOut();
    EXPECT_DOUBLE_EQ(canvas->zoom(), canvas->fitZoom());
    EXPECT_TRUE(fitted(view));
    view.zoomIn();
    EXPECT_GT(canvas->zoom(), canvas->fitZoom());
    canvas->setZoom(0.05);  // above the floor: the boxes themselves again
    EXPECT_FALSE(scene->overview());
    EXPECT_TRUE(scene->overviewItems().empty());
    for (int i = 0; i < 30; ++i)
        view.zoomOut();
    EXPECT_DOUBLE_EQ(canvas->zoom(), canvas->fitZoom());
    EXPECT_TRUE(scene->overview());

    // A graph that fits above the floor keeps it: zooming out past its fit stops at 0.02.
    ASSERT_TRUE(shown(view, [&]() { view.setGraph(model(trainingStep())); }));
    ASSERT_GT(canvas->fitZoom(), 0.02);
    EXPECT_DOUBLE_EQ(canvas->minZoom(), 0.02);
    canvas->setZoom(0.001);
    EXPECT_DOUBLE_EQ(canvas->zoom(), 0.02);
}
