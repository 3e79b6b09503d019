// Violations where the user looks: a stored run with a violation and a warning puts a margin
// icon and a squiggle on their script lines with the rule and the fix on hover, marks the
// violating node in the graph, and a click on the violation selects and centres it; another
// run or another script clears the marks; "Colour by Script Line" gives a line, its node and its
// python_code line one colour.
#include "UiTestSupport.h"

#include "graph/GraphModel.h"
#include "ui/editor/EditorMarkers.h"
#include "ui/editor/LineColours.h"
#include "ui/editor/ScriptEditor.h"
#include "ui/graph/GraphBoxItem.h"
#include "ui/graph/GraphCanvas.h"
#include "ui/graph/GraphView.h"
#include "ui/library/RunStore.h"
#include "ui/report/ReportView.h"
#include "ui/report/RunMarkers.h"
#include "ui/report/SourceView.h"
#include "ui/report/ViolationsView.h"

#include <QAction>
#include <QApplication>
#include <QHelpEvent>
#include <QSettings>
#include <QTabWidget>
#include <QTest>
#include <QToolTip>
#include <QTreeWidget>

#include <gtest/gtest.h>

using namespace ps::uitest;

namespace {

/// The synthetic run, with a violation at line 5 naming node relu and a warning at line 4.
ps::ui::RunDocument violatingRun(const std::string& script)
{
    ps::ui::RunDocument doc = syntheticRun(script, matmulReluGraph(script));
    nlohmann::json report = doc.report.toJson();
    report["status"] = "violation";
    auto& capture = report["captures"][0];
    capture["status"] = "violation";
    capture["violation"] = {{"invariant", 1}, {"rule", "closed-over-tensor"}, {"kind", "PrecompileError"},
        {"message", "fn reads a tensor that is not an input"}, {"summary", "relu reads a closed-over tensor"},
        {"fix", "pass the tensor to fn"}, {"location", {{"file", script}, {"line", 5}}},
        {"details", {{"node", "relu"}}}};
    capture["warnings"] = {{{"invariant", 3}, {"rule", "python-scalar"}, {"message", "a Python float is baked in"},
        {"fix", "make it a tensor input"}, {"location", {{"file", script}, {"line", 4}}}}};
    doc.report = ps::model::Report::fromJson(report);
    return doc;
}

class UiEditorMarkers : public ::testing::Test {
protected:
    void SetUp() override
    {
        QSettings().clear();
        script = dir.write("model.py", kMatmulReluScript);
        ps::ui::RunStore store(dir.file("library.sqlite3"));
        ASSERT_TRUE(store.isOpen()) << store.error().toStdString();
        QString error;
        violating = store.insert(violatingRun(script.toStdString()), &error);
        ASSERT_GT(violating, 0) << error.toStdString();
        clean = store.insert(syntheticRun(script.toStdString(), matmulReluGraph(script.toStdString())), &error);
        ASSERT_GT(clean, 0) << error.toStdString();
    }

    /// Opens a stored run in `window` and waits for its graph.
    void open(ps::ui::MainWindow& window, qint64 id)
    {
        ASSERT_TRUE(window.openStoredRun(id));
        ASSERT_TRUE(waitFor([&]() { return !window.report()->graphView()->layoutPending(); }, 10000));
    }

