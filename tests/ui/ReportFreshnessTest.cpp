// The report says whose it is and never passes off old results as current: the header names
// the script, the run and what ran; another script, an edit or a cancel marks it; a new run
// clears it and shows its progress; a reopened script shows its last stored run; the worker
// indicator follows the worker's own messages.
#include "UiTestSupport.h"

#include "ui/common/FadeOverlay.h"
#include "ui/editor/ScriptEditor.h"
#include "ui/graph/GraphView.h"
#include "ui/library/RunStore.h"
#include "ui/report/CacheView.h"
#include "ui/report/ReportHeader.h"
#include "ui/report/ReportView.h"
#include "ui/report/VerifyView.h"
#include "ui/report/ViolationsView.h"
#include "ui/run/RunDocument.h"
#include "ui/run/WorkerClient.h"
#include "ui/window/RunController.h"

#include <QAbstractScrollArea>
#include <QAction>
#include <QDockWidget>
#include <QHeaderView>
#include <QLabel>
#include <QScreen>
#include <QScrollBar>
#include <QSettings>
#include <QStatusBar>
#include <QTabWidget>
#include <QTest>
#include <QTreeWidget>
#include <QWindow>

#include <gtest/gtest.h>

using namespace ps::uitest;
using ps::ui::ReportView;

namespace {

class ReportFreshness : public ::testing::Test {
protected:
    void SetUp() override { QSettings().clear(); }

    /// Stores a synthetic run of `script` whose text was `text`; returns its id.
    qint64 store(const QString& script, const QByteArray& text, const std::string& status = "ok")
    {
        ps::ui::RunStore s(dir.file(QStringLiteral("library.sqlite3")));
        auto run = syntheticRun(script.toStdString(), syntheticGraph(12, script.toStdString(), 5), status);
        run.scriptText = text.toStdString();
        QString error;
        const qint64 id = s.insert(run, &error);
        EXPECT_GT(id, 0) << error.toStdString();
        return id;
    }

    /// Every pane of the report is disabled (greyed), or every one is usable.
    static bool panesEnabled(ReportView* report, bool enabled)
    {
        for (int i = 0; i < report->tabs()->count(); ++i)
            if (report->tabs()->widget(i)->isEnabled() != enabled)
                return false;
        return true;
    }

