// The Compare view: two runs side by side (engine/compare's RunDiff), the verdict and why on
// top, the graphs coloured and their selections synchronised, python_code by section, and the
// library's "Compare Two Runs" action that opens it.
#include "CompareUiSupport.h"
#include "ui/common/FocusFrame.h"
#include "ui/common/WindowPlacement.h"
#include "ui/graph/GraphCanvas.h"
#include <QPointer>
#include <QScreen>

#include <gtest/gtest.h>

using namespace ps::uitest;
using namespace ps::uitest::compareui;

TEST(UiCompareView, TheVerdictComesFirstThenWhyNumbered)
{
    const auto view = shown(side("run #1", {{8}, {2}}), side("run #2", {{8}, {2}}, "inductor"));
    EXPECT_TRUE(view->windowTitle().startsWith("Compare run #1 and run #2")) << view->windowTitle().toStdString();
    const auto* verdict = view->findChild<QLabel*>("compareVerdict");
    ASSERT_TRUE(verdict);
    EXPECT_TRUE(verdict->text().startsWith("Differ")) << verdict->text().toStdString();
    const auto* why = view->findChild<QLabel*>("compareWhy");
    ASSERT_TRUE(why);
    EXPECT_TRUE(why->isVisible());
    EXPECT_TRUE(why->text().contains("1. options changed: backend eager -> inductor")) << why->text().toStdString();
    // The same graph lowered differently: the window opens on the code.
    EXPECT_EQ(view->tabs()->currentIndex(), CompareView::CodeTab);
    // The Cache tab highlights the envelope field that differs.
    EXPECT_TRUE(view->tablePane()->rows("Cache").contains("*backend: eager | inductor"))
        << view->tablePane()->rows("Cache").join('\n').toStdString();

    const auto same = shown(side("run #1", {{8}, {2}}), side("run #3", {{8}, {2}}));
    EXPECT_TRUE(same->findChild<QLabel*>("compareVerdict")->text().startsWith("Equivalent"));
    EXPECT_FALSE(same->findChild<QLabel*>("compareWhy")->isVisible());
    EXPECT_EQ(same->tabs()->currentIndex(), CompareView::GraphTab);
    // Nothing differs: every box plain, not the lens colours (green parameters read as added).
    ps::ui::GraphView* g = same->graphPane()->view(1);
    QSet<QRgb> fills;
    for (int n = 0; n < static_cast<int>(g->graph()->nodes().size()); ++n)
        if (g->boxOfNode(n))
            fills.insert(g->boxFill(n).rgba());
    EXPECT_EQ(fills.size(), 1);
}

TEST(UiCompareView, AnAddedLayerIsGreenOnBAndMatchedNodesStayPlain)
{
    const auto view = shown(side("run #1", {{8}, {2}}), side("run #2", {{8}, {8}, {2}}));
    const auto& graph = view->diff().captures().at(0).graph;
    ASSERT_FALSE(graph.added().empty());
    EXPECT_TRUE(graph.removed().empty());
    ps::ui::GraphView* b = view->graphPane()->view(1);
    ps::ui::GraphView* a = view->graphPane()->view(0);
    for (int n : graph.added()) {
        // the box showing it (its own, or a collapsed module's made only of added nodes)
        b->selectNodes({n}, true);
        ASSERT_TRUE(waitFor([&]() { return !b->layoutPending(); }, 20000));
        EXPECT_EQ(b->boxFill(n), ps::ui::DiffColours::added()) << n;
    }
    // The input x, matched and unchanged, is plain.
    int plain = -1;
    for (const auto& [i, j] : graph.matched())
        if (a->graph()->nodes()[static_cast<std::size_t>(i)].kind == ps::graph::NodeKind::Input)
            plain = i;
    ASSERT_GE(plain, 0);
    a->selectNodes({plain}, true);
    ASSERT_TRUE(waitFor([&]() { return !a->layoutPending(); }, 20000));
    EXPECT_FALSE(isDiffColour(a->boxFill(plain))) << a->boxFill(plain).name().toStdString();
    EXPECT_TRUE(view->graphPane()->summary().contains("Added")) << view->graphPane()->summary().toStdString();
}