    TempDir dir;
    QString script;
    qint64 violating = 0;
    qint64 clean = 0;
};

TEST_F(UiEditorMarkers, AViolationIsMarkedOnItsLineWithTheRuleAndFixOnHover)
{
    ps::ui::MainWindow window(windowOptions(dir, /*prewarm=*/false));
    window.resize(1400, 900);
    window.show();
    ASSERT_TRUE(QTest::qWaitForWindowExposed(&window));
    open(window, violating);
    auto* markers = window.editor()->markers();
    EXPECT_EQ(markers->markedLines(/*warning=*/false), QList<int>{5});
    EXPECT_EQ(markers->markedLines(/*warning=*/true), QList<int>{4});
    EXPECT_TRUE(markers->hasSquiggle(5, false));
    EXPECT_TRUE(markers->hasSquiggle(4, true));
    EXPECT_FALSE(markers->hasSquiggle(5, true));
    EXPECT_FALSE(markers->hasSquiggle(6, false));

    // Hovering the line (here, over the margin icon) shows the rule, our line and the fix.
    auto* editor = window.editor();
    const int marginX = editor->marginWidth(0) + 4;
    const QPoint at(marginX, editor->lineCenterY(5));
    EXPECT_EQ(markers->lineAt(at), 5);
    QHelpEvent hover(QEvent::ToolTip, at, editor->viewport()->mapToGlobal(at));
    QApplication::sendEvent(editor->viewport(), &hover);
    const QString tip = QToolTip::text();
    EXPECT_TRUE(tip.contains("closed-over-tensor")) << tip.toStdString();
    EXPECT_TRUE(tip.contains("Invariant 1")) << tip.toStdString();
    EXPECT_TRUE(tip.contains("relu reads a closed-over tensor")) << tip.toStdString();
    EXPECT_TRUE(tip.contains("pass the tensor to fn")) << tip.toStdString();
    EXPECT_TRUE(markers->hoverText(4).contains("python-scalar"));
    EXPECT_TRUE(markers->hoverText(6).isEmpty());
    QToolTip::hideText();

    // The violating node is marked in the graph; the warning's line is not.
    auto* graph = window.report()->graphView();
    const auto model = window.report()->currentGraph();
    const int relu = model->indexOf("relu");
    EXPECT_EQ(graph->markedNodes(), QList<int>{relu});
    ASSERT_NE(graph->boxOfNode(relu), nullptr);
    EXPECT_TRUE(graph->boxOfNode(relu)->marked());
    EXPECT_FALSE(graph->boxOfNode(model->indexOf("mm"))->marked());
}

TEST_F(UiEditorMarkers, ClickingTheViolationPutsTheCaretThereAndSelectsItsNode)
{
    ps::ui::MainWindow window(windowOptions(dir, /*prewarm=*/false));
    window.resize(1400, 900);
    window.show();
    ASSERT_TRUE(QTest::qWaitForWindowExposed(&window));
    open(window, violating);
    auto* list = window.report()->violationsView()->list();
    window.report()->tabs()->setCurrentIndex(ps::ui::ReportView::ViolationsTab);
    int row = -1;
    for (int i = 0; i < list->topLevelItemCount(); ++i)
        if (list->topLevelItem(i)->text(3) == "closed-over-tensor")
            row = i;
    ASSERT_GE(row, 0);
    QTreeWidgetItem* item = list->topLevelItem(row);
    list->scrollToItem(item);
    QTest::mouseClick(list->viewport(), Qt::LeftButton, {}, list->visualItemRect(item).center());

    int line = 0, index = 0;
    window.editor()->getCursorPosition(&line, &index);
    EXPECT_EQ(line + 1, 5);
    EXPECT_EQ(window.editor()->highlightedLines(), QList<int>{5});
    auto* graph = window.report()->graphView();
    const int relu = window.report()->currentGraph()->indexOf("relu");
    ASSERT_TRUE(waitFor([&]() { return graph->selectedNodes() == QList<int>{relu}; }, 5000));
    // Brought into view (this small graph is fitted whole, so centring moves nothing here).
    const QRect view = graph->canvas()->viewport()->rect();
    EXPECT_TRUE(view.contains(graph->canvas()->mapFromScene(graph->nodeCenter(relu))));
}

TEST_F(UiEditorMarkers, AnotherRunOrAnotherScriptClearsTheMarks)
{
    ps::ui::MainWindow window(windowOptions(dir, /*prewarm=*/false));
    window.show();
    ASSERT_TRUE(QTest::qWaitForWindowExposed(&window));
    open(window, violating);
    auto* markers = window.editor()->markers();
    ASSERT_FALSE(markers->markedLines(false).isEmpty());

    open(window, clean);
    EXPECT_TRUE(markers->markedLines(false).isEmpty());
    EXPECT_TRUE(markers->markedLines(true).isEmpty());
    EXPECT_FALSE(markers->hasSquiggle(5, false));
    EXPECT_TRUE(window.report()->graphView()->markedNodes().isEmpty());

    open(window, violating);
    ASSERT_EQ(markers->markedLines(false), QList<int>{5});
    const QString other = dir.write("other.py", tinyScript());
    ASSERT_TRUE(window.openPath(other));
    EXPECT_TRUE(markers->markedLines(false).isEmpty());
    EXPECT_TRUE(markers->markedLines(true).isEmpty());
    EXPECT_TRUE(markers->hoverText(5).isEmpty());
}

TEST_F(UiEditorMarkers, ColourByLineSharesOneColourBetweenLineNodeAndCode)
{
    ps::ui::MainWindow window(windowOptions(dir, /*prewarm=*/false));
    window.show();
    ASSERT_TRUE(QTest::qWaitForWindowExposed(&window));
    open(window, clean);
    auto* editor = window.editor();
    auto* graph = window.report()->graphView();
    auto* source = window.report()->sourceView()->editor();
    const auto model = window.report()->currentGraph();
    const int mm = model->indexOf("mm"), relu = model->indexOf("relu");
    QAction* toggle = window.runMarkers()->lineColoursAction();
    ASSERT_FALSE(toggle->isChecked());  // off by default
    EXPECT_EQ(ps::ui::LineColours::indexAt(editor, 4), -1);
    const QColor lensFill = graph->boxFill(mm);

    toggle->setChecked(true);
    const int c4 = ps::ui::LineColours::indexAt(editor, 4);
    const int c5 = ps::ui::LineColours::indexAt(editor, 5);
    ASSERT_GE(c4, 0);
    ASSERT_GE(c5, 0);
    EXPECT_NE(c4, c5);
    EXPECT_EQ(ps::ui::LineColours::indexAt(editor, 1), -1);  // no node comes from line 1
    EXPECT_EQ(graph->boxFill(mm), ps::ui::LineColours::colour(c4, graph->palette()));
    EXPECT_EQ(graph->boxFill(relu), ps::ui::LineColours::colour(c5, graph->palette()));
    // The synthetic python_code computes node i on line 10 + i.
    EXPECT_EQ(ps::ui::LineColours::indexAt(source, 10 + mm), c4);
    EXPECT_EQ(ps::ui::LineColours::indexAt(source, 10 + relu), c5);
    EXPECT_EQ(ps::ui::LineColours::indexAt(source, 1), -1);
    // The editor paints the same colour (the palettes are the application's).
    EXPECT_EQ(ps::ui::LineColours::colour(c4, editor->palette()), graph->boxFill(mm));

    toggle->setChecked(false);
    EXPECT_EQ(ps::ui::LineColours::indexAt(editor, 4), -1);
    EXPECT_EQ(ps::ui::LineColours::indexAt(source, 10 + mm), -1);
    EXPECT_EQ(graph->boxFill(mm), lensFill);
}

}  // namespace