    TempDir dir;
};

TEST_F(ReportFreshness, TheHeaderNamesTheScriptTheStoredRunAndWhatRan)
{
    const QByteArray text = "x = 1\n";
    const QString a = dir.write("alpha.py", text);
    const qint64 id = store(a, text);
    ps::ui::MainWindow window(windowOptions(dir, /*prewarm=*/false));
    ASSERT_TRUE(window.openStoredRun(id));
    const QString identity = window.report()->identity();
    EXPECT_TRUE(identity.startsWith("alpha.py")) << identity.toStdString();
    EXPECT_TRUE(identity.contains(QString("stored run #%1").arg(id))) << identity.toStdString();
    // What the capture says it used, not what the Backend box asked for.
    EXPECT_TRUE(identity.contains("ran eager / make_fx")) << identity.toStdString();
    EXPECT_EQ(window.report()->staleReason(), QString());
    EXPECT_TRUE(panesEnabled(window.report(), true));
}

TEST_F(ReportFreshness, OpeningAnotherScriptGreysEveryPaneAndSaysWhoseTheReportIs)
{
    const QByteArray text = "x = 1\n";
    const QString a = dir.write("alpha.py", text);
    const QString b = dir.write("beta.py", "y = 2\n");
    const qint64 id = store(a, text);
    ps::ui::MainWindow window(windowOptions(dir, /*prewarm=*/false));
    ASSERT_TRUE(window.openStoredRun(id));
    ASSERT_TRUE(window.openPath(b));
    ReportView* report = window.report();
    EXPECT_TRUE(report->panesGreyed());
    EXPECT_TRUE(panesEnabled(report, false));
    EXPECT_NE(report->graphView()->findChild<ps::ui::FadeOverlay*>(), nullptr) << "the graph's coloured boxes fade too";
    EXPECT_TRUE(report->staleReason().contains(QString("stored run #%1 of alpha.py").arg(id)))
        << report->staleReason().toStdString();
    EXPECT_TRUE(report->staleReason().contains("beta.py")) << report->staleReason().toStdString();
    EXPECT_EQ(report->header()->staleText(), report->staleReason());

    // Back to the report's own script: current again.
    ASSERT_TRUE(window.openPath(a));
    EXPECT_EQ(report->staleReason(), QString());
    EXPECT_TRUE(panesEnabled(report, true));
    EXPECT_EQ(report->graphView()->findChild<ps::ui::FadeOverlay*>(), nullptr);
}

TEST_F(ReportFreshness, EditingTheScriptAfterARunMarksTheReportStale)
{
    const QByteArray text = "x = 1\n";
    const QString a = dir.write("alpha.py", text);
    const qint64 id = store(a, text);
    ps::ui::MainWindow window(windowOptions(dir, /*prewarm=*/false));
    ASSERT_TRUE(window.openStoredRun(id));
    ASSERT_EQ(window.report()->staleReason(), QString());
    auto* editor = window.editor();
    editor->setCursorPosition(0, 5);
    QTest::keyClicks(editor, "0");  // x = 10
    EXPECT_TRUE(window.report()->staleReason().contains("script changed since this run"))
        << window.report()->staleReason().toStdString();
    EXPECT_FALSE(window.report()->panesGreyed());  // still usable: one fixes what it lists
    // Typed back to the text the run was made from: current again.
    QTest::keyClick(editor, Qt::Key_Backspace);
    EXPECT_EQ(editor->text(), QString::fromUtf8(text));
    EXPECT_EQ(window.report()->staleReason().toStdString(), "");
}

TEST_F(ReportFreshness, ReopeningAScriptShowsItsLastStoredRunMarkedStaleWhenTheTextDiffers)
{
    const QByteArray text = "x = 1\n";
    const QString a = dir.write("alpha.py", text);
    const QString b = dir.write("beta.py", "y = 2\n");
    store(a, text);
    const qint64 last = store(a, "x = 0\n");  // newest, made from an older text
    store(b, "y = 2\n");
    {
        ps::ui::MainWindow window(windowOptions(dir, /*prewarm=*/false));
        ASSERT_TRUE(window.openPath(a));
        ASSERT_TRUE(window.report()->run());
        EXPECT_EQ(window.report()->run()->report.runId.value_or(0), last);
        EXPECT_TRUE(window.report()->identity().contains(QString("stored run #%1").arg(last)));
        EXPECT_TRUE(window.report()->staleReason().contains("script changed since this run"))
            << window.report()->staleReason().toStdString();
        window.close();  // saves the last script for the next launch
    }
    // The next launch reopens the script and its last run with it.
    auto options = windowOptions(dir, /*prewarm=*/false);
    options.restoreState = true;
    ps::ui::MainWindow again(options);
    ASSERT_EQ(again.editor()->filePath(), a);
    ASSERT_TRUE(again.report()->run());
    EXPECT_EQ(again.report()->run()->report.runId.value_or(0), last);
}

TEST_F(ReportFreshness, TheViolationsTabCountsWhatItsListShows)
{
    ReportView report;
    auto died = std::make_shared<ps::ui::RunDocument>();
    died->report = ps::model::Report::failed("/tmp/x.py", ps::model::RunStatus::WorkerDied, "the worker was killed");
    report.showRun(died);
    ASSERT_EQ(report.violationsView()->count(), 1);
    EXPECT_EQ(report.tabText(ReportView::ViolationsTab), QString("Violations (1 error)"));
    EXPECT_EQ(report.violationsView()->countsText(), QString("1 error"));

    auto violation = std::make_shared<ps::ui::RunDocument>(
        syntheticRun("/tmp/x.py", syntheticGraph(5, "/tmp/x.py", 3), "violation"));
    report.showRun(violation);
    EXPECT_EQ(report.tabText(ReportView::ViolationsTab), QString("Violations (1 violation)"));

    auto ok = std::make_shared<ps::ui::RunDocument>(syntheticRun("/tmp/x.py", syntheticGraph(5, "/tmp/x.py", 3)));
    report.showRun(ok);
    EXPECT_EQ(report.tabText(ReportView::ViolationsTab), QString("Violations (0)"));
}

// ---- through the real worker -------------------------------------------------------------------

TEST_F(ReportFreshness, ARunClearsTheLastResultsShowsItsStagesAndACancelBringsBackTheOldRunMarked)
{
    // Ends at once, unless the file `hold` exists: then it loops until cancelled.
    const QString hold = dir.file("hold");
    const QString script = dir.write("slow.py",
        QString("import os, time\n"
                "import torch\n"
                "\n"
                "def fn(x):\n"
                "    return x * 2 + 1\n"
                "\n"
                "example_inputs = (torch.ones(3),)\n"
                "backend = 'eager'\n"
                "while os.path.exists(%1):\n"
                "    time.sleep(0.05)\n")
            .arg(QString::fromStdString(nlohmann::json(hold.toStdString()).dump()))
            .toUtf8());
    ps::ui::MainWindow window(windowOptions(dir));
    window.show();
    ASSERT_TRUE(window.openPath(script));
    const auto first = runAndWait(window);
    ASSERT_TRUE(first);
    ASSERT_EQ(first->report.status, ps::model::RunStatus::Ok) << first->report.message;
    ReportView* report = window.report();
    EXPECT_TRUE(report->identity().contains(QString("slow.py · run #%1").arg(*first->report.runId)))
        << report->identity().toStdString();
    EXPECT_TRUE(report->identity().contains("ran eager / make_fx")) << report->identity().toStdString();
    ASSERT_TRUE(report->graphView()->graph());

    dir.write("hold", "");
    std::shared_ptr<const ps::ui::RunDocument> second;
    QObject::connect(&window, &ps::ui::MainWindow::runFinished,
        [&](const std::shared_ptr<const ps::ui::RunDocument>& r) { second = r; });
    QStringList progress;
    QObject::connect(window.worker(), &ps::ui::WorkerClient::stageChanged,
        [&](ps::model::Stage, const QString&) { progress << report->header()->progressText(); });
    window.runAction()->trigger();
    // At once: nothing of the last run stays up, and the header shows the run going.
    EXPECT_EQ(report->run(), nullptr);
    EXPECT_EQ(report->graphView()->graph(), nullptr);
    EXPECT_EQ(report->violationsView()->count(), 0);
    EXPECT_EQ(report->verifyView()->comparisonCount(), 0);
    EXPECT_EQ(report->cacheView()->entryCount(), 0);
    EXPECT_TRUE(report->header()->progressShown());
    EXPECT_TRUE(report->identity().contains("slow.py · running")) << report->identity().toStdString();
    ASSERT_TRUE(waitFor([&]() { return report->header()->progressText().contains("running the script"); }, 300000))
        << report->header()->progressText().toStdString();
    const int steps = static_cast<int>(window.runs()->plannedStages().size());
    EXPECT_TRUE(report->header()->progressText().startsWith(QString("step 2 of %1: running the script").arg(steps)))
        << report->header()->progressText().toStdString();
    EXPECT_EQ(report->header()->progressMaximum(), steps);
    EXPECT_EQ(report->header()->progressValue(), 1);
    EXPECT_FALSE(progress.isEmpty());

    window.cancelAction()->trigger();
    ASSERT_TRUE(waitFor([&]() { return second != nullptr; }, 30000));
    EXPECT_EQ(second->report.status, ps::model::RunStatus::Cancelled);
    EXPECT_FALSE(report->header()->progressShown());
    // The run before comes back, but marked: it is not this run's result.
    ASSERT_TRUE(report->run());
    EXPECT_EQ(report->run()->report.runId, first->report.runId);
    EXPECT_TRUE(report->staleReason().startsWith(
        QString("Run cancelled; showing run #%1 of slow.py from before.").arg(*first->report.runId)))
        << report->staleReason().toStdString();
}

TEST_F(ReportFreshness, TheWorkerIndicatorFollowsTheWorkersOwnState)
{
    using State = ps::ui::WorkerClient::State;
    ps::ui::MainWindow window(windowOptions(dir));
    window.show();
    QList<State> states;
    QObject::connect(window.worker(), &ps::ui::WorkerClient::stateChanged, [&](State s) { states << s; });
    auto indicatorSays = [&](const QString& text) {
        for (const QLabel* l : window.statusBar()->findChildren<QLabel*>())
            if (l->text() == text)
                return true;
        return false;
    };
    ASSERT_TRUE(waitFor([&]() { return window.worker()->state() == State::Ready; }, 300000))
        << window.worker()->stateText().toStdString();
    ASSERT_GE(states.size(), 2);
    EXPECT_EQ(states.front(), State::Starting);
    EXPECT_TRUE(
        window.worker()->stateText().startsWith(QStringLiteral("worker: ready · torch ") + PS_TEST_TORCH_SERIES))
        << window.worker()->stateText().toStdString();
    EXPECT_TRUE(indicatorSays(window.worker()->stateText()));
    // The worker's hello is what made it ready: its versions are known now, before any run.
    ASSERT_TRUE(window.worker()->hello().has_value());

    ASSERT_TRUE(window.openPath(dir.write("tiny.py", tinyScript())));
    states.clear();
    window.runAction()->trigger();
    EXPECT_EQ(window.worker()->state(), State::Running);
    EXPECT_TRUE(indicatorSays("worker: running"));
    ASSERT_TRUE(waitFor([&]() { return !window.isRunning(); }, 300000));
    ASSERT_TRUE(waitFor([&]() { return window.worker()->state() == State::Ready; }, 300000))
        << window.worker()->stateText().toStdString();
    // Each worker serves one run: the next one starts, and is ready once it says hello.
    EXPECT_EQ(states, (QList<State>{State::Running, State::Restarting, State::Ready}));
}

}  // namespace

