// Runs through the real worker: the tabs' counts, cancel, a crash and the restart after it.
#include "UiTestSupport.h"

#include "graph/GraphModel.h"
#include "ui/common/NoticeBar.h"
#include "ui/editor/ScriptEditor.h"
#include "ui/graph/GraphView.h"
#include "ui/library/LibraryView.h"
#include "ui/library/RunStore.h"
#include "ui/report/CacheView.h"
#include "ui/report/ReportHeader.h"
#include "ui/report/ReportView.h"
#include "ui/report/SourceView.h"
#include "ui/report/VerifyView.h"
#include "ui/report/ViolationsView.h"
#include "ui/run/LogView.h"
#include "ui/run/RunDocument.h"
#include "ui/run/WorkerClient.h"
#include "ui/window/AboutDialog.h"

#include <QAbstractButton>
#include <QAction>
#include <QApplication>
#include <QCheckBox>
#include <QElapsedTimer>
#include <QMessageBox>
#include <QSettings>
#include <QTabWidget>
#include <QTest>
#include <QTextBrowser>
#include <QThread>
#include <QTimer>
#include <QTreeWidget>
#include <QUrl>

#include <gtest/gtest.h>

#include <optional>

using namespace ps::uitest;
using ps::ui::ReportView;

namespace {

int listSize(const nlohmann::json& j, const char* key)
{
    auto it = j.find(key);
    return it != j.end() && it->is_array() ? static_cast<int>(it->size()) : 0;
}

class UiRun : public ::testing::Test {
protected:
    void SetUp() override { QSettings().clear(); }
    TempDir dir;
};

TEST_F(UiRun, AScriptRunsInTheWorkerAndEveryTabShowsItsCount)
{
    ps::ui::MainWindow window(windowOptions(dir));
    window.show();
    ASSERT_TRUE(QTest::qWaitForWindowExposed(&window));
    ASSERT_TRUE(window.openPath(example("training_step.py")));
    window.setBackendChoice("eager");

    QStringList stages;
    QObject::connect(window.worker(), &ps::ui::WorkerClient::stageChanged, [&](ps::model::Stage stage, const QString&) {
        stages << QString::fromStdString(std::string(ps::model::toString(stage)));
    });
    bool sawElapsed = false;
    QTimer probe;
    QObject::connect(&probe, &QTimer::timeout, [&]() { sawElapsed |= window.stageText().endsWith(" s"); });
    probe.start(50);
    const auto run = runAndWait(window);
    ASSERT_TRUE(run);
    const auto& r = run->report;
    ASSERT_EQ(r.status, ps::model::RunStatus::Ok) << r.message;
    ASSERT_EQ(r.captures.size(), 1u);
    ASSERT_TRUE(r.runId.has_value()) << run->storeError().toStdString();
    EXPECT_TRUE(sawElapsed);
    for (const char* s : {"script", "capture", "verify", "store"})
        EXPECT_TRUE(stages.contains(s)) << s << " not in " << stages.join(",").toStdString();
    EXPECT_FALSE(window.isRunning());
    EXPECT_TRUE(window.runAction()->isEnabled());
    EXPECT_FALSE(window.cancelAction()->isEnabled());

    // The counts the tabs show are the report's.
    const auto& c = r.captures[0].json;
    const int nodes = c["graph"]["nodes"].get<int>();
    const int sections = listSize(c["lowering"], "sections") + listSize(c["lowering"], "kernels")
        + listSize(c["lowering"], "extern_calls");
    const int entries = listSize(c["cache"], "entries");
    const auto& v = c["verify"];
    const int compared = listSize(v, "outputs") + listSize(v, "grads") + listSize(v, "buffers")
        + listSize(v, "parameters") + listSize(v, "inputs");
    const int warnings = listSize(c, "warnings");
    ReportView* report = window.report();
    EXPECT_EQ(report->tabText(ReportView::GraphTab), QString("Graph (%1)").arg(nodes));
    EXPECT_EQ(report->tabText(ReportView::SourceTab), QString("Source (%1)").arg(sections));
    EXPECT_EQ(report->tabText(ReportView::ViolationsTab),
        warnings == 0 ? QString("Violations (0)")
                      : QString("Violations (%1 warning%2)").arg(warnings).arg(warnings == 1 ? "" : "s"));
    EXPECT_EQ(report->tabText(ReportView::CacheTab), QString("Cache (%1)").arg(entries));
    EXPECT_EQ(report->tabText(ReportView::VerifyTab), QString("Verify (%1)").arg(compared));
    EXPECT_GT(nodes, 20);
    EXPECT_GT(compared, 4);
    EXPECT_EQ(report->cacheView()->codeHashCheck(), ps::ui::CacheView::Check::Matches)
        << report->cacheView()->text().toStdString();
    // load, call, call_eager (load_no_cache runs only with --deep-verify)
    EXPECT_EQ(report->verifyView()->chartValues().size(), 3u);
    EXPECT_TRUE(report->verifyView()->summaryText().contains("accuracy: matches"))
        << report->verifyView()->summaryText().toStdString();
    EXPECT_TRUE(report->summary().startsWith("ok")) << report->summary().toStdString();

    // The graph is laid out and shown; Source shows python_code with its outline.
    ASSERT_TRUE(waitFor([&]() { return !report->graphView()->layoutPending(); }, 10000));
    EXPECT_EQ(report->graphView()->message(), QString());
    EXPECT_TRUE(report->sourceView()->outlineEntries().contains("Driver"));
    EXPECT_TRUE(report->sourceView()->goToOutlineEntry("Driver"));
    EXPECT_GT(report->sourceView()->firstVisibleLine(), 50);

    // Selecting a node of the real run marks the script line that made it, and back.
    const auto model = report->currentGraph();
    const int tanh = model->indexOf("tanh");
    ASSERT_GE(tanh, 0);
    const int tanhLine = model->nodes()[tanh].sourceLine;
    ASSERT_GT(tanhLine, 0);
    report->graphView()->selectNodes({tanh}, true);
    // A node in a collapsed module is selected once the module has opened.
    ASSERT_TRUE(waitFor([&]() { return !report->graphView()->layoutPending(); }, 10000));
    EXPECT_EQ(window.editor()->highlightedLines(), QList<int>{tanhLine});
    EXPECT_FALSE(report->sourceView()->highlightedLines().isEmpty());
    auto* editor = window.editor();
    QTest::mouseClick(editor->viewport(), Qt::LeftButton, {}, QPoint(80, editor->lineCenterY(tanhLine)));
    const auto atLine = model->nodesAtLine(r.script, tanhLine);
    // Some of them (gradients) are in a collapsed box: it opens, and they are selected once shown.
    ASSERT_TRUE(waitFor([&]() { return !report->graphView()->layoutPending(); }, 10000));
    EXPECT_EQ(report->graphView()->selectedNodes(), QList<int>(atLine.begin(), atLine.end()));
    EXPECT_TRUE(report->graphView()->selectedNodes().contains(tanh));

    // The run is in the library, and opens again from there with the same counts.
    ASSERT_EQ(window.libraryView()->rowCount(), 1);
    EXPECT_EQ(window.libraryView()->runIdAt(0), *r.runId);
    const QString graphTitle = report->tabText(ReportView::GraphTab);
    report->showRun(nullptr);
    ASSERT_TRUE(window.openStoredRun(*r.runId));
    EXPECT_EQ(report->tabText(ReportView::GraphTab), graphTitle);
    EXPECT_EQ(report->cacheView()->codeHashCheck(), ps::ui::CacheView::Check::Matches);
    EXPECT_EQ(report->tabText(ReportView::VerifyTab), QString("Verify (%1)").arg(compared));

    // About names the worker's versions (the window itself never loads torch).
    ps::ui::AboutDialog about(window.worker()->hello(), QString());
    EXPECT_TRUE(about.text().contains(PS_TEST_TORCH_SERIES)) << about.text().toStdString();
}

TEST_F(UiRun, AViolationIsListedWithItsInvariantAndAClickGoesToItsLine)
{
    // Keyword arguments break the positional-only contract (a contract outcome, not a crash).
    const QString script = dir.write("kw.py",
        "import torch\n"
        "\n"
        "def fn(x, *, scale):\n"
        "    return x * scale\n"
        "\n"
        "example_inputs = (torch.ones(2),)\n"
        "backend = 'eager'\n");
    ps::ui::MainWindow window(windowOptions(dir));
    window.show();
    ASSERT_TRUE(window.openPath(script));
    const auto run = runAndWait(window);
    ASSERT_TRUE(run);
    ASSERT_NE(run->report.status, ps::model::RunStatus::Ok);
    auto* violations = window.report()->violationsView();
    ASSERT_GE(violations->count(), 1);
    EXPECT_EQ(window.report()->tabs()->currentIndex(), ReportView::ViolationsTab);
    const auto& e = violations->entries().front();
    EXPECT_FALSE(e.message.isEmpty());
    ASSERT_GT(e.line, 0) << e.message.toStdString();
    {
        auto* list = violations->list();
        const QRect rect = list->visualItemRect(list->topLevelItem(0));
        QTest::mouseClick(list->viewport(), Qt::LeftButton, {}, rect.center());
        int line = 0, index = 0;
        window.editor()->getCursorPosition(&line, &index);
        EXPECT_EQ(line + 1, e.line);
    }
    EXPECT_FALSE(violations->detailsText().isEmpty());
}

// From a violation to the graph node it is marked on ("inv 1"): the details' link, a double click
// (Enter) on the row, and its context menu each show the node in the Graph tab.
TEST_F(UiRun, AViolationLeadsToItsGraphNode)
{
    ps::ui::MainWindow window(windowOptions(dir));
    window.show();
    ASSERT_TRUE(window.openPath(example("violation_closed_over_tensor.py")));
    const auto run = runAndWait(window);
    ASSERT_TRUE(run);
    ASSERT_EQ(run->report.status, ps::model::RunStatus::Violation) << run->report.message;
    auto* violations = window.report()->violationsView();
    ASSERT_GE(violations->count(), 1);
    const auto& e = violations->entries().front();
    ASSERT_FALSE(e.nodes.isEmpty() && e.line <= 0);
    violations->list()->setCurrentItem(violations->list()->topLevelItem(0));
    EXPECT_TRUE(violations->detailsText().contains("in the graph")) << violations->detailsText().toStdString();
    auto* details = violations->findChild<QTextBrowser*>();
    ASSERT_NE(details, nullptr);
    auto* graph = window.report()->graphView();
    for (int way = 0; way < 2; ++way) {
        window.report()->tabs()->setCurrentIndex(ReportView::ViolationsTab);
        graph->selectNodes({}, false);
        if (way == 0)
            emit details->anchorClicked(QUrl("graph:"));  // what a click on the link sends
        else
            QTest::keyClick(violations->list(), Qt::Key_Return);
        EXPECT_EQ(window.report()->tabs()->currentIndex(), ReportView::GraphTab) << "way " << way;
        EXPECT_TRUE(waitFor([&]() { return !graph->selectedNodes().isEmpty(); }, 5000)) << "way " << way;
    }
}

TEST_F(UiRun, CancelKillsAnEndlessLoopAndTheNextRunWorks)
{
    ps::ui::MainWindow window(windowOptions(dir));
    window.show();
    ASSERT_TRUE(window.openPath(fixtureScript("endless_loop.py")));
    std::shared_ptr<const ps::ui::RunDocument> result;
    QObject::connect(&window, &ps::ui::MainWindow::runFinished,
        [&](const std::shared_ptr<const ps::ui::RunDocument>& r) { result = r; });
    std::optional<ps::model::Stage> stage;
    QObject::connect(
        window.worker(), &ps::ui::WorkerClient::stageChanged, [&](ps::model::Stage s, const QString&) { stage = s; });
    window.runAction()->trigger();
    ASSERT_TRUE(window.isRunning());
    EXPECT_TRUE(window.cancelAction()->isEnabled());
    ASSERT_TRUE(waitFor([&]() { return stage == ps::model::Stage::Script; }, 300000)) << "the script never started";
    ASSERT_FALSE(waitFor([&]() { return result != nullptr; }, 500)) << "an endless loop ended by itself";
    QElapsedTimer clock;
    clock.start();
    window.cancelAction()->trigger();
    ASSERT_TRUE(waitFor([&]() { return result != nullptr; }, 20000));
    EXPECT_LT(clock.elapsed(), 10000);
    EXPECT_EQ(result->report.status, ps::model::RunStatus::Cancelled);
    EXPECT_TRUE(window.notice()->text().contains("cancelled")) << window.notice()->text().toStdString();
    EXPECT_EQ(window.libraryView()->rowCount(), 0);  // a cancelled run is not kept

    ASSERT_TRUE(window.openPath(dir.write("tiny.py", tinyScript())));
    const auto next = runAndWait(window);
    ASSERT_TRUE(next);
    EXPECT_EQ(next->report.status, ps::model::RunStatus::Ok) << next->report.message;
}

// Opening a stored run while a run is on changes nothing behind the user's back: the editor keeps
// the running script, the report keeps its progress, and the window says why the run was not opened.
TEST_F(UiRun, AStoredRunOpenedDuringARunLeavesTheEditorAndTheRunAlone)
{
    const std::string other = dir.write("other.py", tinyScript()).toStdString();
    ps::ui::RunStore store(dir.file("library.sqlite3"));
    QString error;
    const qint64 older = store.insert(syntheticRun(other, matmulReluGraph(other)), &error);
    ASSERT_GT(older, 0) << error.toStdString();

    ps::ui::MainWindow window(windowOptions(dir));
    window.show();
    const QString endless = fixtureScript("endless_loop.py");
    ASSERT_TRUE(window.openPath(endless));
    std::optional<ps::model::Stage> stage;
    QObject::connect(
        window.worker(), &ps::ui::WorkerClient::stageChanged, [&](ps::model::Stage s, const QString&) { stage = s; });
    window.runAction()->trigger();
    ASSERT_TRUE(waitFor([&]() { return stage == ps::model::Stage::Script; }, 300000)) << "the script never started";
    // What the stage does now is shown beside it (a long lowering is seen to move).
    emit window.worker()->stageDetail(QStringLiteral("inductor lowering: code_gen"));
    EXPECT_TRUE(window.report()->header()->progressText().contains("inductor lowering: code_gen"))
        << window.report()->header()->progressText().toStdString();
    EXPECT_FALSE(window.openStoredRun(older));
    EXPECT_EQ(window.editor()->filePath(), endless);
    EXPECT_TRUE(window.isRunning());
    EXPECT_EQ(window.report()->run(), nullptr) << "the running script's report was replaced";
    EXPECT_TRUE(window.notice()->text().contains(QStringLiteral("is not opened while endless_loop.py runs")))
        << window.notice()->text().toStdString();
    window.cancelAction()->trigger();
    ASSERT_TRUE(waitFor([&]() { return !window.isRunning(); }, 20000));
    EXPECT_TRUE(window.openStoredRun(older));  // once the run ended, it opens
}

TEST_F(UiRun, ClosingTheWindowDuringARunKillsTheWorkerAtOnce)
{
    auto window = std::make_unique<ps::ui::MainWindow>(windowOptions(dir));
    window->show();
    ASSERT_TRUE(window->openPath(fixtureScript("endless_loop.py")));
    std::optional<ps::model::Stage> stage;
    QObject::connect(
        window->worker(), &ps::ui::WorkerClient::stageChanged, [&](ps::model::Stage s, const QString&) { stage = s; });
    window->runAction()->trigger();
    ASSERT_TRUE(waitFor([&]() { return stage == ps::model::Stage::Script; }, 300000));
    // It asks first; keeping the run keeps the window and the run.
    const auto answerClose = [&](const QString& button) {
        QString asked;
        QTimer::singleShot(0, [&]() {
            waitFor([]() { return qobject_cast<QMessageBox*>(QApplication::activeModalWidget()) != nullptr; }, 5000);
            if (auto* box = qobject_cast<QMessageBox*>(QApplication::activeModalWidget())) {
                asked = box->text();
                for (QAbstractButton* b : box->buttons())
                    if (b->text() == button)
                        b->click();
            }
        });
        return std::pair{window->close(), asked};
    };
    const auto [closedWhileKept, question] = answerClose("Keep Running");
    EXPECT_FALSE(closedWhileKept);
    EXPECT_TRUE(question.contains("Stop the run and close")) << question.toStdString();
    EXPECT_TRUE(window->isVisible());
    EXPECT_TRUE(window->isRunning());

    QElapsedTimer clock;
    clock.start();
    EXPECT_TRUE(answerClose("Stop the Run and Close").first);
    window.reset();
    EXPECT_LT(clock.elapsed(), 8000);
}

TEST_F(UiRun, AWorkerCrashIsSaidAndAFreshWorkerServesTheNextRun)
{
    ps::ui::MainWindow window(windowOptions(dir));
    window.show();
    QStringList events;
    QObject::connect(window.worker(), &ps::ui::WorkerClient::workerEvent, [&](const QString& e) { events << e; });
    ASSERT_TRUE(window.openPath(fixtureScript("calls_os_exit.py")));
    const auto crash = runAndWait(window);
    ASSERT_TRUE(crash);
    EXPECT_EQ(crash->report.status, ps::model::RunStatus::WorkerDied);
    const QString notice = window.notice()->text();
    EXPECT_TRUE(notice.contains("worker died")) << notice.toStdString();
    EXPECT_TRUE(notice.contains("os._exit")) << notice.toStdString();
    EXPECT_TRUE(notice.contains("fresh worker")) << notice.toStdString();
    EXPECT_FALSE(events.isEmpty());
    EXPECT_TRUE(window.logView()->toPlainText().contains("worker died"))
        << window.logView()->toPlainText().toStdString();
    EXPECT_EQ(window.report()->violationsView()->count(), 1);

    ASSERT_TRUE(window.openPath(fixtureScript("segfaults.py")));
    const auto segv = runAndWait(window);
    ASSERT_TRUE(segv);
    EXPECT_EQ(segv->report.status, ps::model::RunStatus::WorkerDied);
    EXPECT_TRUE(window.notice()->text().contains("signal")) << window.notice()->text().toStdString();

    ASSERT_TRUE(window.openPath(dir.write("tiny.py", tinyScript())));
    const auto next = runAndWait(window);
    ASSERT_TRUE(next);
    EXPECT_EQ(next->report.status, ps::model::RunStatus::Ok) << next->report.message;
    EXPECT_EQ(window.report()->tabText(ReportView::GraphTab),
        QString("Graph (%1)").arg(next->report.captures[0].json["graph"]["nodes"].get<int>()));
}

TEST_F(UiRun, OutputFloodStaysBoundedInTheLog)
{
    ps::ui::MainWindow window(windowOptions(dir));
    window.show();
    ASSERT_TRUE(window.openPath(fixtureScript("floods_output.py")));
    window.setBackendChoice("eager");
    const auto run = runAndWait(window);
    ASSERT_TRUE(run);
    EXPECT_LE(window.logView()->runChars(), ps::ui::LogView::kMaxRunChars);
    EXPECT_LE(window.logView()->document()->blockCount(), ps::ui::LogView::kMaxBlocks + 1);
}

}  // namespace

