// The numeric lenses on a real model's graph (torchvision resnet18 eval, as precompile captured
// it) with a report's measured data beside it, then on real runs (tests/fixtures/graphs: resnet18
// eval profiled on inductor, resnet18's training step that drifts): Time colours the profiled nodes and a collapsed
// module by its total, Error the localised nodes with those leaving eager's band framed, Memory
// every allocation with the peak framed; each with a legend in units; the top-nodes table sorts
// and a click selects the node; a lens without data is off and says why. PS_SHOT_DIR=DIR writes
// each lens as the view showed it.
#include "UiTestSupport.h"

#include "graph/GraphModel.h"
#include "graph/ModuleTree.h"
#include "model/Capture.h"
#include "model/JsonFields.h"
#include "ui/graph/GraphBoxItem.h"
#include "ui/graph/GraphCanvas.h"
#include "ui/graph/GraphToolBar.h"
#include "ui/graph/GraphView.h"
#include "ui/graph/LensPalette.h"
#include "ui/graph/TopNodesPanel.h"

#include <QApplication>
#include <QFile>
#include <QHeaderView>
#include <QLabel>
#include <QSignalSpy>
#include <QTableWidget>
#include <QTest>

#include <gtest/gtest.h>

using namespace ps::uitest;
using ps::graph::Lens;

namespace {

nlohmann::json resnet18Report()
{
    QFile f(sourcePath("tests/fixtures/graphs/resnet18_inference.json"));
    if (!f.open(QIODevice::ReadOnly))
        return nullptr;
    return nlohmann::json::parse(f.readAll().toStdString());
}

/// The capture as a profiled, localised run reports it: a kernel per convolution with the
/// batch norm and relu after it (self times rising along the graph), one naming no node of the
/// graph; per batch norm the error against float64 beside eager's, the last four leaving the band.
nlohmann::json measuredCapture(const nlohmann::json& graph)
{
    nlohmann::json kernels = nlohmann::json::array();
    nlohmann::json nodes = nlohmann::json::array();
    std::vector<std::string> bns;
    int k = 0;
    for (const auto& n : graph["node_list"]) {
        const std::string target = n.value("target", "");
        const std::string name = n.value("name", "");
        if (target == "aten.convolution.default") {
            kernels.push_back({{"name", "cpp_fused_convolution_" + std::to_string(k)}, {"nodes", {name}}, {"count", 5},
                {"self_us", 40.0 + 25.0 * k}});
            ++k;
        } else if (target == "aten.native_batch_norm.default" || target == "aten.relu_.default") {
            kernels.back()["nodes"].push_back(name);
            if (target == "aten.native_batch_norm.default")
                bns.push_back(name);
        }
    }
    kernels.push_back({{"name", "cpp_fused_lost"}, {"nodes", {"not_in_graph"}}, {"count", 5}, {"self_us", 12.0}});
    for (std::size_t i = 0; i < bns.size(); ++i) {
        const bool leaves = i + 4 >= bns.size();
        nodes.push_back({{"node", bns[i]}, {"error", leaves ? 2e-4 * (i + 1) : 1e-6 * (1 + i % 3)},
            {"eager_error", 1e-6}, {"leaves_band", leaves}});
    }
    return {{"name", "fn"}, {"backend", "inductor"}, {"tracer", "make_fx"}, {"status", "ok"}, {"graph", graph},
        {"profile",
            {{"calls", 5}, {"wall_us", 9000.0}, {"profiled_wall_us", 9400.0}, {"overhead_us", 400.0},
                {"kernels", kernels}, {"unattributed_us", 12.0}}},
        {"verify",
            {{"ran", true}, {"status", "drift"}, {"matches_eager", false},
                {"accuracy",
                    {{"verdict", "drift"}, {"reference", "float64"}, {"nodes", nodes},
                        {"drift_starts", {bns.empty() ? "" : bns[bns.size() - 4]}},
                        {"localise", {{"status", "done"}, {"observed", bns.size()}, {"seconds", 1.2}}}}}}}};
}

class UiGraphLenses : public ::testing::Test {
protected:
    void SetUp() override
    {
        view.resize(1100, 600);
        view.show();
        ASSERT_TRUE(QTest::qWaitForWindowExposed(&view));
        const auto report = resnet18Report();
        ASSERT_TRUE(report.is_object());
        capture = ps::model::Capture::fromJson(measuredCapture(report["graph"]));
        graph = std::make_shared<ps::graph::GraphModel>(ps::graph::GraphModel::fromJson(report["graph"]));
        ASSERT_TRUE(shown([&]() { view.setGraph(graph, &capture); }));
    }