namespace {

/// What the screen shows of `widget` now (the window's backing store) against what the widget
/// draws when asked afresh: equal unless stale pixels were left behind.
int pixelsOffScreen(QWidget* widget)
{
    QWidget* window = widget->window();
    const QImage shown
        = window->windowHandle()->screen()->grabWindow(window->winId()).toImage().convertToFormat(QImage::Format_RGB32);
    const QRect area(widget->mapTo(window, QPoint(0, 0)), widget->size());
    const QImage onScreen = shown.copy(area);
    const QImage fresh = widget->grab().toImage().convertToFormat(QImage::Format_RGB32);
    if (onScreen.size() != fresh.size())
        return -1;
    int differing = 0;
    for (int y = 0; y < fresh.height(); ++y)
        for (int x = 0; x < fresh.width(); ++x)
            differing += onScreen.pixel(x, y) != fresh.pixel(x, y);
    return differing;
}

/// Processes events until what the screen shows of `widget`'s window stops changing.
bool paintingSettled(QWidget* widget)
{
    QWidget* window = widget->window();
    return waitForSettled(
        [&]() {
            const QImage shown = window->windowHandle()->screen()->grabWindow(window->winId()).toImage();
            return qHashBits(shown.constBits(), size_t(shown.sizeInBytes()));
        },
        10000);
}

}  // namespace

