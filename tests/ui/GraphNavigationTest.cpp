// Getting around the Graph tab without the mouse and through its details pane: the arrow keys
// move the selection to inputs, users and the boxes beside it; the pane names inputs as the
// boxes do and links every input, user, kernel and source line; the module tree's ticks expand
// and collapse.
#include "UiTestSupport.h"

#include "graph/GraphModel.h"
#include "graph/ModuleTree.h"
#include "ui/editor/ScriptEditor.h"
#include "ui/graph/GraphBoxItem.h"
#include "ui/graph/GraphCanvas.h"
#include "ui/graph/GraphDetailsFormatter.h"
#include "ui/graph/GraphView.h"
#include "ui/graph/ModuleItem.h"
#include "ui/graph/ModuleTreeModel.h"
#include "ui/graph/NodeItem.h"
#include "ui/library/RunStore.h"
#include "ui/report/ReportView.h"
#include "ui/window/MainWindow.h"

#include <QScrollBar>
#include <QSettings>
#include <QSignalSpy>
#include <QTabWidget>
#include <QTest>
#include <QTextBrowser>

#include <gtest/gtest.h>

using namespace ps::uitest;
using Link = ps::ui::GraphDetailsFormatter::Link;

namespace {

// Node indices of the graph below.
enum : int { kWeight, kBias, kX, kT, kAddmm, kRelu, kSum, kOutput };

const char* kNavigationScript = "import torch\n"                                 // 1
                                "model = torch.nn.Sequential(\n"                 // 2
                                "    torch.nn.Linear(2, 2), torch.nn.ReLU())\n"  // 3
                                "def fn(x):\n"                                   // 4
                                "    return model(x).sum()\n"                    // 5
                                "example_inputs = (torch.ones(2, 2),)\n";

/// A Linear + ReLU + sum, as the worker reports it: placeholders named flat_N whose qualified
/// names are model.0.weight, model.0.bias and x; addmm and relu fused into one kernel.
nlohmann::json smallGraph(const std::string& file)
{
    auto node
        = [&](const char* name, const char* op, const char* target, const char* kind, std::vector<std::string> inputs) {
              return nlohmann::json{{"name", name}, {"op", op}, {"target", target}, {"kind", kind}, {"inputs", inputs},
                  {"shape", {2, 2}}, {"dtype", "float32"}, {"stride", {2, 1}}, {"device", "cpu"}, {"module", nullptr},
                  {"source", nullptr}};
          };
    auto placeholder = [&](const char* name, const char* kind, const char* qualname) {
        auto n = node(name, "placeholder", name, kind, {});
        n["qualname"] = qualname;
        return n;
    };
    auto in = [](nlohmann::json n, const char* path, const char* type) {
        n["module"] = {{"path", path}, {"type", type}};
        return n;
    };
    auto at = [&](nlohmann::json n, int line) {
        n["source"] = {{"file", file}, {"line", line}};
        return n;
    };
    nlohmann::json list = {placeholder("flat_1", "parameter", "model.0.weight"),
        placeholder("flat_2", "parameter", "model.0.bias"), placeholder("flat_3", "input", "x"),
        in(node("t", "call_function", "aten.t.default", "compute", {"flat_1"}), "model.0", "Linear"),
        at(in(node("addmm", "call_function", "aten.addmm.default", "compute", {"flat_2", "flat_3", "t"}), "model.0",
               "Linear"),
            5),
        at(in(node("relu", "call_function", "aten.relu.default", "compute", {"addmm"}), "model.1", "ReLU"), 5),
        at(node("sum_1", "call_function", "aten.sum.default", "compute", {"relu"}), 5),
        node("output", "output", "output", "output", {"sum_1"})};
    return {{"nodes", 8}, {"complete", true}, {"node_list", list}};
}

nlohmann::json smallLowering()
{
    return {{"kernels", {{{"name", "triton_poi_fused_addmm_relu_0"}, {"nodes", {"addmm", "relu"}}}}}};
}

class UiGraphNavigation : public ::testing::Test {
protected:
    void SetUp() override
    {
        script = dir.write("model.py", kNavigationScript);
        model = std::make_shared<ps::graph::GraphModel>(
            ps::graph::GraphModel::fromJson(smallGraph(script.toStdString()), smallLowering()));
        ASSERT_EQ(model->nodes().size(), 8u);
        ASSERT_EQ(model->nodes()[kAddmm].name, "addmm");
        view.resize(1000, 700);
        view.show();
        ASSERT_TRUE(QTest::qWaitForWindowExposed(&view));
        ASSERT_TRUE(shown([this]() { view.setGraph(model); }));
        ASSERT_TRUE(view.isExpanded("model.0")) << "eight nodes open whole";
        view.canvas()->setFocus();
    }