TEST(UiCompareView, SelectingANodeOnASelectsItsMatchOnB)
{
    const auto view = shown(side("run #1", {{8}, {2}}), side("run #2", {{8}, {8}, {2}}));
    const auto& graph = view->diff().captures().at(0).graph;
    ps::ui::GraphView* a = view->graphPane()->view(0);
    ps::ui::GraphView* b = view->graphPane()->view(1);
    // The last addmm of A (the output layer) matches B's last addmm, past the inserted layer.
    int nodeA = -1, nodeB = -1;
    for (const auto& [i, j] : graph.matched())
        if (a->graph()->nodes()[static_cast<std::size_t>(i)].target == "aten.addmm.default") {
            nodeA = i;
            nodeB = j;
        }
    ASSERT_GE(nodeA, 0);
    EXPECT_EQ(view->graphPane()->matchOf(0, nodeA), nodeB);
    a->selectNodes({nodeA}, true);
    ASSERT_TRUE(waitFor([&]() { return b->selectedNodes().contains(nodeB) && !b->layoutPending(); }, 20000))
        << b->selectedNodes().size();
    EXPECT_TRUE(a->selectedNodes().contains(nodeA));  // not echoed back as something else
    // What changed in it is said under the summary: it reads the inserted layer's output.
    const QString detail = view->graphPane()->detail();
    EXPECT_TRUE(detail.contains("(run #1) ↔ ") && detail.contains(" changed: inputs ")) << detail.toStdString();
    // An added node is only in run #2.
    b->selectNodes({graph.added().back()}, true);
    EXPECT_TRUE(view->graphPane()->detail().contains("is only in run #2 (added)"))
        << view->graphPane()->detail().toStdString();
    // ... and back: selecting on B selects on A.
    const auto& first = graph.matched().front();
    b->selectNodes({first.second}, true);
    ASSERT_TRUE(waitFor([&]() { return a->selectedNodes().contains(first.first) && !a->layoutPending(); }, 20000));
    EXPECT_TRUE(view->graphPane()->detail().endsWith("the same on both sides."))
        << view->graphPane()->detail().toStdString();
}

// Keys alone: the side with the keyboard is framed, Enter selects the box in the middle of the
// view and the arrows walk from it, and Escape closes the window.
TEST(UiCompareView, TheKeysAloneSelectNodesOnAFramedSideAndEscapeCloses)
{
    auto view = shown(side("run #1", {{8}, {2}}), side("run #2", {{8}, {8}, {2}}));
    ps::ui::GraphView* a = view->graphPane()->view(0);
    ps::ui::GraphView* b = view->graphPane()->view(1);
    ASSERT_TRUE(waitFor([&]() { return !a->layoutPending() && !b->layoutPending(); }, 20000));
    view->activateWindow();
    a->canvas()->setFocus();
    ASSERT_TRUE(waitFor([&]() { return a->canvas()->hasFocus(); }, 2000));
    auto* frame = view->findChild<ps::ui::FocusFrame*>("compareFocusFrame");
    ASSERT_NE(frame, nullptr);
    EXPECT_TRUE(waitFor([&]() { return frame->isVisible() && frame->target() == a; }, 2000));
    ASSERT_TRUE(a->selectedNodes().isEmpty());
    QTest::keyClick(a->canvas(), Qt::Key_Return);  // nothing selected: the box in the middle
    ASSERT_FALSE(a->selectedNodes().isEmpty()) << "no node selected by a key";
    const QList<int> first = a->selectedNodes();
    QTest::keyClick(a->canvas(), Qt::Key_Down);  // then the arrows walk
    EXPECT_TRUE(waitFor([&]() { return !a->selectedNodes().isEmpty() && a->selectedNodes() != first; }, 5000));
    b->canvas()->setFocus();
    EXPECT_TRUE(waitFor([&]() { return frame->target() == b; }, 2000));
    QPointer<ps::ui::CompareView> alive(view.get());
    QTest::keyClick(b->canvas(), Qt::Key_Escape);
    EXPECT_TRUE(waitFor([&]() { return alive.isNull() || !alive->isVisible(); }, 2000)) << "Escape left Compare open";
}

// A window of its own opens within the screen, its frame included, and centred on it.
TEST(UiWindowPlacement, AWindowOpensWithinTheScreenAndCentred)
{
    QWidget window(nullptr, Qt::Window);
    ps::ui::WindowPlacement::fitAndCentre(&window, QSize(100000, 100000));
    const QRect available = window.screen()->availableGeometry();
    EXPECT_LE(window.height(), available.height() - ps::ui::WindowPlacement::kFrameAllowance);
    EXPECT_LE(window.width(), available.width());
    EXPECT_TRUE(available.contains(window.geometry())) << window.x() << "," << window.y();
    ps::ui::WindowPlacement::fitAndCentre(&window, QSize(300, 200));
    EXPECT_EQ(window.size(), QSize(300, 200));
    EXPECT_LE(std::abs(window.geometry().center().x() - available.center().x()), 2);
}

