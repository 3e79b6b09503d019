// The Graph tab at the size a 1280x800 window gives it (about 806x445), on a real model's graph
// (torchvision resnet18 in eval mode as precompile captured it): what opens teaches something,
// Fit never shows a box without its name, search and 1:1 go to the selection, and the minimap
// never hides a box. PS_SHOT_DIR=DIR writes what each test saw there as PNGs.
#include "UiTestSupport.h"

#include "graph/GraphModel.h"
#include "ui/graph/GraphBoxItem.h"
#include "ui/graph/GraphCanvas.h"
#include "ui/graph/GraphView.h"
#include "ui/graph/ModuleItem.h"
#include "ui/graph/NodeItem.h"

#include <QFile>
#include <QGraphicsScene>
#include <QSignalSpy>
#include <QTest>

#include <gtest/gtest.h>

using namespace ps::uitest;

namespace {

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

}  // namespace
