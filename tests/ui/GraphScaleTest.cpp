// The Graph tab on a graph too big to show whole: it opens collapsed by module, expands and
// collapses, search opens what hides a match, lenses recolour, a module box stands for its
// nodes in a selection, the visible graph exports to SVG and PNG, and layouts are kept in the
// library.
#include "UiTestSupport.h"

#include "SyntheticGraph.h"

#include "graph/GraphModel.h"
#include "graph/LayoutCache.h"
#include "graph/ModuleTree.h"
#include "ui/editor/ScriptEditor.h"
#include "ui/graph/GraphBoxItem.h"
#include "ui/graph/GraphCanvas.h"
#include "ui/graph/GraphView.h"
#include "ui/graph/ModuleItem.h"
#include "ui/graph/NodeItem.h"
#include "ui/library/RunStore.h"
#include "ui/report/ReportView.h"
#include "ui/window/MainWindow.h"

#include <QFile>
#include <QImage>
#include <QLineEdit>
#include <QSignalSpy>
#include <QSvgRenderer>
#include <QTabWidget>
#include <QTest>
#include <QXmlStreamReader>

#include <gtest/gtest.h>

#include <atomic>
#include <map>
#include <set>

using namespace ps::uitest;

namespace {

/// Counts what a layout cache is asked, passing every call on.
struct CountingCache : ps::graph::LayoutCache {
    explicit CountingCache(std::shared_ptr<ps::graph::LayoutCache> cache) : inner(std::move(cache)) { }
    std::optional<std::string> load(const std::string& key) override
    {
        auto bytes = inner->load(key);
        if (bytes)
            ++hits;
        return bytes;
    }
    void store(const std::string& key, const std::string& bytes) override
    {
        inner->store(key, bytes);
        ++stores;
    }
    std::shared_ptr<ps::graph::LayoutCache> inner;
    std::atomic<int> hits{0}, stores{0};
};

class UiGraphScale : public ::testing::Test {
protected:
    void SetUp() override
    {
        model = std::make_shared<ps::graph::GraphModel>(
            ps::graph::GraphModel::fromJson(ps::graphtest::transformerGraph(3000, 2)));
        view.resize(1200, 800);
        view.show();
        ASSERT_TRUE(QTest::qWaitForWindowExposed(&view));
    }

    /// Runs `request` and waits for the layout it starts to be shown.
    bool shown(const std::function<void()>& request)
    {
        QSignalSpy spy(&view, &ps::ui::GraphView::graphShown);
        request();
        return waitFor([&]() { return spy.count() > 0 && !view.layoutPending(); }, 60000);
    }

    bool open()
    {
        return shown([this]() { view.setGraph(model); });
    }

    /// The collapsed module of the model holding the most nodes (not a phase group or the
    /// gradient bundle), or -1.
    int largestCollapsed() const
    {
        const auto* tree = view.moduleTree();
        int best = -1;
        for (int m = 1; m < static_cast<int>(tree->modules().size()); ++m)
            if (tree->module(m).role == ps::graph::Module::Role::Model && !view.isExpanded(path(m))
                && (best < 0 || tree->module(m).total > tree->module(best).total))
                best = m;
        return best;
    }

    /// Stores run 1: 3,000 nodes whose source lines are lines of a script on disk; returns it.
    QString storeBigRun()
    {
        QByteArray text;
        for (int i = 1; i <= 130; ++i)
            text += "x = " + QByteArray::number(i) + "\n";
        const QString script = dir.write("model.py", text);
        nlohmann::json g = ps::graphtest::transformerGraph(3000, 2);
        for (auto& n : g["node_list"])
            if (n["source"].is_object())
                n["source"]["file"] = script.toStdString();
        ps::ui::RunStore store(dir.file("library.sqlite3"));
        QString error;
        EXPECT_GT(store.insert(syntheticRun(script.toStdString(), g), &error), 0) << error.toStdString();
        return script;
    }