TEST(UiCompareView, TheCodeTabListsTheChangedSectionAndShowsBothTexts)
{
    const auto view = shown(side("run #1", {{8}, {2}}), side("run #2", {{8}, {8}, {2}}));
    view->tabs()->setCurrentIndex(CompareView::CodeTab);
    QTreeWidget* list = view->codePane()->sectionList();
    ASSERT_EQ(list->topLevelItemCount(), 2);
    EXPECT_EQ(list->topLevelItem(0)->text(0), "Header");
    EXPECT_EQ(list->topLevelItem(0)->text(1), "same");
    EXPECT_EQ(list->topLevelItem(1)->text(0), "Captured graph");
    EXPECT_EQ(list->topLevelItem(1)->text(1), "changed");
    // The first section that differs is shown at once, each side its own slice.
    EXPECT_EQ(list->currentItem(), list->topLevelItem(1));
    ps::ui::SideBySideDiffView* diff = view->codePane()->diffView();
    EXPECT_EQ(diff->editor(0)->text(), "layer(8)\nlayer(2)\n");
    EXPECT_EQ(diff->editor(1)->text(), "layer(8)\nlayer(8)\nlayer(2)\n");
    EXPECT_EQ(diff->markedLines(0), QList<int>());
    EXPECT_EQ(diff->markedLines(1), QList<int>({2}));
    EXPECT_TRUE(diff->title(0)->text().contains("run #1")) << diff->title(0)->text().toStdString();
    // B's extra line faces a blank line on A: layer(2) faces layer(2).
    EXPECT_EQ(diff->spacerLines(0), 1);
    EXPECT_EQ(diff->spacerLines(1), 0);
    EXPECT_EQ(diff->editor(0)->SendScintilla(QsciScintillaBase::SCI_VISIBLEFROMDOCLINE, 1ul),
        diff->editor(1)->SendScintilla(QsciScintillaBase::SCI_VISIBLEFROMDOCLINE, 2ul));
    // Numbered as in the whole python_code: the section starts at its line 3 on both sides.
    EXPECT_EQ(diff->shownLineNumber(0, 1), 3);
    EXPECT_EQ(diff->shownLineNumber(1, 3), 5);
    // The unchanged header, on request.
    list->setCurrentItem(list->topLevelItem(0));
    EXPECT_EQ(diff->editor(0)->text(), "# generated\n# backend eager\n");
    EXPECT_EQ(diff->shownLineNumber(0, 2), 2);
    EXPECT_TRUE(diff->markedLines(1).isEmpty());
}

TEST(UiCompareView, TheLibraryActionNeedsTwoRunsAndOpensTheView)
{
    TempDir dir;
    ps::ui::RunStore store(dir.file("library.sqlite3"));
    ASSERT_TRUE(store.isOpen()) << store.error().toStdString();
    const std::string script = dir.write("alpha.py", "x = 1\n").toStdString();
    std::vector<qint64> ids;
    for (int nodes : {12, 14}) {
        auto run = syntheticRun(script, syntheticGraph(nodes, script, 1), "ok", "alpha");
        run.scriptText = "x = 1\n";
        QString error;
        ids.push_back(store.insert(run, &error));
        ASSERT_GT(ids.back(), 0) << error.toStdString();
    }
    ps::ui::LibraryView lib;
    lib.setStore(&store);
    lib.resize(400, 500);
    lib.show();
    ASSERT_TRUE(QTest::qWaitForWindowExposed(&lib));
    QAction* compare = lib.actions()->compareAction();
    ASSERT_EQ(lib.rowCount(), 2);
    EXPECT_FALSE(compare->isEnabled());
    lib.selectRun(ids[0]);
    EXPECT_FALSE(compare->isEnabled());
    EXPECT_TRUE(compare->toolTip().contains("Select two runs")) << compare->toolTip().toStdString();
    lib.view()->selectionModel()->select(
        lib.view()->model()->index(0, 0), QItemSelectionModel::Select | QItemSelectionModel::Rows);
    lib.view()->selectionModel()->select(
        lib.view()->model()->index(1, 0), QItemSelectionModel::Select | QItemSelectionModel::Rows);
    ASSERT_EQ(lib.selectedRuns().size(), 2);
    EXPECT_TRUE(compare->isEnabled());
    QMenu menu;
    lib.actions()->fillMenu(&menu);
    EXPECT_TRUE(menu.actions().contains(compare));

    compare->trigger();
    const auto windows = lib.actions()->compareWindows();
    ASSERT_EQ(windows.size(), 1);
    CompareView* view = windows.front();
    EXPECT_TRUE(view->isVisible());
    EXPECT_TRUE(
        view->windowTitle().startsWith(QString("Compare run #%1 (alpha) and run #%2 (alpha)").arg(ids[0]).arg(ids[1])))
        << view->windowTitle().toStdString();
    EXPECT_FALSE(view->diff().equivalent());  // 12 nodes against 14
    EXPECT_FALSE(view->diff().captures().at(0).graph.added().empty());
    EXPECT_TRUE(lib.message().contains("they differ")) << lib.message().toStdString();
    view->close();  // deletes itself
    EXPECT_TRUE(waitFor([&]() { return lib.actions()->compareWindows().isEmpty(); }, 5000));
}

