// Node <-> line: a stored run whose nodes name lines of a script on disk, clicked for real.
#include "UiTestSupport.h"

#include "graph/GraphModel.h"
#include "ui/editor/ScriptEditor.h"
#include "ui/graph/GraphCanvas.h"
#include "ui/graph/GraphView.h"
#include "ui/library/MakeReproDialog.h"
#include "ui/library/RunStore.h"
#include "ui/report/ReportView.h"
#include "ui/report/SourceView.h"
#include "ui/report/VerifyView.h"

#include <QGraphicsView>
#include <QLabel>
#include <QSettings>
#include <QTabWidget>
#include <QTest>

#include <gtest/gtest.h>

using namespace ps::uitest;

namespace {

class UiCrossSelection : public ::testing::Test {
protected:
    void SetUp() override
    {
        QSettings().clear();
        script = dir.write("model.py", kMatmulReluScript);
        ps::ui::RunStore store(dir.file("library.sqlite3"));
        ASSERT_TRUE(store.isOpen()) << store.error().toStdString();
        QString error;
        runId = store.insert(syntheticRun(script.toStdString(), matmulReluGraph(script.toStdString())), &error);
        ASSERT_GT(runId, 0) << error.toStdString();
    }

    void clickNode(ps::ui::GraphView* view, int node)
    {
        const QPointF scene = view->nodeCenter(node);
        view->canvas()->centerOn(scene);
        QTest::mouseClick(view->canvas()->viewport(), Qt::LeftButton, {}, view->canvas()->mapFromScene(scene));
    }