    bool shown(const std::function<void()>& request)
    {
        QSignalSpy spy(&view, &ps::ui::GraphView::graphShown);
        request();
        return waitFor([&]() { return spy.count() > 0 && !view.layoutPending(); }, 60000)
            && waitForSettled([&]() { return view.canvas()->zoom(); }, 5000);
    }

    void save(const QString& name)
    {
        if (const QString dir = qEnvironmentVariable("PS_SHOT_DIR"); !dir.isEmpty())
            view.grab().save(dir + "/" + name + ".png");
    }

    int node(const std::string& name) const { return graph->indexOf(name); }
    QColor plain() const { return ps::ui::LensPalette::fill(std::string(), view.palette()); }

    ps::ui::GraphView view;
    ps::model::Capture capture;
    std::shared_ptr<ps::graph::GraphModel> graph;
};

}  // namespace

TEST_F(UiGraphLenses, TimeColoursTheProfiledNodesAndModulesByTheirTotal)
{
    view.setLens(Lens::Time);
    const auto* values = view.measures().lens(Lens::Time);
    ASSERT_TRUE(values);
    // conv1's kernel (40 µs) covers convolution, bn1 and relu: each shows the kernel's 40 µs, and
    // the module counts it once.
    EXPECT_NEAR(*values->node(node("convolution")), 40.0, 1e-9);
    EXPECT_NEAR(*values->node(node("relu_")), 40.0, 1e-9);
    EXPECT_NEAR(values->unattributedUs(), 12.0, 1e-9);
    // Every box with a value is on the ramp; a box whose nodes have none (the input) is plain.
    view.expandModule("model");
    ASSERT_TRUE(waitFor([&]() { return !view.layoutPending(); }, 60000));
    auto* conv = view.boxOfNode(node("convolution"));
    ASSERT_TRUE(conv);
    // The ramp spans the boxes shown: conv1's nodes (40 µs) are its smallest, layer4's total its largest.
    EXPECT_EQ(conv->fill(), ps::ui::LensPalette::ramp(0.0));
    EXPECT_NE(conv->fill(), plain());
    // A collapsed block takes its nodes' total: layer4.0, the most expensive box of all.
    auto* layer4 = view.boxOfNode(graph->indexOf("convolution_16"));  // layer4.0: three convolutions
    ASSERT_TRUE(layer4);
    EXPECT_EQ(layer4->fill(), ps::ui::LensPalette::ramp(1.0));
    const QString legend = view.legend().join('\n');
    EXPECT_TRUE(legend.contains(QStringLiteral("µs")) || legend.contains(QStringLiteral("ms"))) << legend.toStdString();
    EXPECT_TRUE(legend.contains(QStringLiteral("shown once on the group"))) << legend.toStdString();
    // The panel ranks kernels, not nodes: one row per kernel naming a node, the slowest first,
    // its group beside it; a click selects the whole group.
    auto* top = view.topNodes();
    EXPECT_TRUE(top->isVisible());
    EXPECT_TRUE(top->showsKernels());
    ASSERT_EQ(top->table()->rowCount(), 20);  // the kernel naming no node is not a row
    EXPECT_EQ(top->table()->horizontalHeaderItem(0)->text(), QStringLiteral("Kernel"));
    EXPECT_EQ(top->table()->item(0, 0)->text(), QStringLiteral("cpp_fused_convolution_19"));
    EXPECT_EQ(top->table()->item(0, 1)->text(), QStringLiteral("515 µs"));
    EXPECT_EQ(top->nodesAt(0).size(), 3);
    EXPECT_TRUE(top->table()->item(0, 2)->text().endsWith(QStringLiteral("+2")))
        << top->table()->item(0, 2)->text().toStdString();
    EXPECT_EQ(top->table()->item(0, 3)->text(), QStringLiteral("model.layer4.1"));
    const QList<int> group = top->nodesAt(0);
    QTest::mouseClick(
        top->table()->viewport(), Qt::LeftButton, {}, top->table()->visualItemRect(top->table()->item(0, 0)).center());
    ASSERT_TRUE(waitFor([&]() { return view.selectedNodes().size() == group.size(); }, 60000));
    for (int n : group)
        EXPECT_TRUE(view.selectedNodes().contains(n));
    // A node's details name the kernel it is part of and how many nodes share its time.
    EXPECT_TRUE(view.measures()
                    .detailsHtml(Lens::Time, *view.moduleTree(), {node("relu_")}, {})
                    .contains(QStringLiteral("all of cpp_fused_convolution_0, which computes it and 2 other nodes")));
    save("lens_time");
}