TEST(UiCompareView, ARunDocumentComparesAsItsStoredSelf)
{
    TempDir dir;
    const std::string script = dir.write("alpha.py", "x = 1\n").toStdString();
    auto run = syntheticRun(script, syntheticGraph(12, script, 1), "ok", "alpha");
    run.scriptText = "x = 1\n";
    const RunSide a = CompareView::sideOf(run, "the current run");
    ASSERT_EQ(a.pythonCode.size(), 1u);
    ASSERT_TRUE(a.pythonCode[0].has_value());
    const auto view = shown(a, CompareView::sideOf(run, "again"));
    EXPECT_TRUE(view->diff().equivalent());
}

TEST(UiCompareView, ARunComparesWithTheRunTheWindowShows)
{
    TempDir dir;
    ps::ui::RunStore store(dir.file("library.sqlite3"));
    ASSERT_TRUE(store.isOpen()) << store.error().toStdString();
    const std::string script = dir.write("alpha.py", "x = 1\n").toStdString();
    auto run = syntheticRun(script, syntheticGraph(12, script, 1), "ok", "alpha");
    run.scriptText = "x = 1\n";
    QString error;
    const qint64 id = store.insert(run, &error);
    ASSERT_GT(id, 0) << error.toStdString();
    ps::ui::LibraryView lib;
    lib.setStore(&store);
    lib.show();
    ASSERT_TRUE(QTest::qWaitForWindowExposed(&lib));
    lib.selectRun(id);
    QAction* action = lib.actions()->compareCurrentAction();
    EXPECT_FALSE(action->isEnabled());  // nobody says what the window shows
    std::shared_ptr<const ps::ui::RunDocument> shownRun;
    lib.actions()->setCurrentRun([&]() { return shownRun; });
    EXPECT_FALSE(action->isEnabled());  // the window shows no run: the tooltip says so
    EXPECT_TRUE(action->toolTip().contains("shows no run yet")) << action->toolTip().toStdString();
    EXPECT_EQ(lib.actions()->compareWithCurrent(id), nullptr);  // asked all the same: said, nothing opened
    EXPECT_TRUE(lib.actions()->compareWindows().isEmpty());
    EXPECT_TRUE(lib.messageIsError());
    EXPECT_TRUE(lib.message().contains("shows no run")) << lib.message().toStdString();

    // The window shows the selected run itself: nothing to compare.
    auto itself = run;
    itself.report.runId = id;
    shownRun = std::make_shared<const ps::ui::RunDocument>(itself);
    lib.actions()->update();  // the window does this when it shows a run
    EXPECT_FALSE(action->isEnabled());
    EXPECT_TRUE(action->toolTip().contains("is the run the window shows")) << action->toolTip().toStdString();

    auto edited = syntheticRun(script, syntheticGraph(13, script, 1), "ok", "alpha");
    edited.scriptText = "x = 1\n";
    shownRun = std::make_shared<const ps::ui::RunDocument>(edited);
    lib.actions()->update();
    ASSERT_TRUE(action->isEnabled());
    action->trigger();
    const auto windows = lib.actions()->compareWindows();
    ASSERT_EQ(windows.size(), 1);
    EXPECT_TRUE(
        windows.front()->windowTitle().startsWith(QString("Compare run #%1 (alpha) and the current run").arg(id)))
        << windows.front()->windowTitle().toStdString();
    EXPECT_EQ(windows.front()->diff().captures().at(0).graph.added().size(), 1u);
}

