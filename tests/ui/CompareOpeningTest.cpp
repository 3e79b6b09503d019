// The Compare view as it opens and as the user turns it round: Swap Sides, one collapse state on
// both graphs, a matched module coloured alike on both sides, module labels that read at Fit,
// backward nodes coloured, and the code given most of the height.
#include "CompareUiSupport.h"

#include <gtest/gtest.h>

using namespace ps::uitest;
using namespace ps::uitest::compareui;

TEST(UiCompareSwap, SwapMakesTheOtherRunTheBaseAndComparesAgain)
{
    // Opened the "wrong" way: the run with the extra layer is the base, so it reads "Removed".
    const auto view = shown(side("run #2", {{8}, {8}, {2}}), side("run #1", {{8}, {2}}));
    EXPECT_TRUE(view->graphPane()->summary().startsWith("Removed")) << view->graphPane()->summary().toStdString();
    ASSERT_NE(view->swapButton(), nullptr);
    EXPECT_TRUE(view->swapButton()->isVisible());
    EXPECT_TRUE(view->swapButton()->toolTip().contains(view->swapKey().toString(QKeySequence::NativeText)));
    view->tabs()->setCurrentIndex(CompareView::CodeTab);

    view->swapButton()->click();
    ASSERT_TRUE(graphsOpen(*view));
    EXPECT_TRUE(view->windowTitle().startsWith("Compare run #1 and run #2")) << view->windowTitle().toStdString();
    EXPECT_EQ(view->tabs()->currentIndex(), CompareView::CodeTab);  // the tab shown is kept
    const auto& graph = view->diff().captures().at(0).graph;
    EXPECT_TRUE(graph.removed().empty());
    EXPECT_FALSE(graph.added().empty());
    EXPECT_TRUE(view->graphPane()->summary().startsWith("Added")) << view->graphPane()->summary().toStdString();
    // Every tab compares the new way round: run #1 on the left.
    EXPECT_EQ(view->graphPane()->view(0)->graph()->nodes().size() + graph.added().size(),
        view->graphPane()->view(1)->graph()->nodes().size());
    EXPECT_EQ(view->graphPane()->view(1)->boxFill(graph.added().back()), ps::ui::DiffColours::added());
    EXPECT_EQ(view->codePane()->diffView()->editor(0)->text(), "layer(8)\nlayer(2)\n");
    EXPECT_TRUE(view->codePane()->diffView()->title(0)->text().startsWith("run #1"))
        << view->codePane()->diffView()->title(0)->text().toStdString();
    EXPECT_TRUE(view->findChild<QLabel*>("compareVerdict")->text().contains("run #1 and run #2"));

    // The key swaps back.
    QTest::keyClick(view.get(), Qt::Key_X, Qt::ControlModifier | Qt::ShiftModifier);
    ASSERT_TRUE(graphsOpen(*view));
    EXPECT_TRUE(view->windowTitle().startsWith("Compare run #2 and run #1")) << view->windowTitle().toStdString();
    EXPECT_TRUE(view->graphPane()->summary().startsWith("Removed"));
}

TEST(UiCompareView, BothGraphsOpenInTheSameCollapseState)
{
    // A small graph opens whole, a larger one with its modules closed: the two must open alike.
    for (const auto& [a, b] : {std::pair<std::vector<Layer>, std::vector<Layer>>{{{8}, {2}}, {{8}, {8}, {2}}},
             {{{8}, {8}, {2}}, {{8}, {8}, {8}, {8}, {8}, {2}}}}) {
        for (QSize size : {QSize(1280, 800), QSize(1920, 1080)}) {
            const auto view = shown(side("run #1", a), side("run #2", b), size);
            const QStringList mismatches = collapseMismatches(*view->graphPane());
            EXPECT_TRUE(mismatches.isEmpty()) << a.size() << " vs " << b.size() << " layers at " << size.width() << ": "
                                              << mismatches.join("; ").toStdString();
        }
    }
    // Expanding a module on one side expands its match on the other, renamed (model.2 -> model.4).
    const auto view = shown(side("run #1", {{8}, {2}}), side("run #2", {{8}, {8}, {2}}));
    ps::ui::GraphView* a = view->graphPane()->view(0);
    ps::ui::GraphView* b = view->graphPane()->view(1);
    const bool open = a->isExpanded("model.2");
    open ? a->collapseModule("model.2") : a->expandModule("model.2");
    ASSERT_TRUE(graphsOpen(*view));
    EXPECT_EQ(b->isExpanded("model.4"), !open);
    EXPECT_TRUE(collapseMismatches(*view->graphPane()).isEmpty());
}