TEST_F(UiGraphLenses, ErrorFramesTheNodesThatLeaveEagersBandAndAModuleShowsItsWorst)
{
    view.setLens(Lens::Error);
    const auto* values = view.measures().lens(Lens::Error);
    ASSERT_TRUE(values);
    const auto marked = view.measures().marked(Lens::Error);
    ASSERT_EQ(marked.size(), 4u);
    for (int n : marked)
        EXPECT_TRUE(view.boxOfNode(n)->marked());
    EXPECT_FALSE(view.boxOfNode(node("native_batch_norm"))->marked());
    const QString legend = view.legend().join('\n');
    EXPECT_TRUE(legend.contains(QStringLiteral("× band")) || legend.contains(QStringLiteral("band")))
        << legend.toStdString();
    // The top row is the worst node, said in eager's band and marked as leaving it.
    auto* table = view.topNodes()->table();
    ASSERT_GT(table->rowCount(), 0);
    EXPECT_TRUE(table->item(0, 1)->text().contains(QStringLiteral("leaves band")));
    EXPECT_GE(view.topNodes()->width(), 200);  // beside the canvas, not squeezed out
    save("lens_error");
}

TEST_F(UiGraphLenses, MemoryShowsEachAllocationAndFramesThePeak)
{
    view.setLens(Lens::Memory);
    ASSERT_TRUE(view.measures().memory());
    const auto& memory = *view.measures().memory();
    ASSERT_GE(memory.peakNode(), 0);
    EXPECT_TRUE(view.boxOfNode(memory.peakNode())->marked());
    const QString legend = view.legend().join('\n');
    EXPECT_TRUE(legend.contains(QStringLiteral("peak 512.0 KiB live at native_batch_norm, 2 tensors")))
        << legend.toStdString();
    EXPECT_TRUE(legend.contains(QStringLiteral("held by inputs and parameters"))) << legend.toStdString();
    // Selecting the peak's node says so in its details.
    view.selectNodes({memory.peakNode()}, true);
    ASSERT_TRUE(waitFor(
        [&]() { return view.detailsText().contains(QStringLiteral("peak: 512.0 KiB live, 2 tensors")); }, 60000))
        << view.detailsText().toStdString();
    save("lens_memory");
}

TEST_F(UiGraphLenses, TopNodesSortAndAClickSelectsTheNode)
{
    view.setLens(Lens::Time);
    auto* table = view.topNodes()->table();
    ASSERT_GT(table->rowCount(), 2);
    // Largest first: the value column descends.
    auto valueAt = [&](int row) { return table->item(row, 1)->data(Qt::UserRole).toDouble(); };
    EXPECT_GE(valueAt(0), valueAt(1));
    // A click on the header sorts ascending, then by name.
    table->sortByColumn(1, Qt::AscendingOrder);
    EXPECT_LE(valueAt(0), valueAt(table->rowCount() - 1));
    table->sortByColumn(0, Qt::AscendingOrder);
    EXPECT_LE(table->item(0, 0)->text(), table->item(1, 0)->text());
    // Under a lens of nodes, a click on a row selects its node in the graph (opening its module).
    view.setLens(Lens::Error);
    EXPECT_FALSE(view.topNodes()->showsKernels());
    const int row = 3;
    const int wanted = view.topNodes()->nodeAt(row);
    ASSERT_GE(wanted, 0);
    QSignalSpy selected(&view, &ps::ui::GraphView::nodesSelected);
    table->scrollToItem(table->item(row, 0));
    QTest::mouseClick(table->viewport(), Qt::LeftButton, {}, table->visualItemRect(table->item(row, 0)).center());
    ASSERT_TRUE(waitFor([&]() { return view.selectedNodes() == QList<int>{wanted}; }, 60000));
    EXPECT_GT(selected.count(), 0);
}