TEST(UiCompareView, BothGraphToolbarsFitSideBySideAt1400)
{
    const auto view = shown(side("run #1", {{8}, {2}}), side("run #2", {{8}, {8}, {2}}));
    for (int k = 0; k < 2; ++k) {
        ps::ui::GraphView* g = view->graphPane()->view(k);
        EXPECT_FALSE(g->sidePanelShown()) << k;
        auto* bar = g->findChild<ps::ui::GraphToolBar*>();
        ASSERT_NE(bar, nullptr);
        // every button at least at its own size: nothing drawn over another
        EXPECT_LE(bar->minimumSizeHint().width(), bar->width()) << "side " << k;
        auto* toggle = g->findChild<QToolButton*>(QStringLiteral("graphSidePanelToggle"));
        ASSERT_NE(toggle, nullptr);
        EXPECT_FALSE(toggle->isVisible());
    }
}

TEST(UiCompareView, TheGraphsMoveTogetherWithMatchingNodesSideBySide)
{
    const auto view = shown(side("run #1", {{8}, {2}}), side("run #2", {{8}, {8}, {2}}));
    const auto& graph = view->diff().captures().at(0).graph;
    ps::ui::CompareGraphPane* pane = view->graphPane();
    ps::ui::GraphView* a = pane->view(0);
    ps::ui::GraphView* b = pane->view(1);
    ASSERT_TRUE(pane->moveTogether()->isChecked());
    // Expanding every module of A expands B's too.
    a->expandAll();
    ASSERT_TRUE(waitFor([&]() { return !a->layoutPending() && !b->layoutPending(); }, 20000));
    ASSERT_TRUE(waitFor([&]() { return b->visibleModuleCount() == 0; }, 20000)) << b->visibleModuleCount();
    // A matched node in the middle of A (by height): zoomed in on it, its match stands at the same
    // place in B's view, at the same zoom, though B has a layer more above it.
    std::vector<std::pair<qreal, std::pair<int, int>>> byY;
    for (const auto& [i, j] : graph.matched())
        if (a->boxOfNode(i) && b->boxOfNode(j))
            byY.push_back({a->nodeCenter(i).y(), {i, j}});
    ASSERT_GE(byY.size(), 4u);
    std::sort(byY.begin(), byY.end());
    const auto [nodeA, nodeB] = byY[byY.size() / 2].second;
    const auto where = [](ps::ui::GraphView* g, int node) { return g->canvas()->mapFromScene(g->nodeCenter(node)); };
    a->canvas()->setZoom(3);
    a->canvas()->centerOn(a->nodeCenter(nodeA));
    QApplication::processEvents();
    EXPECT_DOUBLE_EQ(b->canvas()->zoom(), 3);
    EXPECT_LE((where(a, nodeA) - where(b, nodeB)).manhattanLength(), 4)
        << where(a, nodeA).x() << "," << where(a, nodeA).y() << " vs " << where(b, nodeB).x() << ","
        << where(b, nodeB).y();
    // B leads as well.
    b->canvas()->verticalScrollBar()->setValue(b->canvas()->verticalScrollBar()->value() + 1);
    b->canvas()->centerOn(b->nodeCenter(nodeB));
    QApplication::processEvents();
    EXPECT_LE((where(a, nodeA) - where(b, nodeB)).manhattanLength(), 4);
    // Unticked, each side moves alone.
    pane->moveTogether()->setChecked(false);
    const int before = b->canvas()->verticalScrollBar()->value();
    a->canvas()->verticalScrollBar()->setValue(a->canvas()->verticalScrollBar()->value() + 40);
    QApplication::processEvents();
    EXPECT_EQ(b->canvas()->verticalScrollBar()->value(), before);
}

