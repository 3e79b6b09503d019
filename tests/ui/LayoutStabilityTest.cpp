// The window's layout holds still and fits: switching report tabs moves no splitter, the first
// layout gives the editor and the graph their room at 1280x800 and 1920x1080, and the Verify
// tab's labels are whole at 1280x800.
#include "UiTestSupport.h"

#include "ui/common/ElidedLabel.h"
#include "ui/editor/ScriptEditor.h"
#include "ui/graph/GraphCanvas.h"
#include "ui/graph/GraphView.h"
#include "ui/library/RunStore.h"
#include "ui/report/ReportView.h"
#include "ui/report/VerifyView.h"

#include <QChartView>
#include <QDockWidget>
#include <QGraphicsSimpleTextItem>
#include <QGraphicsTextItem>
#include <QHeaderView>
#include <QLabel>
#include <QSettings>
#include <QSignalSpy>
#include <QSplitter>
#include <QStatusBar>
#include <QTabWidget>
#include <QTest>
#include <QTreeWidget>

#include <gtest/gtest.h>

#include <tuple>

using namespace ps::uitest;

namespace {

/// A verification as a training step's run reports it: twelve values compared, timings, the
/// accuracy verdict and what the budget skipped.
nlohmann::json trainingVerify()
{
    auto value = [](const char* name, const char* size, const char* stride) {
        return nlohmann::json{{"name", name},
            {"result",
                {{"ok", true}, {"max_abs_diff", 2.98e-08}, {"rms_rel_diff", 9.01e-08}, {"sizes", {size, size}},
                    {"strides", {stride, stride}}, {"dtypes", {"float32", "float32"}}}}};
    };
    nlohmann::json grads = nlohmann::json::array(), params = nlohmann::json::array();
    for (const char* n : {"model.0.weight", "model.0.bias", "model.2.weight", "model.2.bias"}) {
        grads.push_back(value(n, "[32, 16]", "[16, 1]"));
        params.push_back(value(n, "[32, 16]", "[16, 1]"));
    }
    return {{"ran", true}, {"status", "ok"}, {"matches_eager", true}, {"max_abs_diff", 4.47e-08},
        {"max_rel_diff", 1.04e-05}, {"grads_match", true}, {"buffers_match", nullptr}, {"inputs_match", true},
        {"calls", 2}, {"outputs", {value("call1.out[0]", "[]", "[]"), value("call2.out[0]", "[]", "[]")}},
        {"grads", grads}, {"parameters", params}, {"inputs", {value("x", "[8, 16]", "[16, 1]")}},
        {"accuracy", {{"verdict", "matches"}}}, {"budget", {{"deep", false}, {"skipped", nlohmann::json::array()}}},
        {"load_no_cache", {{"ran", false}, {"reason", "only with --deep-verify"}}}};
}

/// A run of `script` with a graph and a verification.
ps::ui::RunDocument verifiedRun(const QString& script)
{
    auto doc = syntheticRun(script.toStdString(), syntheticGraph(60, script.toStdString(), 3));
    auto report = doc.report.toJson();
    report["captures"][0]["verify"] = trainingVerify();
    report["captures"][0]["timings_s"] = {{"script", 0.186}, {"precompile", 2.01}, {"load", 0.0146}, {"call", 0.0336},
        {"call_eager", 0.0335}, {"verify", 0.479}};
    doc.report = ps::model::Report::fromJson(report);
    return doc;
}

/// Stores verifiedRun(script) in the library of `dir`; returns its id.
qint64 storeRun(const TempDir& dir, const QString& script)
{
    ps::ui::RunStore store(dir.file("library.sqlite3"));
    QString error;
    const qint64 id = store.insert(verifiedRun(script), &error);
    EXPECT_GT(id, 0) << error.toStdString();
    return id;
}

class UiLayout : public ::testing::Test {
protected:
    void SetUp() override { QSettings().clear(); }

    /// A window of `size` showing a stored run on `tab`, laid out.
    void open(ps::ui::MainWindow& window, const QSize& size, int tab)
    {
        const qint64 id = storeRun(dir, dir.write("step.py", "x = 1\ny = 2\nz = 3\n"));
        window.resize(size);
        window.show();
        ASSERT_TRUE(QTest::qWaitForWindowExposed(&window));
        ASSERT_EQ(window.size(), size);
        window.report()->tabs()->setCurrentIndex(tab);
        ASSERT_TRUE(window.openStoredRun(id));
        ASSERT_NO_FATAL_FAILURE(settle(window));
    }