// At the size a 1280x800 window gives the Graph tab, the top nodes go under the canvas: neither
// the graph nor the values are squeezed.
TEST_F(UiGraphLenses, At1280TheTopNodesGoUnderTheCanvasAndNothingIsSqueezed)
{
    view.resize(806, 445);
    QApplication::processEvents();
    view.setLens(Lens::Time);
    ASSERT_TRUE(view.topNodes()->isVisible());
    QApplication::processEvents();
    EXPECT_GE(view.canvas()->width(), 600) << "the graph squeezed beside the table";
    EXPECT_GE(view.topNodes()->width(), 600) << "the table squeezed beside the graph";
    EXPECT_GT(view.topNodes()->mapTo(&view, QPoint(0, 0)).y(), view.canvas()->mapTo(&view, QPoint(0, 0)).y());
    EXPECT_GE(view.canvas()->height(), 180);
    // The legend is whole, both ends of its ramp read: on a row of its own where the lens's row
    // has no room for it.
    auto* legend = view.toolBar()->legendLabel();
    EXPECT_TRUE(view.toolBar()->legendOnItsOwnRow());
    EXPECT_LE(legend->sizeHint().width(), legend->width());
    EXPECT_TRUE(
        legend->text().startsWith(QStringLiteral("40 µs")) && legend->text().contains(QStringLiteral("per call")))
        << legend->text().toStdString();
    save("lens_time_1280");
    // Wide again, it goes back beside the lens; so does a lens of categories.
    view.resize(1600, 600);
    QApplication::processEvents();
    EXPECT_FALSE(view.toolBar()->legendOnItsOwnRow());
    EXPECT_LE(legend->sizeHint().width(), legend->width());
    view.resize(806, 445);
    QApplication::processEvents();
    view.setLens(Lens::Kind);
    EXPECT_FALSE(view.toolBar()->legendOnItsOwnRow());
}

TEST_F(UiGraphLenses, LensesWithoutDataAreOffAndSayWhy)
{
    QString why;
    EXPECT_TRUE(view.toolBar()->lensAvailable(Lens::Time, &why));
    // The same graph from a run neither profiled nor localised: only Memory stays on, and the
    // time lens chosen for the last run is not kept (every box grey, the lens greyed).
    view.setLens(Lens::Time);
    const auto plainCapture = ps::model::Capture::fromJson(
        {{"name", "fn"}, {"status", "ok"}, {"verify", {{"ran", true}, {"status", "ok"}}}});
    ASSERT_TRUE(shown([&]() { view.setGraph(graph, &plainCapture); }));
    EXPECT_EQ(view.lens(), Lens::Kind);
    EXPECT_FALSE(view.topNodes()->isVisible());
    EXPECT_FALSE(view.toolBar()->lensAvailable(Lens::Time, &why));
    EXPECT_TRUE(why.contains(QStringLiteral("not profiled: Run > Profile"))) << why.toStdString();
    EXPECT_FALSE(view.toolBar()->lensAvailable(Lens::Error, &why));
    EXPECT_TRUE(why.contains(QStringLiteral("no drift to localise"))) << why.toStdString();
    EXPECT_TRUE(view.toolBar()->lensAvailable(Lens::Memory, &why));
    // Chosen anyway (a lens kept from the last run): nothing painted, the legend says why.
    view.setLens(Lens::Time);
    EXPECT_FALSE(view.topNodes()->isVisible());
    EXPECT_TRUE(view.legend().join('\n').contains(QStringLiteral("not profiled")));
    EXPECT_EQ(view.boxOfNode(node("convolution"))->fill(), plain());
}

namespace {

/// A real run's capture (tests/fixtures/graphs/NAME.json: its graph, lowering, profile and verify).
ps::model::Capture realCapture(const QString& name)
{
    QFile f(sourcePath("tests/fixtures/graphs/" + name + ".json"));
    if (!f.open(QIODevice::ReadOnly))
        return {};
    return ps::model::Capture::fromJson(nlohmann::json::parse(f.readAll().toStdString())["capture"]);
}

class UiGraphLensesOnARun : public ::testing::Test {
protected:
    void open(const QString& name)
    {
        view.resize(1100, 600);
        view.show();
        ASSERT_TRUE(QTest::qWaitForWindowExposed(&view));
        capture = realCapture(name);
        graph = std::make_shared<ps::graph::GraphModel>(
            ps::graph::GraphModel::fromJson(ps::model::JsonFields::member(capture.json, "graph"),
                ps::model::JsonFields::member(capture.json, "lowering")));
        ASSERT_FALSE(graph->empty());
        QSignalSpy spy(&view, &ps::ui::GraphView::graphShown);
        view.setGraph(graph, &capture);
        ASSERT_TRUE(waitFor([&]() { return spy.count() > 0 && !view.layoutPending(); }, 60000));
    }

