// A training step on the Graph tab: forward and backward are two regions, each module collapses
// per phase into a box of its own (the backward one below), the gradient outputs are one box;
// an inference graph keeps its plain module tree.
#include "UiTestSupport.h"

#include "graph/GraphModel.h"
#include "graph/ModuleTree.h"
#include "ui/graph/GraphBoxItem.h"
#include "ui/graph/GraphView.h"
#include "ui/graph/ModuleItem.h"
#include "ui/graph/ModuleRegionsItem.h"

#include <QFile>
#include <QSignalSpy>
#include <QTest>

#include <gtest/gtest.h>

#include <algorithm>
#include <limits>

using namespace ps::uitest;
using ps::graph::Phase;

namespace {

class UiGraphPhases : public ::testing::Test {
protected:
    void SetUp() override
    {
        // resources/examples/training_step.py as the worker captured it: 37 nodes, two Linears.
        QFile f(sourcePath("tests/fixtures/graphs/training_step.json"));
        ASSERT_TRUE(f.open(QIODevice::ReadOnly));
        const auto doc = nlohmann::json::parse(f.readAll().toStdString());
        model = std::make_shared<ps::graph::GraphModel>(ps::graph::GraphModel::fromJson(doc["graph"]));
        ASSERT_EQ(model->nodes().size(), 37u);
        view.resize(1200, 800);
        view.show();
        ASSERT_TRUE(QTest::qWaitForWindowExposed(&view));
    }

    bool shown(const std::function<void()>& request)
    {
        QSignalSpy spy(&view, &ps::ui::GraphView::graphShown);
        request();
        return waitFor([&]() { return spy.count() > 0 && !view.layoutPending(); }, 60000);
    }

    /// The band a node's box is in: 1 for the backward and the output, 0 for the rest.
    int band(int node) const
    {
        return view.moduleTree()->phaseOf(node) == Phase::Backward
                || model->nodes()[static_cast<std::size_t>(node)].kind == ps::graph::NodeKind::Output
            ? 1
            : 0;
    }

    /// The lowest bottom edge of the forward's boxes and the highest top edge of the backward's.
    std::pair<double, double> bandEdges() const
    {
        double forwardBottom = -std::numeric_limits<double>::infinity();
        double backwardTop = std::numeric_limits<double>::infinity();
        for (int n = 0; n < static_cast<int>(model->nodes().size()); ++n) {
            const auto* box = view.boxOfNode(n);
            if (!box)
                continue;
            const QRectF r = box->mapRectToScene(box->rect());  // the box, not its title's room beside it
            if (band(n) == 0)
                forwardBottom = std::max(forwardBottom, r.bottom());
            else
                backwardTop = std::min(backwardTop, r.top());
        }
        return {forwardBottom, backwardTop};
    }

    ps::ui::ModuleItem* moduleBox(const QString& path) const
    {
        const auto* tree = view.moduleTree();
        const int m = tree->find(path.toStdString());
        if (m < 0 || tree->module(m).total == 0)
            return nullptr;
        auto* box = view.boxOfNode(tree->nodesIn(m).front());
        return box && box->type() == ps::ui::ModuleItem::Type ? static_cast<ps::ui::ModuleItem*>(box) : nullptr;
    }

    std::shared_ptr<ps::graph::GraphModel> model;
    ps::ui::GraphView view;
};

}  // namespace

TEST_F(UiGraphPhases, ATrainingStepOpensWithForwardAboveBackwardAndTheGradientsBundled)
{
    ASSERT_TRUE(shown([&]() { view.setGraph(model); }));
    const auto* tree = view.moduleTree();
    ASSERT_TRUE(tree->phased());
    EXPECT_TRUE(view.isExpanded("forward:"));
    EXPECT_TRUE(view.isExpanded("backward:"));
    // The five gradients and the views feeding them: one box, shut, named with its size.
    EXPECT_FALSE(view.isExpanded("backward:[gradients]"));
    auto* grads = moduleBox("backward:[gradients]");
    ASSERT_NE(grads, nullptr);
    EXPECT_EQ(grads->title().toStdString(), "gradients (10)");
    const auto [forwardBottom, backwardTop] = bandEdges();
    EXPECT_LT(forwardBottom, backwardTop) << "every backward box lies below every forward one";

    ASSERT_TRUE(shown([&]() { view.expandModule("backward:[gradients]"); }));
    EXPECT_TRUE(view.isExpanded("backward:[gradients]"));
    EXPECT_EQ(moduleBox("backward:[gradients]"), nullptr);
    const auto [forwardBottom2, backwardTop2] = bandEdges();
    EXPECT_LT(forwardBottom2, backwardTop2);
}