    /// Shows the window with stored run 1 on its Graph tab, laid out.
    void showStoredRun(ps::ui::MainWindow& window, ps::ui::GraphView*& graph)
    {
        window.show();
        ASSERT_TRUE(QTest::qWaitForWindowExposed(&window));
        ASSERT_TRUE(window.openStoredRun(1));
        graph = window.report()->graphView();
        window.report()->tabs()->setCurrentIndex(ps::ui::ReportView::GraphTab);
        ASSERT_TRUE(waitFor([&]() { return graph->moduleTree() && !graph->layoutPending(); }, 60000));
    }

    QString path(int module) const { return QString::fromStdString(view.moduleTree()->module(module).path); }

    TempDir dir;
    std::shared_ptr<ps::graph::GraphModel> model;
    ps::ui::GraphView view;
};

TEST_F(UiGraphScale, OpensCollapsedThenExpandsAndCollapsesAModule)
{
    ASSERT_GE(model->nodes().size(), 3000u);
    ASSERT_TRUE(open());
    const int opening = view.visibleItemCount();
    EXPECT_GT(opening, 0);
    EXPECT_LT(opening, 200) << "a 3,000-node graph must open collapsed, not whole";
    EXPECT_GT(view.visibleModuleCount(), 0);

    const int m = largestCollapsed();
    ASSERT_GT(m, 0);
    const QString p = path(m);
    auto* box = view.boxOfNode(view.moduleTree()->nodesIn(m).front());
    ASSERT_NE(box, nullptr);
    EXPECT_EQ(box->type(), ps::ui::ModuleItem::Type);

    ASSERT_TRUE(shown([&]() { view.expandModule(p); }));
    EXPECT_TRUE(view.isExpanded(p));
    const int expanded = view.visibleItemCount();
    EXPECT_GT(expanded, opening);

    ASSERT_TRUE(shown([&]() { view.collapseModule(p); }));
    EXPECT_FALSE(view.isExpanded(p));
    EXPECT_EQ(view.visibleItemCount(), opening);

    ASSERT_TRUE(shown([&]() { view.expandAll(); }));
    EXPECT_EQ(view.visibleModuleCount(), 0);
    EXPECT_EQ(view.visibleItemCount(), static_cast<int>(model->nodes().size()));
    ASSERT_TRUE(shown([&]() { view.collapseAll(); }));
    EXPECT_LT(view.visibleItemCount(), opening + 1);
}

TEST_F(UiGraphScale, TwoQuickExpansionsBothCount)
{
    ASSERT_TRUE(open());
    const auto* tree = view.moduleTree();
    std::vector<QString> collapsed;
    for (int m = 1; m < static_cast<int>(tree->modules().size()) && collapsed.size() < 2; ++m)
        if (!view.isExpanded(path(m)) && tree->module(m).total > 1
            && (collapsed.empty() || !tree->contains(tree->find(collapsed[0].toStdString()), m)))
            collapsed.push_back(path(m));
    ASSERT_EQ(collapsed.size(), 2u);
    // The second click comes before the first one's layout is shown.
    QSignalSpy spy(&view, &ps::ui::GraphView::graphShown);
    view.expandModule(collapsed[0]);
    ASSERT_TRUE(view.layoutPending());
    view.expandModule(collapsed[1]);
    ASSERT_TRUE(waitFor([&]() { return spy.count() > 0 && !view.layoutPending(); }, 60000));
    EXPECT_TRUE(view.isExpanded(collapsed[0])) << collapsed[0].toStdString();
    EXPECT_TRUE(view.isExpanded(collapsed[1])) << collapsed[1].toStdString();
}

TEST_F(UiGraphScale, DoubleClickOnAModuleBoxExpandsIt)
{
    ASSERT_TRUE(open());
    const int m = largestCollapsed();
    ASSERT_GT(m, 0);
    const int node = view.moduleTree()->nodesIn(m).front();
    const QPointF scene = view.nodeCenter(node);
    view.canvas()->centerOn(scene);
    QSignalSpy spy(&view, &ps::ui::GraphView::graphShown);
    QTest::mouseDClick(view.canvas()->viewport(), Qt::LeftButton, {}, view.canvas()->mapFromScene(scene));
    ASSERT_TRUE(waitFor([&]() { return spy.count() > 0 && !view.layoutPending(); }, 60000));
    EXPECT_TRUE(view.isExpanded(path(m)));
}

TEST_F(UiGraphScale, ClickingAModuleBoxSelectsEveryNodeInIt)
{
    ASSERT_TRUE(open());
    const int m = largestCollapsed();
    ASSERT_GT(m, 0);
    const auto nodes = view.moduleTree()->nodesIn(m);
    const QPointF scene = view.nodeCenter(nodes.front());
    view.canvas()->centerOn(scene);
    QSignalSpy spy(&view, &ps::ui::GraphView::nodesSelected);
    QTest::mouseClick(view.canvas()->viewport(), Qt::LeftButton, {}, view.canvas()->mapFromScene(scene));
    ASSERT_TRUE(waitFor([&]() { return spy.count() > 0; }, 5000));
    QList<int> got = spy.last().at(0).value<QList<int>>();
    std::sort(got.begin(), got.end());
    EXPECT_EQ(std::vector<int>(got.begin(), got.end()), nodes);
}

TEST_F(UiGraphScale, SearchFindsAHiddenNodeOpensItsModuleAndSelectsIt)
{
    ASSERT_TRUE(open());
    // A backward layer-norm deep in a block: hidden in a collapsed module at the opening.
    int target = -1;
    for (int i = static_cast<int>(model->nodes().size()) - 1; i >= 0; --i)
        if (model->nodes()[i].target == "aten.native_layer_norm_backward.default") {
            target = i;
            break;
        }
    ASSERT_GE(target, 0);
    ASSERT_EQ(view.boxOfNode(target)->type(), ps::ui::ModuleItem::Type);
    const QString name = QString::fromStdString(model->nodes()[target].name);

    // Typed into the search box, Enter at once: the first match is shown.
    auto* box0 = view.findChild<QLineEdit*>(QStringLiteral("graphSearch"));
    ASSERT_NE(box0, nullptr);
    ASSERT_TRUE(shown([&]() {
        QTest::keyClicks(box0, name);
        QTest::keyClick(box0, Qt::Key_Return);
    }));
    EXPECT_EQ(view.matchCount(), 1);
    EXPECT_EQ(view.currentMatchNode(), target);
    ASSERT_TRUE(waitFor([&]() { return view.selectedNodes() == QList<int>{target}; }, 5000));
    auto* box = view.boxOfNode(target);
    ASSERT_NE(box, nullptr);
    EXPECT_EQ(box->type(), ps::ui::NodeItem::Type) << "the node's own box is shown, not its module's";

    // By op: every backward layer norm, walked with next and previous.
    view.setSearch(QStringLiteral("native_layer_norm_backward"), ps::graph::SearchField::Op);
    EXPECT_EQ(view.currentMatch(), -1) << "setting the search moves nothing";
    view.findNext();
    ASSERT_TRUE(waitFor([&]() { return !view.layoutPending(); }, 60000));
    const int count = view.matchCount();
    EXPECT_GE(count, 4);
    const int first = view.currentMatchNode();
    view.findNext();
    ASSERT_TRUE(waitFor([&]() { return !view.layoutPending(); }, 60000));
    EXPECT_NE(view.currentMatchNode(), first);
    view.findPrevious();
    ASSERT_TRUE(waitFor([&]() { return !view.layoutPending(); }, 60000));
    EXPECT_EQ(view.currentMatchNode(), first);

    view.setSearch(QStringLiteral("no such thing anywhere"), ps::graph::SearchField::Any);
    EXPECT_EQ(view.matchCount(), 0);
}

TEST_F(UiGraphScale, LensesRecolourAndSayWhatTheColoursMean)
{
    ASSERT_TRUE(open());
    ASSERT_TRUE(shown([&]() { view.expandAll(); }));
    view.setLens(ps::graph::Lens::Kind);
    const QStringList kinds = view.legend();
    ASSERT_FALSE(kinds.isEmpty());
    EXPECT_TRUE(kinds.join(' ').contains("parameter")) << kinds.join(", ").toStdString();
    EXPECT_TRUE(kinds.join(' ').contains("backward")) << kinds.join(", ").toStdString();
    view.setLens(ps::graph::Lens::OpKind);
    const QStringList ops = view.legend();
    EXPECT_NE(ops, kinds);
    EXPECT_TRUE(ops.join(' ').contains("matmul")) << ops.join(", ").toStdString();
    view.setLens(ps::graph::Lens::DtypeLayout);
    EXPECT_TRUE(view.legend().join(' ').contains("dtype change")) << view.legend().join(", ").toStdString();
}

TEST_F(UiGraphScale, ExportsTheVisibleGraphAsValidSvgAndPng)
{
    ASSERT_TRUE(open());
    const QString svg = dir.file("graph.svg");
    QString error;
    ASSERT_TRUE(view.exportSvg(svg, &error)) << error.toStdString();
    QSvgRenderer renderer(svg);
    EXPECT_TRUE(renderer.isValid());
    EXPECT_GT(renderer.defaultSize().width(), 100);
    QFile f(svg);
    ASSERT_TRUE(f.open(QIODevice::ReadOnly));
    QXmlStreamReader xml(&f);
    bool sawSvg = false, sawLabel = false;
    // The largest collapsed forward module's box label, "▸ NAME · TYPE" ("▸ 0 · Block"), of
    // the boxes shown (its parent expanded).
    const auto* tree = view.moduleTree();
    int box = -1;
    for (int m = 1; m < static_cast<int>(tree->modules().size()); ++m)
        if (tree->module(m).role == ps::graph::Module::Role::Model
            && tree->module(m).phase != ps::graph::Phase::Backward && !view.isExpanded(path(m))
            && view.isExpanded(path(tree->module(m).parent))
            && (box < 0 || tree->module(m).total > tree->module(box).total))
            box = m;
    ASSERT_GT(box, 0);
    const auto& largest = tree->module(box);
    const QString label
        = QString::fromStdString(largest.type.empty() ? largest.name : largest.name + " · " + largest.type);
    while (!xml.atEnd()) {
        xml.readNext();
        if (xml.isStartElement() && xml.name() == QLatin1String("svg"))
            sawSvg = true;
        if (xml.isCharacters() && xml.text().contains(label))
            sawLabel = true;
    }
    EXPECT_FALSE(xml.hasError()) << xml.errorString().toStdString();
    EXPECT_TRUE(sawSvg);
    EXPECT_TRUE(sawLabel) << "the export draws labels whatever the zoom: " << label.toStdString();

    const QString png = dir.file("graph.png");
    ASSERT_TRUE(view.exportPng(png, &error)) << error.toStdString();
    QImage image(png);
    EXPECT_FALSE(image.isNull());
    EXPECT_GT(image.width(), 100);

    EXPECT_FALSE(view.exportSvg(dir.file("missing-folder/graph.svg"), &error));
    EXPECT_TRUE(error.contains("missing-folder")) << error.toStdString();
}

TEST_F(UiGraphScale, ABigLayoutIsKeptInTheLibraryAndReused)
{
    const QString library = dir.file("library.sqlite3");
    auto first = std::make_shared<CountingCache>(ps::ui::RunStore(library).layoutCache());
    ASSERT_NE(first->inner, nullptr);
    view.setLayoutCache(first);
    ASSERT_TRUE(open());
    ASSERT_TRUE(shown([&]() { view.expandAll(); }));  // 3,000 boxes: worth keeping
    ASSERT_TRUE(waitFor([&]() { return first->stores > 0; }, 10000)) << "the layout thread stores what it laid out";
    const int probe = static_cast<int>(model->nodes().size()) / 2;
    const QPointF placed = view.nodeCenter(probe);

    // Another view, as after a restart: same graph, a fresh connection to the same library.
    ps::ui::GraphView again;
    again.resize(1200, 800);
    auto second = std::make_shared<CountingCache>(ps::ui::RunStore(library).layoutCache());
    again.setLayoutCache(second);
    auto reopened = std::make_shared<ps::graph::GraphModel>(
        ps::graph::GraphModel::fromJson(ps::graphtest::transformerGraph(3000, 2)));
    QSignalSpy opened(&again, &ps::ui::GraphView::graphShown);
    again.setGraph(reopened);
    ASSERT_TRUE(waitFor([&]() { return opened.count() > 0 && !again.layoutPending(); }, 60000));
    QSignalSpy all(&again, &ps::ui::GraphView::graphShown);
    again.expandAll();
    ASSERT_TRUE(waitFor([&]() { return all.count() > 0 && !again.layoutPending(); }, 60000));
    EXPECT_GE(second->hits, 1) << "the expanded layout came from the library";
    EXPECT_EQ(again.nodeCenter(probe), placed);
}

TEST_F(UiGraphScale, BadgesMarkParametersInputsResultsAndGradients)
{
    ASSERT_TRUE(open());
    ASSERT_TRUE(shown([&]() { view.expandAll(); }));
    std::map<std::string, QString> badgeByKind;
    int grads = 0, results = 0;
    for (int i = 0; i < static_cast<int>(model->nodes().size()); ++i) {
        auto* item = view.boxOfNode(i);
        ASSERT_NE(item, nullptr);
        ASSERT_EQ(item->type(), ps::ui::NodeItem::Type);
        const QString badge = static_cast<ps::ui::NodeItem*>(item)->badge();
        const auto& n = model->nodes()[i];
        if (n.kind == ps::graph::NodeKind::Parameter || n.kind == ps::graph::NodeKind::Input)
            badgeByKind[std::string(toString(n.kind))] = badge;
        grads += badge == QStringLiteral("→ grad");
        results += badge == QStringLiteral("→ result");
    }
    EXPECT_EQ(badgeByKind["parameter"], "param");
    EXPECT_EQ(badgeByKind["input"], "input");
    EXPECT_EQ(results, 1);  // the loss
    EXPECT_GT(grads, 10);   // a gradient per parameter
}

TEST_F(UiGraphScale, ASelectionMarksWhatItReadsAndFeedsNLevelsDeep)
{
    ASSERT_TRUE(open());
    ASSERT_TRUE(shown([&]() { view.expandAll(); }));
    // A chain through the middle of the graph: a <- b <- c (b reads a, c reads b).
    int b = -1;
    for (int i = 0; i < static_cast<int>(model->nodes().size()); ++i)
        if (model->nodes()[i].target == "aten._softmax.default") {
            b = i;
            break;
        }
    ASSERT_GE(b, 0);
    const int a = model->nodes()[b].inputs.front();       // the div before it
    const int before = model->nodes()[a].inputs.front();  // two levels up
    int c = -1;
    for (int i = b + 1; i < static_cast<int>(model->nodes().size()) && c < 0; ++i)
        for (int in : model->nodes()[i].inputs)
            if (in == b)
                c = i;
    ASSERT_GE(c, 0);
    using R = ps::ui::GraphBoxItem::Relation;

    view.setNeighbourDepth(1);
    view.selectNodes({b}, false);
    EXPECT_EQ(view.boxOfNode(a)->relation(), R::Upstream);
    EXPECT_EQ(view.boxOfNode(c)->relation(), R::Downstream);
    EXPECT_EQ(view.boxOfNode(before)->relation(), R::None);

    view.setNeighbourDepth(2);
    EXPECT_EQ(view.boxOfNode(before)->relation(), R::Upstream);

    view.setNeighbourDepth(0);
    EXPECT_EQ(view.boxOfNode(a)->relation(), R::None);
}

TEST_F(UiGraphScale, CrossLinksWorkAtEveryLevelOfCollapse)
{
    const QString script = storeBigRun();
    ps::ui::MainWindow window(windowOptions(dir, /*prewarm=*/false));
    ps::ui::GraphView* graph = nullptr;
    ASSERT_NO_FATAL_FAILURE(showStoredRun(window, graph));
    const auto current = window.report()->currentGraph();

    // A module box clicked: every line of every node in it is marked in the script.
    const auto* tree = graph->moduleTree();
    int m = -1;
    for (int k = 1; k < static_cast<int>(tree->modules().size()); ++k)
        if (!graph->isExpanded(QString::fromStdString(tree->module(k).path)) && tree->module(k).total > 50) {
            m = k;
            break;
        }
    ASSERT_GT(m, 0);
    std::set<int> lines;
    for (int n : tree->nodesIn(m))
        if (current->nodes()[n].sourceLine > 0)
            lines.insert(current->nodes()[n].sourceLine);
    const QPointF scene = graph->nodeCenter(tree->nodesIn(m).front());
    graph->canvas()->centerOn(scene);
    QTest::mouseClick(graph->canvas()->viewport(), Qt::LeftButton, {}, graph->canvas()->mapFromScene(scene));
    QList<int> marked = window.editor()->highlightedLines();
    std::sort(marked.begin(), marked.end());
    EXPECT_EQ(std::set<int>(marked.begin(), marked.end()), lines);

    // A script line whose nodes are hidden in collapsed modules: they open, and it selects them.
    const int line = current->nodes()[tree->nodesIn(m).back()].sourceLine;
    ASSERT_GT(line, 0);
    const auto expected = current->nodesAtLine(script.toStdString(), line);
    ASSERT_FALSE(expected.empty());
    auto* editor = window.editor();
    editor->setFirstVisibleLine(std::max(0, line - 5));
    QTest::mouseClick(editor->viewport(), Qt::LeftButton, {}, QPoint(150, editor->lineCenterY(line)));
    ASSERT_TRUE(waitFor([&]() { return !graph->layoutPending() && !graph->selectedNodes().isEmpty(); }, 60000));
    QList<int> selected = graph->selectedNodes();
    std::sort(selected.begin(), selected.end());
    EXPECT_EQ(std::vector<int>(selected.begin(), selected.end()), expected);
    for (int n : expected)
        EXPECT_EQ(graph->boxOfNode(n)->type(), ps::ui::NodeItem::Type) << "node " << n << " is still hidden";
}

TEST_F(UiGraphScale, FindKeysSearchTheGraphWhenItHasTheFocus)
{
    storeBigRun();
    ps::ui::MainWindow window(windowOptions(dir, /*prewarm=*/false));
    ps::ui::GraphView* graph = nullptr;
    ASSERT_NO_FATAL_FAILURE(showStoredRun(window, graph));
    graph->canvas()->setFocus();
    ASSERT_TRUE(waitFor([&]() { return graph->canvas()->hasFocus(); }, 2000));

    QTest::keyClick(&window, Qt::Key_F, Qt::ControlModifier);
    auto* search = graph->findChild<QLineEdit*>(QStringLiteral("graphSearch"));
    ASSERT_NE(search, nullptr);
    ASSERT_TRUE(waitFor([&]() { return search->hasFocus(); }, 2000)) << "Ctrl+F goes to the graph's search box";
    QTest::keyClicks(search, QStringLiteral("native_layer_norm_backward"));
    QTest::keyClick(search, Qt::Key_Return);
    ASSERT_TRUE(waitFor([&]() { return !graph->layoutPending() && graph->currentMatch() == 0; }, 60000));
    const int first = graph->currentMatchNode();
    QTest::keyClick(search, Qt::Key_F3);
    ASSERT_TRUE(waitFor([&]() { return !graph->layoutPending() && graph->currentMatch() == 1; }, 60000));
    EXPECT_NE(graph->currentMatchNode(), first);
    EXPECT_EQ(graph->selectedNodes(), QList<int>{graph->currentMatchNode()});
    QTest::keyClick(search, Qt::Key_F3, Qt::ShiftModifier);
    ASSERT_TRUE(waitFor([&]() { return !graph->layoutPending() && graph->currentMatch() == 0; }, 60000));
    EXPECT_EQ(graph->currentMatchNode(), first);
}

}  // namespace