    void save(const QString& name)
    {
        if (const QString dir = qEnvironmentVariable("PS_SHOT_DIR"); !dir.isEmpty())
            view.grab().save(dir + "/" + name + ".png");
    }

    ps::ui::GraphView view;
    ps::model::Capture capture;
    std::shared_ptr<ps::graph::GraphModel> graph;
};

}  // namespace

TEST_F(UiGraphLensesOnARun, Resnet18InferenceProfiledOnInductorPaintsItsKernels)
{
    open("resnet18_inference_profiled");
    ASSERT_TRUE(capture.profile);
    view.setLens(Lens::Time);
    const auto* values = view.measures().lens(Lens::Time);
    ASSERT_TRUE(values) << view.measures().unavailable(Lens::Time).toStdString();
    // The kernels ranked are those naming a node of the graph, and the model's total is their
    // time, each counted once.
    double named = 0;
    int naming = 0;
    for (const auto& k : capture.profile->kernels)
        for (const auto& n : k.nodes)
            if (graph->indexOf(n) >= 0 && std::isfinite(k.selfUs) && k.selfUs >= 0) {
                named += k.selfUs;
                ++naming;
                break;
            }
    EXPECT_GT(named, 0);
    const auto* root = view.moduleTree();
    ASSERT_TRUE(root);
    EXPECT_NEAR(*values->module(*root, root->find("model")) + 0.0, named, 1e-6 * named);
    auto* top = view.topNodes();
    ASSERT_TRUE(top->showsKernels());
    EXPECT_EQ(top->table()->rowCount(), naming);
    // A row names the node its kernel is named after first (extern_kernels.convolution computes
    // native_batch_norm_18, relu__15 and convolution_19), and its time stays in view.
    bool leads = false;
    for (int r = 0; r < top->table()->rowCount(); ++r) {
        leads |= top->table()->item(r, 2)->text() == QStringLiteral("convolution_19 +2");
        EXPECT_LE(top->table()->visualItemRect(top->table()->item(r, 1)).right(), top->table()->viewport()->width())
            << "the time is off to the right";
    }
    EXPECT_TRUE(leads);
    // A kernel computing three nodes is one row of its whole time, and each node shows it.
    for (int r = 0; r < top->table()->rowCount(); ++r)
        if (const QList<int> nodes = top->nodesAt(r); nodes.size() == 3) {
            const double us = top->table()->item(r, 1)->data(Qt::UserRole).toDouble();
            for (int n : nodes)
                EXPECT_GE(*values->node(n), us);
            break;
        }
    save("real_resnet18_time");

    view.setLens(Lens::Memory);
    const auto& memory = *view.measures().memory();
    EXPECT_GT(memory.peak(), 0u);
    EXPECT_TRUE(view.boxOfNode(memory.peakNode())->marked());
    EXPECT_TRUE(view.legend().join('\n').contains(QStringLiteral("peak"))) << view.legend().join('\n').toStdString();
    save("real_resnet18_memory");
}

TEST_F(UiGraphLensesOnARun, Resnet18TrainingStepThatDriftsPaintsWhereItLeavesEagersBand)
{
    open("resnet18_training_drift");
    ASSERT_TRUE(capture.verify && capture.verify->accuracy);
    const auto& accuracy = *capture.verify->accuracy;
    ASSERT_FALSE(accuracy.driftStarts.empty());
    view.setLens(Lens::Error);
    const auto* values = view.measures().lens(Lens::Error);
    ASSERT_TRUE(values) << view.measures().unavailable(Lens::Error).toStdString();
    // Every node the report says leaves the band is framed, and the drift starts among them.
    std::size_t leaving = 0;
    for (const auto& n : accuracy.nodes)
        leaving += n.leavesBand && graph->indexOf(n.node) >= 0;
    EXPECT_GT(leaving, 0u);
    EXPECT_EQ(view.measures().marked(Lens::Error).size(), leaving);
    for (const auto& start : accuracy.driftStarts) {
        const int n = graph->indexOf(start);
        ASSERT_GE(n, 0) << start;
        EXPECT_TRUE(values->leavesBand(n)) << start;
        EXPECT_TRUE(view.boxOfNode(n)->marked()) << start;
        EXPECT_GT(*values->node(n), 1.0) << start;  // past eager's own error
    }
    save("real_resnet18_train_error");

    // The training step's memory: backward keeps the forward's activations alive.
    view.setLens(Lens::Memory);
    EXPECT_GT(view.measures().memory()->peak(), 10u * 1024 * 1024);
    save("real_resnet18_train_memory");
}