    /// Waits for the graph's layout, if one is on its way, and then for the panes' sizes to
    /// hold still: what a page or the graph asked of the window's layout is done.
    static void settle(ps::ui::MainWindow& window)
    {
        auto* graph = window.report()->graphView();
        ASSERT_TRUE(waitFor([&]() { return !graph->layoutPending(); }, 60000)) << "the graph is not laid out";
        ASSERT_TRUE(waitForSettled(
            [&]() {
                const QSplitter* split = splitter(window);
                return std::make_tuple(split ? split->sizes() : QList<int>(), window.editor()->size(),
                    window.report()->size(), graph->canvas()->viewport()->size());
            },
            5000))
            << "the window's layout does not hold still";
    }

    static QSplitter* splitter(ps::ui::MainWindow& window)
    {
        return window.findChild<QSplitter*>(QStringLiteral("mainSplitter"));
    }

    TempDir dir;
};

TEST_F(UiLayout, SwitchingReportTabsMovesNoSplitter)
{
    for (const QSize size : {QSize(1280, 800), QSize(1920, 1080)}) {
        SCOPED_TRACE(QStringLiteral("%1x%2").arg(size.width()).arg(size.height()).toStdString());
        QSettings().clear();
        ps::ui::MainWindow window(windowOptions(dir, /*prewarm=*/false));
        // Opened on Verify, as after a run that ended there: the graph is first seen on a switch.
        ASSERT_NO_FATAL_FAILURE(open(window, size, ps::ui::ReportView::VerifyTab));
        QSplitter* split = splitter(window);
        ASSERT_NE(split, nullptr);
        const QList<int> sizes = split->sizes();
        const int editor = window.editor()->width();
        for (int tab : {0, 1, 2, 3, 4, 0, 4}) {
            window.report()->tabs()->setCurrentIndex(tab);
            ASSERT_NO_FATAL_FAILURE(settle(window));  // the graph's layout, any relayout a page asks for
            EXPECT_EQ(split->sizes(), sizes) << "on tab " << tab;
            EXPECT_EQ(window.editor()->width(), editor) << "on tab " << tab;
        }
    }
}

TEST_F(UiLayout, TheFirstLayoutGivesTheEditorAndTheGraphTheirRoom)
{
    for (const QSize size : {QSize(1280, 800), QSize(1920, 1080)}) {
        SCOPED_TRACE(QStringLiteral("%1x%2").arg(size.width()).arg(size.height()).toStdString());
        QSettings().clear();
        ps::ui::MainWindow window(windowOptions(dir, /*prewarm=*/false));
        ASSERT_NO_FATAL_FAILURE(open(window, size, ps::ui::ReportView::GraphTab));
        EXPECT_GE(window.editor()->width(), 400) << "the editor is a narrow column";
        EXPECT_GE(window.report()->width(), 0.6 * size.width());
        // Resizing keeps the shares: no pane is squeezed to make room for another.
        const double share = double(window.editor()->width()) / window.report()->width();
        const int report = window.report()->width();
        window.resize(size.width() - 200, size.height());
        ASSERT_TRUE(waitFor([&]() { return window.report()->width() != report; }, 5000)) << "the report kept its width";
        ASSERT_NO_FATAL_FAILURE(settle(window));
        EXPECT_NEAR(double(window.editor()->width()) / window.report()->width(), share, 0.05);
    }
}

/// The labels under `root` whose text is cut: narrower than their text, or shorter than their
/// wrapped lines; and chart titles or axis labels the chart elided.
QStringList cutLabels(QWidget* root)
{
    QStringList cut;
    for (QLabel* label : root->findChildren<QLabel*>()) {
        if (!label->isVisibleTo(root) || label->text().isEmpty())
            continue;
        const bool fits = label->wordWrap() ? label->height() >= label->heightForWidth(label->width())
                                            : label->width() >= label->sizeHint().width();
        if (!fits)
            cut << QStringLiteral("%1 (%2x%3)").arg(label->text().left(40)).arg(label->width()).arg(label->height());
    }
    for (QChartView* chart : root->findChildren<QChartView*>()) {
        if (!chart->isVisibleTo(root))
            continue;
        for (QGraphicsItem* item : chart->scene()->items()) {
            QString text;
            if (auto* t = dynamic_cast<QGraphicsTextItem*>(item))
                text = t->toPlainText();
            else if (auto* s = dynamic_cast<QGraphicsSimpleTextItem*>(item))
                text = s->text();
            if (item->isVisible() && (text.contains(u'…') || text.contains(QStringLiteral("..."))))
                cut << QStringLiteral("chart text \"%1\"").arg(text);
        }
    }
    for (QTreeWidget* tree : root->findChildren<QTreeWidget*>()) {
        if (!tree->isVisibleTo(root))
            continue;
        const QFontMetrics fm(tree->font());
        for (int c = 0; c + 1 < tree->columnCount(); ++c) {  // the last column stretches
            int needed = tree->header()->sectionSizeHint(c);
            for (int r = 0; r < tree->topLevelItemCount(); ++r)
                needed = std::max(needed, fm.horizontalAdvance(tree->topLevelItem(r)->text(c)) + 6);
            if (tree->header()->sectionSize(c) < needed)
                cut << QStringLiteral("column %1 (%2 < %3 px)")
                           .arg(tree->headerItem()->text(c))
                           .arg(tree->header()->sectionSize(c))
                           .arg(needed);
        }
    }
    return cut;
}

TEST_F(UiLayout, TheVerifyTabsLabelsAreWholeAt1280x800)
{
    ps::ui::MainWindow window(windowOptions(dir, /*prewarm=*/false));
    ASSERT_NO_FATAL_FAILURE(open(window, QSize(1280, 800), ps::ui::ReportView::VerifyTab));
    auto* verify = window.report()->verifyView();
    ASSERT_TRUE(verify->isVisible());
    ASSERT_EQ(verify->comparisonCount(), 11);
    const QStringList cut = cutLabels(verify);
    EXPECT_TRUE(cut.isEmpty()) << cut.join("; ").toStdString();
}

TEST_F(UiLayout, TheCutLabelCheckSeesACut)
{
    // The check above can fail: the same tab squeezed to 420 wide (tall enough for its charts)
    // has its chart text cut.
    ps::ui::VerifyView verify;
    verify.setCapture(std::make_shared<ps::ui::RunDocument>(verifiedRun("/s.py")), 0);
    verify.resize(420, 640);
    verify.show();
    ASSERT_TRUE(QTest::qWaitForWindowExposed(&verify));
    waitFor([&]() { return !cutLabels(&verify).isEmpty(); }, 5000);
    EXPECT_FALSE(cutLabels(&verify).isEmpty());
}

}  // namespace