TEST(UiCompareView, WithMoveTogetherBothSidesAreFittedToOneZoom)
{
    // A two-layer graph beside a six-layer one: each fitted to its own pane, the same layer was
    // drawn at two sizes with "Move together" on.
    const auto view = shown(side("run #1", {{8}, {2}}), side("run #2", {{8}, {8}, {8}, {8}, {8}, {2}}));
    auto* pane = view->graphPane();
    ps::ui::GraphCanvas* a = pane->view(0)->canvas();
    ps::ui::GraphCanvas* b = pane->view(1)->canvas();
    auto* together = pane->moveTogether();
    ASSERT_TRUE(together && together->isChecked());
    const auto wholeInView = [](ps::ui::GraphCanvas* c) {
        return QRectF(c->viewport()->rect())
            .adjusted(-1, -1, 1, 1)
            .contains(c->mapFromScene(c->sceneRect()).boundingRect());
    };
    ASSERT_GT(std::abs(std::min(a->fitZoom(), 1.0) - std::min(b->fitZoom(), 1.0)), 0.01)
        << "the two graphs fit at the same zoom: nothing to test";
    const qreal common = std::min({a->fitZoom(), b->fitZoom(), 1.0});
    EXPECT_NEAR(a->zoom(), common, 1e-6);
    EXPECT_NEAR(b->zoom(), common, 1e-6);
    EXPECT_TRUE(wholeInView(a));
    EXPECT_TRUE(wholeInView(b));
    // Off, each side fits its own pane.
    together->setChecked(false);
    EXPECT_NEAR(a->zoom(), std::min(a->fitZoom(), 1.0), 1e-6);
    EXPECT_NEAR(b->zoom(), std::min(b->fitZoom(), 1.0), 1e-6);
    // On again, after zooming one side, Fit on it fits both to one zoom.
    together->setChecked(true);
    pane->view(1)->zoomIn();
    pane->view(1)->zoomToFit();
    EXPECT_NEAR(a->zoom(), common, 1e-6);
    EXPECT_NEAR(b->zoom(), common, 1e-6);
    EXPECT_TRUE(a->keepsFitted() && b->keepsFitted());
}

TEST(UiCompareView, AMatchedModuleIsAmberOnBothSides)
{
    // B adds a layer inside the model: the model holds 5 added nodes and 1 changed one on B, 1
    // changed on A. Collapsed, it is the same module on both sides: amber on both.
    const auto view = shown(side("run #1", {{8}, {2}}), side("run #2", {{8}, {8}, {2}}));
    ps::ui::GraphView* a = view->graphPane()->view(0);
    ps::ui::GraphView* b = view->graphPane()->view(1);
    a->collapseModule("model");  // "Move together" collapses B's
    ASSERT_TRUE(graphsOpen(*view));
    ASSERT_FALSE(b->isExpanded("model"));
    const auto& graph = view->diff().captures().at(0).graph;
    const int changedA = graph.changed().front().a;
    EXPECT_EQ(a->boxFill(changedA), ps::ui::DiffColours::changed());
    EXPECT_EQ(b->boxFill(graph.added().back()), ps::ui::DiffColours::changed())
        << b->boxFill(graph.added().back()).name().toStdString();
    // Opened again: the added layer's own module is green on B, and only there.
    a->expandModule("model");
    ASSERT_TRUE(graphsOpen(*view));
    ASSERT_TRUE(b->isExpanded("model"));
    for (int n : graph.added())
        EXPECT_EQ(b->boxFill(n), ps::ui::DiffColours::added()) << n;
    for (const auto& [i, j] : graph.matched())
        EXPECT_NE(a->boxFill(i), ps::ui::DiffColours::added()) << i;
}