TEST_F(ReportFreshness, AGreyedReportScrollsWithoutGhosts)
{
    const QByteArray text = "x = 1\n";
    const QString a = dir.write("alpha.py", text);
    const QString b = dir.write("beta.py", "y = 2\n");
    const qint64 id = store(a, text);
    ps::ui::MainWindow window(windowOptions(dir, /*prewarm=*/false));
    window.resize(1280, 800);
    window.show();
    ASSERT_TRUE(QTest::qWaitForWindowExposed(&window));
    ASSERT_TRUE(window.openStoredRun(id));
    ReportView* report = window.report();
    report->tabs()->setCurrentWidget(report->graphView());
    ASSERT_TRUE(waitFor([&]() { return !report->graphView()->layoutPending(); }, 10000));
    ASSERT_TRUE(window.openPath(b));
    ASSERT_TRUE(report->panesGreyed());
    ASSERT_TRUE(paintingSettled(&window));

    // Scrolling a greyed pane (the wheel, a scroll bar) must repaint it, faded, not shift old pixels.
    QAbstractScrollArea* canvas = report->graphView()->findChild<QAbstractScrollArea*>();
    ASSERT_NE(canvas, nullptr);
    for (QScrollBar* bar : {canvas->verticalScrollBar(), canvas->horizontalScrollBar()})
        bar->setValue(bar->minimum() + (bar->maximum() - bar->minimum()) / 3);
    ASSERT_TRUE(paintingSettled(&window));
    EXPECT_EQ(pixelsOffScreen(report->graphView()), 0);
    // Still faded: the greyed graph is lighter than the current one.
    const QImage faded = report->graphView()->grab().toImage();
    ASSERT_TRUE(window.openPath(a));
    ASSERT_TRUE(paintingSettled(&window));
    EXPECT_FALSE(report->panesGreyed());
    const QImage current = report->graphView()->grab().toImage();
    const auto darkPixels = [](const QImage& image) {
        int dark = 0;
        for (int y = 0; y < image.height(); y += 2)
            for (int x = 0; x < image.width(); x += 2)
                dark += qGray(image.pixel(x, y)) < 128;
        return dark;
    };
    EXPECT_LT(darkPixels(faded), darkPixels(current) / 2 + 1) << darkPixels(faded) << " vs " << darkPixels(current);
}