    TempDir dir;
    QString script;
    qint64 runId = 0;
};

TEST_F(UiCrossSelection, ANodeMarksItsScriptLineAndItsSourceLines)
{
    ps::ui::MainWindow window(windowOptions(dir, /*prewarm=*/false));
    window.show();
    ASSERT_TRUE(QTest::qWaitForWindowExposed(&window));
    ASSERT_TRUE(window.openStoredRun(runId));
    EXPECT_EQ(window.editor()->filePath(), QFileInfo(script).absoluteFilePath());
    auto* graph = window.report()->graphView();
    window.report()->tabs()->setCurrentIndex(ps::ui::ReportView::GraphTab);
    ASSERT_TRUE(waitFor([&]() { return !graph->layoutPending(); }, 10000));
    const int relu = window.report()->currentGraph()->indexOf("relu");
    ASSERT_GE(relu, 0);

    clickNode(graph, relu);
    EXPECT_EQ(graph->selectedNodes(), QList<int>{relu});
    EXPECT_EQ(window.editor()->highlightedLines(), QList<int>{5});
    // node_lines of the synthetic python_code: node i on line 10 + i.
    EXPECT_EQ(window.report()->sourceView()->highlightedLines(), QList<int>{10 + relu});
    const QString details = graph->detailsText();
    EXPECT_TRUE(details.contains("aten.relu.default")) << details.toStdString();
    EXPECT_TRUE(details.contains("[2, 2]"));
    EXPECT_TRUE(details.contains("float32"));
    EXPECT_TRUE(details.contains("line 5"));

    // Clicking an empty part of the scene clears the selection and the marks.
    QTest::mouseClick(graph->canvas()->viewport(), Qt::LeftButton, {}, QPoint(3, 3));
    EXPECT_TRUE(graph->selectedNodes().isEmpty());
    EXPECT_TRUE(window.editor()->highlightedLines().isEmpty());
}

TEST_F(UiCrossSelection, AScriptLineSelectsItsNodesAndASourceLineToo)
{
    ps::ui::MainWindow window(windowOptions(dir, /*prewarm=*/false));
    window.show();
    ASSERT_TRUE(QTest::qWaitForWindowExposed(&window));
    ASSERT_TRUE(window.openStoredRun(runId));
    auto* graph = window.report()->graphView();
    ASSERT_TRUE(waitFor([&]() { return !graph->layoutPending(); }, 10000));
    const auto model = window.report()->currentGraph();
    auto* editor = window.editor();

    QTest::mouseClick(editor->viewport(), Qt::LeftButton, {}, QPoint(150, editor->lineCenterY(4)));
    EXPECT_EQ(graph->selectedNodes(), QList<int>{model->indexOf("mm")});
    EXPECT_EQ(editor->highlightedLines(), QList<int>{4});

    QTest::mouseClick(editor->viewport(), Qt::LeftButton, {}, QPoint(150, editor->lineCenterY(1)));
    EXPECT_TRUE(graph->selectedNodes().isEmpty());

    window.report()->tabs()->setCurrentIndex(ps::ui::ReportView::SourceTab);
    auto* source = window.report()->sourceView()->editor();
    ASSERT_TRUE(waitFor([&]() { return source->isVisible(); }, 2000));
    const int sumLine = 10 + model->indexOf("sum_1");
    source->setFirstVisibleLine(0);
    const long pos = source->positionFromLineIndex(sumLine - 1, 2);
    const int y = static_cast<int>(source->SendScintilla(QsciScintilla::SCI_POINTYFROMPOSITION, 0UL, pos))
        + static_cast<int>(source->SendScintilla(QsciScintilla::SCI_TEXTHEIGHT, 0UL)) / 2;
    QTest::mouseClick(source->viewport(), Qt::LeftButton, {}, QPoint(80, y));
    ASSERT_TRUE(waitFor([&]() { return graph->selectedNodes() == QList<int>{model->indexOf("sum_1")}; }, 2000))
        << graph->selectedNodes().size();
    EXPECT_EQ(editor->highlightedLines(), QList<int>{6});
}

// A drift localised to a node: the Verify tab lists where it starts, and clicking it shows the
// node: the Graph tab comes to the front with the node selected and centred.
TEST_F(UiCrossSelection, ADriftStartInVerifyShowsItsNodeInTheGraph)
{
    auto doc = syntheticRun(script.toStdString(), matmulReluGraph(script.toStdString()));
    auto j = doc.report.toJson();
    j["captures"][0]["graph"]["node_list"][2]["module"] = {{"path", "model.proj"}, {"type", "Linear"}};
    j["captures"][0]["verify"] = {{"ran", true}, {"status", "drift"}, {"matches_eager", false},
        {"accuracy",
            {{"verdict", "numerics drift"}, {"reference", "float64"}, {"message", "numerics drift in 1 of 1 outputs"},
                {"eager_error", 1.5e-7}, {"artifact_error", 3.4e-4}, {"drift_starts", {"mm"}},
                {"nodes",
                    {{{"node", "mm"}, {"error", 3.4e-4}, {"eager_error", 1.5e-7}, {"leaves_band", true}},
                        {{"node", "relu"}, {"error", 3.4e-4}, {"eager_error", 1.5e-7}, {"leaves_band", true}}}},
                {"localise", {{"status", "done"}, {"observed", 2}, {"seconds", 0.01}}}}}};
    doc.report = ps::model::Report::fromJson(j);
    ps::ui::RunStore store(dir.file("library.sqlite3"));
    QString error;
    const qint64 drifted = store.insert(doc, &error);
    ASSERT_GT(drifted, 0) << error.toStdString();

    ps::ui::MainWindow window(windowOptions(dir, /*prewarm=*/false));
    window.show();
    ASSERT_TRUE(QTest::qWaitForWindowExposed(&window));
    ASSERT_TRUE(window.openStoredRun(drifted));
    auto* graph = window.report()->graphView();
    ASSERT_TRUE(waitFor([&]() { return !graph->layoutPending(); }, 10000));
    auto* verify = window.report()->verifyView();
    const QString text = verify->driftStartsText();
    EXPECT_TRUE(text.contains("Drift starts at")) << text.toStdString();
    EXPECT_TRUE(text.contains("href=\"node:mm\">mm</a> (model.proj)")) << text.toStdString();

    window.report()->tabs()->setCurrentIndex(ps::ui::ReportView::VerifyTab);
    auto* canvas = graph->findChild<QGraphicsView*>();
    ASSERT_NE(canvas, nullptr);
    canvas->centerOn(canvas->sceneRect().topLeft() - QPointF(2000, 2000));  // the node far out of view
    auto* label = verify->findChild<QLabel*>("driftStarts");
    ASSERT_NE(label, nullptr);
    emit label->linkActivated("node:mm");  // what a click on the link sends
    const int mm = window.report()->currentGraph()->indexOf("mm");
    EXPECT_EQ(window.report()->tabs()->currentIndex(), ps::ui::ReportView::GraphTab);
    ASSERT_TRUE(waitFor([&]() { return graph->selectedNodes() == QList<int>{mm}; }, 5000));
    EXPECT_EQ(window.editor()->highlightedLines(), QList<int>{4});
    const QPoint at = canvas->mapFromScene(graph->nodeCenter(mm));
    const QRect middle = canvas->viewport()->rect().adjusted(canvas->viewport()->width() / 4,
        canvas->viewport()->height() / 4, -canvas->viewport()->width() / 4, -canvas->viewport()->height() / 4);
    EXPECT_TRUE(middle.contains(at)) << at.x() << "," << at.y() << " in " << canvas->viewport()->width() << "x"
                                     << canvas->viewport()->height();

    // "make a repro…" beside it opens Make Repro… for this stored run, cut from the first start.
    EXPECT_TRUE(text.contains("href=\"repro:mm\">make a repro…</a>")) << text.toStdString();
    emit label->linkActivated("repro:mm");
    auto* repro = window.findChild<ps::ui::MakeReproDialog*>();
    ASSERT_NE(repro, nullptr);
    EXPECT_TRUE(repro->isVisible());
    EXPECT_TRUE(repro->windowTitle().contains(QString::number(drifted)));
    repro->close();
}

}  // namespace