namespace {

TEST(UiDeepVerify, TheRunMenusDeepVerificationReachesTheWorker)
{
    QSettings().clear();
    TempDir dir;
    ps::ui::MainWindow window(windowOptions(dir));
    window.show();
    ASSERT_TRUE(window.openPath(dir.write("tiny.py", tinyScript())));
    for (bool deep : {false, true}) {
        window.deepVerifyAction()->setChecked(deep);
        auto run = runAndWait(window);
        ASSERT_TRUE(run);
        ASSERT_EQ(run->report.captures.size(), 1u);
        const auto& verify = run->report.captures[0].json["verify"];
        EXPECT_EQ(verify.value("/budget/deep"_json_pointer, !deep), deep) << verify.dump();
    }
}

}  // namespace

namespace {

TEST(UiProfile, RunProfileMakesAVerifiedRunWithAProfileAndRunDoesNot)
{
    QSettings().clear();
    TempDir dir;
    ps::ui::MainWindow window(windowOptions(dir));
    window.show();
    ASSERT_TRUE(window.openPath(dir.write("tiny.py", tinyScript())));
    auto* verify = window.findChild<QCheckBox*>("verifyToggle");
    ASSERT_TRUE(verify);
    verify->setChecked(false);  // Profile verifies all the same: it calls the verified artifact
    const auto profiled = runAndWait(window, 600000, window.profileAction());
    ASSERT_TRUE(profiled);
    ASSERT_EQ(profiled->report.captures.size(), 1u);
    const auto& capture = profiled->report.captures[0];
    ASSERT_TRUE(capture.profile) << capture.json.dump();
    EXPECT_TRUE(capture.profile->error.empty()) << capture.profile->error;
    EXPECT_GE(capture.profile->calls, 1);
    EXPECT_FALSE(capture.profile->kernels.empty());
    EXPECT_EQ(capture.json.value("/verify/ran"_json_pointer, false), true);
    const auto plain = runAndWait(window);
    ASSERT_TRUE(plain);
    EXPECT_FALSE(plain->report.captures.at(0).profile);
}

}  // namespace