TEST(UiCompareView, ModuleLabelsNameTheirParentAndAreReadableAtFit)
{
    EXPECT_EQ(ps::ui::ModuleLabel::title(QString("model.layer1.0"), QString("BasicBlock"), 5).toStdString(),
        "layer1.0 · BasicBlock");
    EXPECT_EQ(ps::ui::ModuleLabel::title(QString("backward:model.layer1.0.fc"), QString("Linear"), 5).toStdString(),
        "layer1.0.fc (backward) · Linear");
    EXPECT_EQ(ps::ui::ModuleLabel::title(QString("model.layer1"), QString("Sequential"), 5).toStdString(),
        "layer1 · Sequential");
    // resnet-like stages of numbered blocks, B with more blocks in each stage.
    const auto view = shown(stagedSide("run #1", {2, 2, 2, 2}), stagedSide("run #2", {3, 4, 6, 3}), QSize(1280, 800));
    for (int k = 0; k < 2; ++k) {
        // Titles are readable at Fit, on both sides.
        ps::ui::GraphView* g = view->graphPane()->view(k);
        EXPECT_TRUE(g->canvas()->keepsFitted()) << k;
        EXPECT_GE(g->canvas()->fitZoom(), g->opening().titleZoom) << k << ": " << g->visibleItemCount() << " boxes";
    }
    EXPECT_TRUE(collapseMismatches(*view->graphPane()).isEmpty());
    // Every block closed (on A; B follows): each box says which stage its block is in.
    ps::ui::GraphView* a = view->graphPane()->view(0);
    for (const auto& m : a->moduleTree()->modules())
        if (m.type == "BasicBlock")
            a->collapseModule(QString::fromStdString(m.path));
    ASSERT_TRUE(graphsOpen(*view));
    for (int k = 0; k < 2; ++k) {
        QStringList titles;
        for (ps::ui::ModuleItem* box : moduleBoxes(view->graphPane()->view(k)))
            titles << box->title();
        EXPECT_GE(titles.size(), 8) << k << ": " << titles.join(", ").toStdString();
        EXPECT_TRUE(titles.contains("layer1.0 · BasicBlock") && titles.contains("layer2.0 · BasicBlock"))
            << k << ": " << titles.join(", ").toStdString();
        EXPECT_EQ(QSet<QString>(titles.begin(), titles.end()).size(), titles.size())
            << k << ": " << titles.join(", ").toStdString();
    }
}

TEST(UiCompareView, BackwardNodesAreColouredLikeForwardOnes)
{
    // A training step against the same step with one backward and one forward node changed.
    QFile file(sourcePath("tests/fixtures/graphs/training_step.json"));
    ASSERT_TRUE(file.open(QIODevice::ReadOnly));
    const json graph = json::parse(file.readAll().toStdString())["graph"];
    json changed = graph;
    int backward = -1;
    for (std::size_t i = 0; i < changed["node_list"].size(); ++i) {
        json& node = changed["node_list"][i];
        const auto text = [&node](const char* key) {
            return node.contains(key) && node[key].is_string() ? node[key].get<std::string>() : std::string();
        };
        if (backward < 0 && text("phase") == "backward" && text("kind") == "compute" && node["module"].is_object()) {
            node["dtype"] = "float64";
            backward = static_cast<int>(i);
        }
    }
    ASSERT_GE(backward, 0);
    RunSide a = side("run #1", {{8}});
    RunSide b = side("run #2", {{8}});
    a.report["captures"][0]["graph"] = graph;
    b.report["captures"][0]["graph"] = changed;
    const auto view = shown(a, b);
    const auto& diff = view->diff().captures().at(0).graph;
    ASSERT_EQ(diff.changed().size(), 1u);
    for (int k = 0; k < 2; ++k) {
        ps::ui::GraphView* g = view->graphPane()->view(k);
        const int node = k == 0 ? diff.changed().front().a : diff.changed().front().b;
        ASSERT_EQ(g->moduleTree()->phaseOf(node), ps::graph::Phase::Backward);
        // Collapsed or not, the box showing it is amber, and so is its backward module's box.
        EXPECT_EQ(g->boxFill(node), ps::ui::DiffColours::changed()) << k;
        g->selectNodes({node}, true);
        ASSERT_TRUE(graphsOpen(*view));
        EXPECT_EQ(g->boxFill(node), ps::ui::DiffColours::changed()) << k;
    }
    // The backward module holding it, collapsed on both sides: amber on both.
    const auto* tree = view->graphPane()->view(0)->moduleTree();
    const std::string module = tree->module(tree->moduleOf(diff.changed().front().a)).path;
    ASSERT_EQ(module.rfind("backward:", 0), 0u) << module;
    view->graphPane()->view(0)->collapseModule(QString::fromStdString(module));
    ASSERT_TRUE(graphsOpen(*view));
    for (int k = 0; k < 2; ++k) {
        const int node = k == 0 ? diff.changed().front().a : diff.changed().front().b;
        EXPECT_FALSE(view->graphPane()->view(k)->isExpanded(QString::fromStdString(module))) << k;
        EXPECT_EQ(view->graphPane()->view(k)->boxFill(node), ps::ui::DiffColours::changed()) << k;
    }
}

TEST(UiCompareView, TheCodeGetsMostOfTheHeightWhateverTheNotes)
{
    // 40 metadata fields that differ: 40 lines of notes under the section list.
    const auto view = shown(withMetadata(side("run #1", {{8}, {2}}), 40, "1"),
        withMetadata(side("run #2", {{8}, {8}, {2}}), 40, "2"), QSize(1920, 1080));
    view->tabs()->setCurrentIndex(CompareView::CodeTab);
    ps::ui::CompareCodePane* pane = view->codePane();
    ASSERT_TRUE(waitForSettled([&]() { return pane->diffView()->height(); }, 5000));
    EXPECT_EQ(pane->notes().count("metadata FIELD_"), 40) << pane->notes().toStdString();
    EXPECT_GE(pane->diffView()->height(), pane->height() * 0.6)
        << pane->diffView()->height() << " of " << pane->height();
    // The notes scroll in their own pane; the list shows every section.
    auto* notes = pane->findChild<QPlainTextEdit*>("compareCodeNotes");
    ASSERT_NE(notes, nullptr);
    EXPECT_TRUE(notes->isVisible());
    EXPECT_GE(pane->sectionList()->height(), pane->sectionList()->topLevelItemCount() * 10);
}