TEST_F(ReportFreshness, AGreyedVerifyTabFadesItsChartsAsMuchAsItsRows)
{
    // A stored run whose capture was verified and timed: the Verify tab shows its two charts.
    const QByteArray text = "x = 1\n";
    const QString a = dir.write("alpha.py", text);
    const QString b = dir.write("beta.py", "y = 2\n");
    qint64 id = 0;
    {
        ps::ui::RunStore s(dir.file(QStringLiteral("library.sqlite3")));
        auto run = syntheticRun(a.toStdString(), syntheticGraph(12, a.toStdString(), 5));
        run.scriptText = text.toStdString();
        nlohmann::json report = run.report.toJson();
        report["captures"][0]["verify"] = {{"ran", true}, {"status", "ok"}, {"matches_eager", true}, {"calls", 1}};
        report["captures"][0]["timings_s"] = {{"load", 0.2}, {"call", 0.1}, {"call_eager", 0.3}};
        run.report = ps::model::Report::fromJson(report);
        QString error;
        id = s.insert(run, &error);
        ASSERT_GT(id, 0) << error.toStdString();
    }
    ps::ui::MainWindow window(windowOptions(dir, /*prewarm=*/false));
    window.resize(1280, 800);
    // Without the docks under it the Verify tab is tall enough for its charts.
    for (const char* dock : {"libraryDock", "logDock"})
        window.findChild<QDockWidget*>(QString::fromLatin1(dock))->hide();
    window.show();
    ASSERT_TRUE(QTest::qWaitForWindowExposed(&window));
    ASSERT_TRUE(window.openStoredRun(id));
    ReportView* report = window.report();
    report->tabs()->setCurrentWidget(report->verifyView());
    ASSERT_FALSE(report->verifyView()->chartValues().empty());
    const auto charts = report->verifyView()->findChildren<QAbstractScrollArea*>("verifyChart");
    ASSERT_EQ(charts.size(), 2);
    auto* rows = report->verifyView()->findChild<QTreeWidget*>();
    ASSERT_NE(rows, nullptr);
    ASSERT_TRUE(paintingSettled(&window));
    // What the screen shows of a widget: how many pixels have the bars' colour, and the darkest
    // grey (the text: a chart's title and labels, the rows' header).
    const QRgb bar = report->verifyView()->palette().color(QPalette::Highlight).rgb();
    const auto onScreen = [&](QWidget* w) {
        return window.windowHandle()
            ->screen()
            ->grabWindow(window.winId())
            .toImage()
            .copy(QRect(w->mapTo(&window, QPoint(0, 0)), w->size()));
    };
    const auto barPixels = [&](QWidget* w) {
        const QImage shown = onScreen(w);
        int n = 0;
        for (int y = 0; y < shown.height(); ++y)
            for (int x = 0; x < shown.width(); ++x)
                n += (shown.pixel(x, y) & 0xffffff) == (bar & 0xffffff);
        return n;
    };
    const auto darkest = [&](QWidget* w) {
        const QImage shown = onScreen(w);
        int grey = 255;
        for (int y = 0; y < shown.height(); ++y)
            for (int x = 0; x < shown.width(); ++x)
                grey = std::min(grey, qGray(shown.pixel(x, y)));
        return grey;
    };
    for (QWidget* chart : charts) {
        ASSERT_GT(barPixels(chart), 50) << chart->width() << "x" << chart->height();
        ASSERT_LT(darkest(chart), 64);
    }

    ASSERT_TRUE(window.openPath(b));
    ASSERT_TRUE(report->panesGreyed());
    ASSERT_TRUE(paintingSettled(&window));
    // Faded as the rows are: no bar in its own colour, no text darker than the rows' header's.
    const int header = darkest(rows->header());
    EXPECT_GT(header, 160);
    for (QWidget* chart : charts) {
        EXPECT_EQ(barPixels(chart), 0);
        EXPECT_GE(darkest(chart), header - 24) << "the rows' header: " << header;
    }
    // Switching tabs away and back, and resizing, keep them so.
    report->tabs()->setCurrentWidget(report->graphView());
    ASSERT_TRUE(paintingSettled(&window));
    report->tabs()->setCurrentWidget(report->verifyView());
    window.resize(1300, 820);
    ASSERT_TRUE(paintingSettled(&window));
    for (QWidget* chart : charts)
        EXPECT_GE(darkest(chart), header - 24);
    // Current again: the charts in their colours.
    ASSERT_TRUE(window.openPath(a));
    ASSERT_TRUE(paintingSettled(&window));
    ASSERT_FALSE(report->panesGreyed());
    for (QWidget* chart : charts) {
        EXPECT_GT(barPixels(chart), 50);
        EXPECT_LT(darkest(chart), 64);
    }
}