TEST(UiCompareView, ManyBlocksAreSummedUpAboveTheGraphsAndListedInTheTooltip)
{
    // A stack of 8 layers (8 wide down to 1), and the same with a square layer after each: 8
    // inserted blocks apart from each other.
    std::vector<Layer> a;
    std::vector<Layer> b;
    for (int w = 8; w >= 1; --w) {
        a.push_back({w});
        b.push_back({w});
        b.push_back({w});
    }
    const auto view = shown(side("run #1", a), side("run #2", b));
    ASSERT_EQ(view->diff().captures().at(0).graph.blocks().size(), 8u);
    const QStringList lines = view->graphPane()->summary().split('\n');
    EXPECT_EQ(lines.filter(QRegularExpression("^Added ")).size(), 6) << lines.join('\n').toStdString();
    EXPECT_TRUE(lines.contains("… and 2 more block(s) (hover for all)")) << lines.join('\n').toStdString();
    const auto* label = view->graphPane()->findChild<QLabel*>("compareGraphSummary");
    ASSERT_TRUE(label);
    EXPECT_EQ(label->toolTip().split('\n').filter(QRegularExpression("^Added ")).size(), 8);
}

TEST(UiCompareView, TheCodeTabOpensOnChangedCodeBeforeAChangedHeader)
{
    // The header's comments name the backend: they differ, and so does the graph's code.
    const auto view = shown(side("run #1", {{8}, {2}}), side("run #2", {{8}, {8}, {2}}, "inductor"));
    QTreeWidget* list = view->codePane()->sectionList();
    ASSERT_EQ(list->topLevelItemCount(), 2);
    EXPECT_EQ(list->topLevelItem(0)->text(1), "changed");
    EXPECT_EQ(list->currentItem(), list->topLevelItem(1));
}

TEST(UiCompareView, TheGraphsOpenOnTheModulesHoldingTheDifference)
{
    // 40 layers: more boxes than a graph opens with, so the model opens as one box; the layer
    // inserted in it is then shown by opening the model, on both sides, fitted again.
    std::vector<Layer> a(40, Layer{8});
    std::vector<Layer> b = a;
    b.insert(b.begin() + 20, Layer{16});
    const auto view = shown(side("run #1", a), side("run #2", b));
    for (int k = 0; k < 2; ++k) {
        ps::ui::GraphView* g = view->graphPane()->view(k);
        EXPECT_TRUE(waitFor([g]() { return g->isExpanded("model") && !g->layoutPending(); }, 20000)) << k;
        EXPECT_TRUE(waitFor([g]() { return g->canvas()->keepsFitted(); }, 5000))
            << k << " zoom " << g->canvas()->zoom() << " fit " << g->canvas()->fitZoom() << " items "
            << g->visibleItemCount();
    }
    // The inserted layer is a green box of its own.
    const auto& graph = view->diff().captures().at(0).graph;
    ASSERT_FALSE(graph.added().empty());
    EXPECT_EQ(view->graphPane()->view(1)->boxFill(graph.added().back()), ps::ui::DiffColours::added());
}

namespace {

/// `side`'s run profiled: one kernel computing every node of its graph, `us` per call.
RunSide profiled(RunSide s, double us)
{
    json& capture = s.report["captures"][0];
    json nodes = json::array();
    for (const json& n : capture["graph"]["node_list"])
        nodes.push_back(n["name"]);
    capture["profile"] = {{"calls", 5}, {"wall_us", us}, {"profiled_wall_us", us}, {"overhead_us", 0.0},
        {"kernels", {{{"name", "cpp_fused_0"}, {"nodes", nodes}, {"count", 1}, {"self_us", us}}}},
        {"unattributed_us", 0.0}};
    return s;
}

}  // namespace

TEST(UiCompareView, TwoProfiledRunsShowTheTimeOfEachModuleBeforeAndAfter)
{
    const QString title = QStringLiteral("Time per call by module (profile)");
    const auto view = shown(profiled(side("run #1", {{8}, {2}}), 1000), profiled(side("run #2", {{8}, {2}}), 3000));
    const QStringList rows = view->tablePane()->rows(title);
    ASSERT_FALSE(rows.isEmpty());
    // every module took three times as long: each row highlighted, the larger change first
    for (const QString& r : rows)
        EXPECT_TRUE(r.startsWith('*')) << r.toStdString();
    EXPECT_EQ(rows.front(), QStringLiteral("*model.0: 333 us | 1.00 ms")) << rows.join('\n').toStdString();

    const auto plain = shown(side("run #1", {{8}, {2}}), side("run #2", {{8}, {2}}));
    EXPECT_TRUE(plain->tablePane()->rows(title).isEmpty());
}