namespace {

TEST_F(UiLayout, TheStatusBarKeepsTheWorkerAndTheEnvironmentWholeAt1280)
{
    // A long stage line (a run's progress, an outcome) gives way: the worker's state and the
    // environment at the right stay whole, the stage line shows what fits and has it all in its
    // tooltip.
    ps::ui::MainWindow window(windowOptions(dir, /*prewarm=*/false));
    window.resize(1280, 800);
    window.show();
    ASSERT_TRUE(QTest::qWaitForWindowExposed(&window));
    ps::ui::ElidedLabel* stage = nullptr;
    QLabel* worker = nullptr;
    QLabel* env = nullptr;
    for (QLabel* label : window.statusBar()->findChildren<QLabel*>()) {
        if (label->text() == "Ready")
            stage = qobject_cast<ps::ui::ElidedLabel*>(label);
        else if (label->text().startsWith("env:"))
            env = label;
        else if (label->text().startsWith("worker:"))
            worker = label;
    }
    ASSERT_TRUE(stage && worker && env);
    worker->setText("worker: ready · torch 2.14.1+cpu · python 3.12.3");
    stage->setFullText("Capturing resnet18_train_inductor.py: step 3 of 5, verify: load the artifact and call it "
                       "beside eager fn, float64 reference, perturbed trials small and large, runtime inputs (12.3 s)");
    ASSERT_TRUE(waitForSettled([&]() { return env->width() + 1000 * worker->width(); }, 5000));
    EXPECT_LE(window.width(), 1280);
    EXPECT_GE(env->width(), env->sizeHint().width()) << env->text().toStdString();
    EXPECT_GE(worker->width(), worker->sizeHint().width());
    EXPECT_LE(stage->geometry().right(), worker->geometry().left());
    EXPECT_EQ(stage->toolTip(), stage->fullText());
    EXPECT_LT(stage->text().size(), stage->fullText().size()) << "shortened: " << stage->text().toStdString();
}

}  // namespace