    /// Runs `request` and waits for the layout it starts to be shown.
    bool shown(const std::function<void()>& request)
    {
        QSignalSpy spy(&view, &ps::ui::GraphView::graphShown);
        request();
        return waitFor([&]() { return spy.count() > 0 && !view.layoutPending(); }, 30000);
    }

    void key(Qt::Key k, Qt::KeyboardModifiers mods = {}) { QTest::keyClick(view.canvas(), k, mods); }

    QTextBrowser* details() const { return view.findChild<QTextBrowser*>(QStringLiteral("graphDetails")); }

    /// Clicks a link of the details pane, after checking the pane shows it.
    void clickLink(Link::Kind kind, int node)
    {
        const QUrl url = ps::ui::GraphDetailsFormatter::link(kind, node);
        const QString href = "href=\"" + url.toString() + "\"";
        ASSERT_TRUE(details()->toHtml().contains(href)) << href.toStdString() << " not in the pane";
        emit details()->anchorClicked(url);
    }

    bool inView(int node) const
    {
        auto* canvas = view.canvas();
        return canvas->mapToScene(canvas->viewport()->rect()).boundingRect().contains(view.nodeCenter(node));
    }

    TempDir dir;
    QString script;
    std::shared_ptr<ps::graph::GraphModel> model;
    ps::ui::GraphView view;
};

TEST_F(UiGraphNavigation, UpAndDownWalkInputsAndUsersAsAClickWould)
{
    QSignalSpy selected(&view, &ps::ui::GraphView::nodesSelected);
    view.selectNodes({kAddmm}, false);
    using Nodes = QList<int>;

    key(Qt::Key_Up);  // the first input: addmm's bias
    EXPECT_EQ(view.selectedNodes(), Nodes{kBias});
    EXPECT_TRUE(view.detailsText().contains("model.0.bias")) << view.detailsText().toStdString();
    EXPECT_EQ(selected.last().at(0).value<Nodes>(), Nodes{kBias}) << "a step tells the window, as a click does";
    EXPECT_EQ(view.boxOfNode(kAddmm)->relation(), ps::ui::GraphBoxItem::Relation::Downstream)
        << "what the new selection feeds is marked";

    key(Qt::Key_Down);  // back the way it came
    EXPECT_EQ(view.selectedNodes(), Nodes{kAddmm});
    key(Qt::Key_Up);  // and on to the next input
    EXPECT_EQ(view.selectedNodes(), Nodes{kX});
    key(Qt::Key_Down);
    key(Qt::Key_Up);
    EXPECT_EQ(view.selectedNodes(), Nodes{kT});
    key(Qt::Key_Up);  // up the chain: t reads the weight
    EXPECT_EQ(view.selectedNodes(), Nodes{kWeight});
    key(Qt::Key_Up);  // a placeholder reads nothing: the selection stays
    EXPECT_EQ(view.selectedNodes(), Nodes{kWeight});

    view.selectNodes({kRelu}, false);
    key(Qt::Key_Down);
    EXPECT_EQ(view.selectedNodes(), Nodes{kSum});
    key(Qt::Key_Down);
    EXPECT_EQ(view.selectedNodes(), Nodes{kOutput});
    key(Qt::Key_Down);
    EXPECT_EQ(view.selectedNodes(), Nodes{kOutput});
    EXPECT_TRUE(view.detailsText().contains("output"));
}

TEST_F(UiGraphNavigation, LeftAndRightMoveAlongTheRowAndScrollIntoView)
{
    // The boxes of one row, left to right (a layer shares its top edge).
    std::map<qreal, std::vector<std::pair<qreal, int>>> rows;
    for (int n = 0; n < static_cast<int>(model->nodes().size()); ++n) {
        const QRectF r = view.boxOfNode(n)->rect();
        rows[r.top()].push_back({r.left(), n});
    }
    std::vector<std::pair<qreal, int>> row;
    for (auto& [top, boxes] : rows)
        if (boxes.size() > row.size())
            row = boxes;
    ASSERT_GE(row.size(), 2u) << "some layer holds two boxes";
    std::sort(row.begin(), row.end());

    view.canvas()->setZoom(3.0);  // far more than fits: stepping must scroll
    view.selectNodes({row.front().second}, false);
    for (std::size_t k = 1; k < row.size(); ++k) {
        view.canvas()->centerOn(view.nodeCenter(kOutput));
        key(Qt::Key_Right);
        ASSERT_EQ(view.selectedNodes(), QList<int>{row[k].second}) << "step " << k;
        EXPECT_TRUE(inView(row[k].second)) << "the new selection is scrolled into view";
    }
    key(Qt::Key_Right);  // the row's end: nothing further right
    EXPECT_EQ(view.selectedNodes(), QList<int>{row.back().second});
    key(Qt::Key_Left);
    EXPECT_EQ(view.selectedNodes(), QList<int>{row[row.size() - 2].second});
}

TEST_F(UiGraphNavigation, ArrowsPanWithNothingSelectedOrWithCtrl)
{
    view.canvas()->setZoom(3.0);
    view.canvas()->centerOn(view.nodeCenter(kAddmm));
    auto* bar = view.canvas()->verticalScrollBar();
    ASSERT_GT(bar->maximum(), 0);
    view.selectNodes({}, false);
    int before = bar->value();
    key(Qt::Key_Down);
    EXPECT_GT(bar->value(), before) << "nothing selected: Down pans";
    EXPECT_TRUE(view.selectedNodes().isEmpty());

    view.selectNodes({kAddmm}, false);
    before = bar->value();
    key(Qt::Key_Up, Qt::ControlModifier);
    EXPECT_LT(bar->value(), before) << "Ctrl+Up pans";
    EXPECT_EQ(view.selectedNodes(), QList<int>{kAddmm}) << "and leaves the selection";
}

TEST_F(UiGraphNavigation, DetailsNameInputsAsTheBoxesDoAndLinkThem)
{
    view.selectNodes({kAddmm}, false);
    const QString text = view.detailsText();
    EXPECT_TRUE(text.contains("model.0.bias, x, t")) << text.toStdString();
    EXPECT_FALSE(text.contains("flat_")) << "node names of placeholders are not what the boxes show";
    auto* box = static_cast<ps::ui::NodeItem*>(view.boxOfNode(kBias));
    ASSERT_EQ(box->type(), ps::ui::NodeItem::Type);
    EXPECT_EQ(ps::ui::GraphDetailsFormatter::title(*box->data()), QStringLiteral("model.0.bias"));

    clickLink(Link::Node, kBias);  // an input
    EXPECT_EQ(view.selectedNodes(), QList<int>{kBias});
    EXPECT_TRUE(view.detailsText().contains("flat_2")) << "its own pane still says the node's name";
    clickLink(Link::Node, kAddmm);  // a user
    EXPECT_EQ(view.selectedNodes(), QList<int>{kAddmm});

    clickLink(Link::Kernel, kAddmm);  // every node the kernel computes
    EXPECT_EQ(view.selectedNodes(), (QList<int>{kAddmm, kRelu}));

    view.selectNodes({kAddmm}, false);
    QSignalSpy location(&view, &ps::ui::GraphView::locationActivated);
    clickLink(Link::Source, kAddmm);
    ASSERT_EQ(location.count(), 1);
    EXPECT_EQ(location.at(0).at(0).toString(), script);
    EXPECT_EQ(location.at(0).at(1).toInt(), 5);
}

TEST_F(UiGraphNavigation, AnInputLinkOpensTheModuleHidingIt)
{
    ASSERT_TRUE(shown([this]() { view.collapseModule("model.0"); }));
    ASSERT_EQ(view.boxOfNode(kAddmm)->type(), ps::ui::ModuleItem::Type);
    view.selectNodes({kRelu}, false);
    ASSERT_TRUE(view.detailsText().contains("addmm"));
    ASSERT_TRUE(shown([this]() { clickLink(Link::Node, kAddmm); }));
    ASSERT_TRUE(waitFor([&]() { return view.selectedNodes() == QList<int>{kAddmm}; }, 5000));
    EXPECT_EQ(view.boxOfNode(kAddmm)->type(), ps::ui::NodeItem::Type);
    EXPECT_TRUE(view.isExpanded("model.0"));
}

TEST_F(UiGraphNavigation, TheModuleTreesTicksExpandAndCollapse)
{
    auto* tree = view.moduleTreeModel();
    ASSERT_NE(tree, nullptr);
    // model > 0 (the Linear), 1 (the ReLU): found by walking the rows, as a view does.
    ASSERT_EQ(tree->rowCount(), 1);
    const QModelIndex top = tree->index(0, 0);
    EXPECT_EQ(top.data(ps::ui::ModuleTreeModel::PathRole).toString(), "model");
    ASSERT_EQ(tree->rowCount(top), 2);
    const QModelIndex linear = tree->index(0, 0, top);
    EXPECT_EQ(linear.data(ps::ui::ModuleTreeModel::PathRole).toString(), "model.0");
    EXPECT_EQ(tree->parent(linear), top);
    const int id = tree->moduleAt(linear);
    EXPECT_EQ(id, view.moduleTree()->find("model.0"));
    EXPECT_EQ(linear.data(Qt::DisplayRole).toString(), "0");
    EXPECT_EQ(linear.siblingAtColumn(ps::ui::ModuleTreeModel::TypeColumn).data().toString(), "Linear");
    EXPECT_EQ(linear.siblingAtColumn(ps::ui::ModuleTreeModel::NodesColumn).data().toInt(),
        view.moduleTree()->module(id).total);
    EXPECT_EQ(linear.data(Qt::CheckStateRole).value<Qt::CheckState>(), Qt::Checked);

    ASSERT_TRUE(shown([&]() { tree->setData(linear, Qt::Unchecked, Qt::CheckStateRole); }));
    EXPECT_FALSE(view.isExpanded("model.0"));
    EXPECT_EQ(view.boxOfNode(kAddmm)->type(), ps::ui::ModuleItem::Type);
    EXPECT_EQ(linear.data(Qt::CheckStateRole).value<Qt::CheckState>(), Qt::Unchecked);

    ASSERT_TRUE(shown([&]() { tree->setData(linear, Qt::Checked, Qt::CheckStateRole); }));
    EXPECT_TRUE(view.isExpanded("model.0"));
    EXPECT_EQ(view.boxOfNode(kAddmm)->type(), ps::ui::NodeItem::Type);
    EXPECT_EQ(linear.data(Qt::CheckStateRole).value<Qt::CheckState>(), Qt::Checked);

    // Collapsed from the canvas: the tick follows.
    ASSERT_TRUE(shown([&]() { view.collapseAll(); }));
    EXPECT_EQ(linear.data(Qt::CheckStateRole).value<Qt::CheckState>(), Qt::Unchecked);
}

TEST(UiGraphNavigationWindow, ASourceLineLinkGoesToTheScriptLine)
{
    QSettings().clear();
    TempDir dir;
    const QString script = dir.write("model.py", kNavigationScript);
    {
        ps::ui::RunStore store(dir.file("library.sqlite3"));
        QString error;
        auto run = syntheticRun(script.toStdString(), smallGraph(script.toStdString()));
        ASSERT_EQ(store.insert(run, &error), 1) << error.toStdString();
    }
    ps::ui::MainWindow window(windowOptions(dir, /*prewarm=*/false));
    window.show();
    ASSERT_TRUE(QTest::qWaitForWindowExposed(&window));
    ASSERT_TRUE(window.openStoredRun(1));
    auto* graph = window.report()->graphView();
    window.report()->tabs()->setCurrentIndex(ps::ui::ReportView::GraphTab);
    ASSERT_TRUE(waitFor([&]() { return graph->moduleTree() && !graph->layoutPending(); }, 10000));
    graph->selectNodes({kAddmm}, false);
    auto* editor = window.editor();
    editor->setCursorPosition(0, 0);
    auto* pane = graph->findChild<QTextBrowser*>(QStringLiteral("graphDetails"));
    ASSERT_NE(pane, nullptr);
    emit pane->anchorClicked(ps::ui::GraphDetailsFormatter::link(Link::Source, kAddmm));
    int line = -1, index = -1;
    editor->getCursorPosition(&line, &index);
    EXPECT_EQ(line + 1, 5) << "the editor's cursor is on the node's line";
    EXPECT_EQ(editor->highlightedLines(), QList<int>{5});
}

}  // namespace