namespace {

RunSide fixtureSide(const std::string& label, const char* graph)
{
    QFile file(sourcePath(QString("tests/fixtures/graphs/%1.json").arg(graph)));
    EXPECT_TRUE(file.open(QIODevice::ReadOnly));
    RunSide s = side(label, {{8}});
    s.report["captures"][0]["graph"] = json::parse(file.readAll().toStdString())["graph"];
    return s;
}

/// `s` with no module recorded on any node (a plain function's graph).
RunSide withoutModules(RunSide s)
{
    for (json& node : s.report["captures"][0]["graph"]["node_list"])
        node["module"] = nullptr;
    return s;
}

/// How deep into the model a view shows open: the most components of an open module's model
/// path that the canvas shows ("model.layer1" open: 2), 0 when no module of the model is open.
int openDepth(ps::ui::GraphView* g)
{
    const auto* tree = g->moduleTree();
    const std::vector<bool> open = shownExpanded(g);
    int deepest = 0;
    for (int m = 1; m < static_cast<int>(tree->modules().size()); ++m)
        if (open[static_cast<std::size_t>(m)] && tree->module(m).role == ps::graph::Module::Role::Model)
            deepest = std::max(
                deepest, static_cast<int>(QString::fromStdString(tree->module(m).modelPath).split('.').size()));
    return deepest;
}

}  // namespace

TEST(UiCompareView, RunsOfDifferentKindsOpenAtTheSameDepth)
{
    // An inference run against a training step of a like model (either way round), and
    // unrelated models (resnet18 against an MLP's training step, against staged blocks): each
    // side opens into its model as deep as the other, its titles readable at Fit.
    const std::pair<RunSide, RunSide> cases[] = {
        {side("inference", {{32}, {1}}), fixtureSide("training", "training_step")},
        {fixtureSide("training", "training_step"), side("inference", {{32}, {1}})},
        {fixtureSide("resnet18", "resnet18_inference"), fixtureSide("training", "training_step")},
        {fixtureSide("resnet18", "resnet18_inference"), stagedSide("staged", {3, 4, 6, 3})},
        {fixtureSide("training", "training_step"), withoutModules(side("function", {{8}, {8}}))},
    };
    for (const auto& [a, b] : cases)
        for (QSize size : {QSize(1280, 800), QSize(1920, 1080)}) {
            const auto view = shown(a, b, size);
            const std::string what = a.label + " vs " + b.label + " at " + std::to_string(size.width());
            ps::ui::GraphView* g[2] = {view->graphPane()->view(0), view->graphPane()->view(1)};
            if (g[1]->moduleTree()->modules().size() > 1) {
                EXPECT_GE(openDepth(g[0]), 1) << what;
                EXPECT_EQ(openDepth(g[0]), openDepth(g[1])) << what;
            }
            for (int k = 0; k < 2; ++k) {
                EXPECT_GE(g[k]->canvas()->fitZoom(), g[k]->opening().titleZoom)
                    << what << ", side " << k << ": " << g[k]->visibleItemCount() << " boxes";
                // A training step's phases are open: its model shows, as on the other side.
                const auto* tree = g[k]->moduleTree();
                for (auto phase : {ps::graph::Phase::Forward, ps::graph::Phase::Backward}) {
                    const int group = tree->phaseGroup(phase);
                    EXPECT_TRUE(group < 0 || g[k]->isExpanded(QString::fromStdString(tree->module(group).path)))
                        << what << ": phase " << static_cast<int>(phase);
                }
                // A module's forward and backward copies are open or closed alike.
                const std::vector<bool> open = shownExpanded(g[k]);
                for (int m = 1; m < static_cast<int>(tree->modules().size()); ++m) {
                    const int twin = tree->twin(m);
                    const auto shownIn = [&](int module) { return open[std::size_t(tree->module(module).parent)]; };
                    EXPECT_TRUE(
                        twin < 0 || !shownIn(m) || !shownIn(twin) || open[std::size_t(m)] == open[std::size_t(twin)])
                        << what << ": " << tree->module(m).path;
                }
            }
            EXPECT_TRUE(collapseMismatches(*view->graphPane()).isEmpty())
                << what << ": " << collapseMismatches(*view->graphPane()).join("; ").toStdString();
        }
}