TEST_F(UiGraphPhases, AModuleCollapsesPerPhaseIntoTwoBoxesTheBackwardOneBelow)
{
    ASSERT_TRUE(shown([&]() { view.setGraph(model); }));
    ASSERT_TRUE(shown([&]() { view.expandAll(); }));
    ASSERT_TRUE(shown([&]() { view.collapseModule("model.2"); }));
    ASSERT_TRUE(shown([&]() { view.collapseModule("backward:model.2"); }));
    EXPECT_FALSE(view.isExpanded("model.2"));
    EXPECT_FALSE(view.isExpanded("backward:model.2"));
    auto* forward = moduleBox("model.2");
    auto* backward = moduleBox("backward:model.2");
    ASSERT_NE(forward, nullptr);
    ASSERT_NE(backward, nullptr);
    ASSERT_NE(forward, backward);
    // A numbered module is named with its parent (ModuleLabel): "2" alone reads like any other.
    EXPECT_EQ(forward->title().toStdString(), "model.2 · Linear");
    EXPECT_EQ(backward->title().toStdString(), "model.2 (backward) · Linear");
    EXPECT_LT(forward->mapRectToScene(forward->rect()).bottom(), backward->mapRectToScene(backward->rect()).top());

    // Collapsing the model in both phases: still two boxes, one per phase, in that order.
    ASSERT_TRUE(shown([&]() { view.collapseModule("forward:model"); }));
    ASSERT_TRUE(shown([&]() { view.collapseModule("backward:model"); }));
    forward = moduleBox("model");
    backward = moduleBox("backward:model");
    ASSERT_NE(forward, nullptr);
    ASSERT_NE(backward, nullptr);
    EXPECT_EQ(backward->title().toStdString(), "model (backward) · Sequential");
    EXPECT_LT(forward->mapRectToScene(forward->rect()).bottom(), backward->mapRectToScene(backward->rect()).top());
    const auto [forwardBottom, backwardTop] = bandEdges();
    EXPECT_LT(forwardBottom, backwardTop);

    // A backward module is addressed by its path like any other.
    ASSERT_TRUE(shown([&]() { view.expandModule("backward:model.0"); }));
    EXPECT_TRUE(view.isExpanded("backward:model"));
    EXPECT_TRUE(view.isExpanded("backward:model.0"));
    EXPECT_FALSE(view.isExpanded("model"));
}

TEST_F(UiGraphPhases, AnInferenceGraphHasNoPhaseGroups)
{
    auto inference
        = std::make_shared<ps::graph::GraphModel>(ps::graph::GraphModel::fromJson(syntheticGraph(400, "model.py", 20)));
    ASSERT_TRUE(shown([&]() { view.setGraph(inference); }));
    ASSERT_TRUE(shown([&]() { view.expandAll(); }));
    const auto* tree = view.moduleTree();
    EXPECT_FALSE(tree->phased());
    EXPECT_EQ(tree->find("forward:"), -1);
    EXPECT_EQ(tree->module(tree->find("model")).parent, ps::graph::ModuleTree::root());
    ASSERT_TRUE(shown([&]() { view.collapseModule("model.layers.1"); }));
    auto* box = moduleBox("model.layers.1");
    ASSERT_NE(box, nullptr);
    EXPECT_EQ(box->title().toStdString(), "layers.1 · Block");
}

TEST_F(UiGraphPhases, AnExpandedModulesRegionIsNamedAsItsBoxWas)
{
    ASSERT_TRUE(shown([&]() { view.setGraph(model); }));
    auto* grads = moduleBox("backward:[gradients]");
    ASSERT_NE(grads, nullptr);
    const QString gradsTitle = grads->title();
    ASSERT_TRUE(shown([&]() { view.collapseModule("backward:model"); }));
    auto* backward = moduleBox("backward:model");
    ASSERT_NE(backward, nullptr);
    const QString backwardTitle = backward->title();
    EXPECT_EQ(backwardTitle.toStdString(), "model (backward) · Sequential");

    ASSERT_TRUE(shown([&]() { view.expandAll(); }));
    ASSERT_NE(view.regions(), nullptr);
    QStringList labels;
    for (const auto& r : view.regions()->regions())
        labels << r.label;
    EXPECT_TRUE(labels.contains(gradsTitle)) << labels.join(" | ").toStdString();
    EXPECT_TRUE(labels.contains(backwardTitle)) << labels.join(" | ").toStdString();
}
