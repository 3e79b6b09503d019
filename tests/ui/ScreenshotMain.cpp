// ui_screenshot OUT.png [BACKEND]: opens the window on the bundled training-step example, runs
// it through the real worker, selects a node (so the cross-selection shows), and writes the
// window as a PNG. Meant for Xvfb (xvfb-run), where the window is laid out as on a desktop.
// PS_SHOT_SCRIPT=FILE runs another script (PS_SHOT_USER_ENV=VENV: with the user's environment); PS_SHOT_DARK=1 uses a
// dark palette. OUT-running.png: the window while the run captures. PS_SHOT_TAB=graph: only the Graph tab, as the graph
// opens (fitted, nothing selected), and OUT-expanded.png (all of it expanded, fitted); nothing after. Then
// OUT-lessons.png (the Lessons window after running inv1-closed-over-tensor; PS_SHOT_ONLY=lessons: only that, at
// PS_SHOT_SIZE, as OUT.png, and the main window as OUT-main.png), OUT-graph-10k.png (a synthetic 10,000-node
// training graph as the Graph tab opens it, its largest module expanded) and OUT-graph-10k-fit.png / -third.png (all of
// it expanded, fitted, then at 35 %).
// PS_SHOT_COMPARE=LIBRARY:A:B: only the Compare window of runs A and B of that library, at PS_SHOT_SIZE (1400x900):
// OUT.png (as it opens), OUT-selected.png (Graph: the first changed, else a matched, node selected on both sides),
// OUT-zoomed.png (the same at 1:1, both sides moved together), OUT-code.png, OUT-table.png, OUT-expanded.png (every
// module expanded on both sides, fitted).
#include "SyntheticGraph.h"

#include "compare/RunDiff.h"
#include "graph/GraphModel.h"
#include "graph/ModuleTree.h"
#include "ui/common/SideBySideDiffView.h"
#include "ui/compare/CompareGraphPane.h"
#include "ui/compare/CompareView.h"
#include "ui/graph/GraphCanvas.h"
#include "ui/graph/GraphView.h"
#include "ui/lessons/LessonsView.h"
#include "ui/lessons/LessonsWindow.h"
#include "ui/library/RunStore.h"
#include "ui/report/ReportHeader.h"
#include "ui/report/ReportView.h"
#include "ui/run/RunDocument.h"
#include "ui/window/MainWindow.h"

#include <QAction>
#include <QApplication>
#include <QDir>
#include <QDockWidget>
#include <QElapsedTimer>
#include <QFileInfo>
#include <QPalette>
#include <QSettings>
#include <QTabWidget>
#include <QTemporaryDir>
#include <QThread>

#include <cstdio>

namespace {

/// Processes events until `done` holds or `ms` pass.
template <typename Done> bool spinUntil(Done done, int ms)
{
    QElapsedTimer t;
    t.start();
    while (!done() && t.elapsed() < ms) {
        QCoreApplication::processEvents(QEventLoop::AllEvents, 20);
        QThread::msleep(5);
    }
    return done();
}

/// The Lessons window at `size` after inv1-closed-over-tensor ran both ways, written to `file`;
/// then closed (its worker stopped).
bool shootLessons(ps::ui::MainWindow& window, const QString& file, const QSize& size)
{
    window.showLessons();
    auto* lessonsWindow = window.lessonsWindow();
    lessonsWindow->resize(size);
    auto* lessons = window.lessonsView();
    bool lessonDone = false;
    QObject::connect(lessons, &ps::ui::LessonsView::finished, [&]() { lessonDone = true; });
    if (!lessons->selectLesson(QStringLiteral("inv1-closed-over-tensor")) || !lessons->runBoth()) {
        std::fprintf(stderr, "ui_screenshot: the lesson did not start: %s\n", qPrintable(lessons->problem()));
        return false;
    }
    if (!spinUntil([&]() { return lessonDone; }, 600000)) {
        std::fprintf(stderr, "ui_screenshot: the lesson did not finish\n");
        return false;
    }
    spinUntil([]() { return false; }, 300);
    QDir().mkpath(QFileInfo(file).path());
    lessonsWindow->grab().save(file);
    std::printf("wrote %s (%dx%d; columns shown: broken.py %d, fixed.py %d)\n", qPrintable(file),
        lessonsWindow->width(), lessonsWindow->height(), lessons->diffView()->visibleColumns(0),
        lessons->diffView()->visibleColumns(1));
    lessonsWindow->close();
    return true;
}

}  // namespace

/// The Compare window of two stored runs ("LIBRARY:A:B"), its tabs written beside `out`.
int shootCompare(const QString& spec, const QString& out, const QSize& size)
{
    const int second = spec.lastIndexOf(':');
    const int first = spec.lastIndexOf(':', second - 1);
    ps::ui::RunStore store(spec.left(first));
    ps::compare::RunSide sides[2];
    const qint64 ids[2] = {spec.mid(first + 1, second - first - 1).toLongLong(), spec.mid(second + 1).toLongLong()};
    for (int k = 0; k < 2; ++k) {
        QString error;
        if (!store.compareSide(ids[k], &sides[k], &error)) {
            std::fprintf(stderr, "run #%lld: %s\n", static_cast<long long>(ids[k]), qPrintable(error));
            return 1;
        }
    }
    ps::ui::CompareView view(std::move(sides[0]), std::move(sides[1]));
    view.setAttribute(Qt::WA_DeleteOnClose, false);
    view.resize(size);
    view.show();
    auto* pane = view.graphPane();
    // Settled: both graphs opened (CompareOpening done), no layout on its way.
    auto settled = [&]() {
        for (int k = 0; k < 2; ++k)
            if (pane->view(k)->layoutPending() || (pane->view(k)->graph() && !pane->view(k)->moduleTree()))
                return false;
        return pane->view(0)->moduleTree() && !pane->opening();
    };
    spinUntil(settled, 60000);
    spinUntil([]() { return false; }, 500);
    const auto sibling
        = [&](const char* suffix) { return QFileInfo(out).path() + "/" + QFileInfo(out).completeBaseName() + suffix; };
    view.grab().save(out);
    const auto& captures = view.diff().captures();
    if (!captures.empty()) {
        const auto& graph = captures.front().graph;
        int node = -1;
        if (!graph.changed().empty())
            node = pane->matchOf(1, graph.changed().front().b) >= 0 ? graph.changed().front().b : -1;
        if (node < 0 && !graph.matched().empty())
            node = graph.matched()[graph.matched().size() / 2].second;
        if (node >= 0) {
            view.tabs()->setCurrentIndex(ps::ui::CompareView::GraphTab);
            pane->view(1)->selectNodes({node}, true);
            spinUntil(settled, 60000);
            spinUntil([]() { return false; }, 500);
            view.grab().save(sibling("-selected.png"));
            // Zoomed in on it (B leads): A follows, its match beside it ("Move together").
            ps::ui::GraphCanvas* canvas = pane->view(1)->canvas();
            canvas->setZoom(1.0);
            canvas->centerOn(pane->view(1)->nodeCenter(node));
            spinUntil([]() { return false; }, 500);
            view.grab().save(sibling("-zoomed.png"));
        }
    }
    view.tabs()->setCurrentIndex(ps::ui::CompareView::CodeTab);
    spinUntil([]() { return false; }, 300);
    view.grab().save(sibling("-code.png"));
    view.tabs()->setCurrentIndex(ps::ui::CompareView::TableTab);
    spinUntil([]() { return false; }, 300);
    view.grab().save(sibling("-table.png"));
    // Every module expanded on A (B follows), both fitted: every node in its diff colour.
    view.tabs()->setCurrentIndex(ps::ui::CompareView::GraphTab);
    pane->view(0)->expandAll();
    spinUntil(settled, 60000);
    for (int k = 0; k < 2; ++k)
        pane->view(k)->zoomToFit();
    spinUntil([]() { return false; }, 500);
    view.grab().save(sibling("-expanded.png"));
    std::printf("wrote %s and its -selected, -code, -table, -expanded siblings\n", qPrintable(out));
    return 0;
}

int main(int argc, char** argv)
{
    if (argc < 2) {
        std::fprintf(stderr, "usage: ui_screenshot OUT.png [inductor|eager]\n");
        return 2;
    }
    QTemporaryDir home(QDir::tempPath() + QStringLiteral("/ps-ui-shot-XXXXXX"));
    QSettings::setDefaultFormat(QSettings::IniFormat);
    QSettings::setPath(QSettings::IniFormat, QSettings::UserScope, home.filePath(QStringLiteral("config")));
    QApplication app(argc, argv);
    // PS_SHOT_DARK=1: a dark palette, to see that every view follows it.
    if (qEnvironmentVariableIntValue("PS_SHOT_DARK")) {
        QApplication::setStyle(QStringLiteral("Fusion"));
        QPalette dark;
        dark.setColor(QPalette::Window, QColor(45, 45, 48));
        dark.setColor(QPalette::WindowText, QColor(220, 220, 220));
        dark.setColor(QPalette::Base, QColor(30, 30, 32));
        dark.setColor(QPalette::AlternateBase, QColor(40, 40, 44));
        dark.setColor(QPalette::Text, QColor(220, 220, 220));
        dark.setColor(QPalette::Button, QColor(50, 50, 54));
        dark.setColor(QPalette::ButtonText, QColor(220, 220, 220));
        dark.setColor(QPalette::Highlight, QColor(60, 120, 200));
        dark.setColor(QPalette::HighlightedText, Qt::white);
        dark.setColor(QPalette::PlaceholderText, QColor(140, 140, 140));
        QApplication::setPalette(dark);
    }
    QApplication::setOrganizationName(QStringLiteral("precompile-studio-shot"));
    QApplication::setApplicationVersion(QStringLiteral("0.1.0"));
    const QString out = QFileInfo(QString::fromLocal8Bit(argv[1])).absoluteFilePath();
    const QString backend = argc > 2 ? QString::fromLocal8Bit(argv[2]) : QStringLiteral("inductor");
    if (qEnvironmentVariableIsSet("PS_SHOT_COMPARE")) {
        const QStringList wh = qEnvironmentVariable("PS_SHOT_SIZE", QStringLiteral("1400x900")).split('x');
        return shootCompare(qEnvironmentVariable("PS_SHOT_COMPARE"), out,
            QSize(wh.value(0).toInt() > 0 ? wh.value(0).toInt() : 1400,
                wh.value(1).toInt() > 0 ? wh.value(1).toInt() : 900));
    }

    ps::ui::MainWindowOptions options;
    options.libraryPath = home.filePath(QStringLiteral("library.sqlite3"));
    options.restoreState = false;
    options.pythonEnv = qEnvironmentVariable("PS_SHOT_USER_ENV");  // the user's own environment (--python-env)
    ps::ui::MainWindow window(options);
    // PS_SHOT_SIZE=WxH: another window size (1500x920 by default).
    const QStringList size = qEnvironmentVariable("PS_SHOT_SIZE", QStringLiteral("1500x920")).split('x');
    window.resize(size.value(0).toInt() > 0 ? size.value(0).toInt() : 1500,
        size.value(1).toInt() > 0 ? size.value(1).toInt() : 920);
    window.show();
    if (qEnvironmentVariable("PS_SHOT_ONLY") == QStringLiteral("lessons")) {
        // And OUT-main.png: the main window beside it, as it was.
        const bool shot = shootLessons(window, out, window.size());
        const QString main = QFileInfo(out).path() + "/" + QFileInfo(out).completeBaseName() + "-main.png";
        window.grab().save(main);
        std::printf("wrote %s\n", qPrintable(main));
        return shot ? 0 : 1;
    }
    const QString script = qEnvironmentVariableIsEmpty("PS_SHOT_SCRIPT")
        ? QStringLiteral(PS_TEST_SOURCE_DIR "/resources/examples/training_step.py")
        : qEnvironmentVariable("PS_SHOT_SCRIPT");
    if (!window.openPath(script))
        return 1;
    window.setBackendChoice(backend);

    std::shared_ptr<const ps::ui::RunDocument> run;
    QObject::connect(&window, &ps::ui::MainWindow::runFinished,
        [&](const std::shared_ptr<const ps::ui::RunDocument>& r) { run = r; });
    window.runAction()->trigger();
    QElapsedTimer clock;
    clock.start();
    auto spin = [&](auto done, int ms) {
        QElapsedTimer t;
        t.start();
        while (!done() && t.elapsed() < ms) {
            QCoreApplication::processEvents(QEventLoop::AllEvents, 20);
            QThread::msleep(5);
        }
        return done();
    };
    // The run in progress, once it captures (its stage in the report's header): OUT-running.png.
    auto* header = window.report()->header();
    if (spin([&]() { return run != nullptr || (header->progressShown() && header->progressValue() >= 2); }, 600000)
        && !run) {
        const QString running = QFileInfo(out).path() + "/" + QFileInfo(out).completeBaseName() + "-running.png";
        QDir().mkpath(QFileInfo(out).path());
        window.grab().save(running);
        std::printf("wrote %s (%s)\n", qPrintable(running), qPrintable(header->progressText()));
    }
    if (!spin([&]() { return run != nullptr; }, 600000)) {
        std::fprintf(stderr, "ui_screenshot: the run did not finish\n");
        return 1;
    }
    std::printf("run: %s (%s) in %.1f s\n", std::string(ps::model::toString(run->report.status)).c_str(),
        run->report.message.c_str(), static_cast<double>(clock.elapsed()) / 1000.0);
    auto* graph = window.report()->graphView();
    window.report()->tabs()->setCurrentIndex(ps::ui::ReportView::GraphTab);
    spin([&]() { return !graph->layoutPending(); }, 20000);
    if (qEnvironmentVariable("PS_SHOT_TAB") == QStringLiteral("graph")) {
        // The script's graph alone: as it opens (fitted, nothing selected), then all of it
        // expanded and fitted (OUT-expanded.png); nothing else.
        spin([]() { return false; }, 500);
        QDir().mkpath(QFileInfo(out).path());
        const bool saved = window.grab().save(out);
        std::printf(
            "wrote %s (zoom %.4f, %d boxes)\n", qPrintable(out), graph->canvas()->zoom(), graph->visibleItemCount());
        graph->expandAll();
        spin([&]() { return !graph->layoutPending(); }, 120000);
        graph->zoomToFit();
        spin([]() { return false; }, 500);
        const QString expanded = QFileInfo(out).path() + "/" + QFileInfo(out).completeBaseName() + "-expanded.png";
        window.grab().save(expanded);
        std::printf("wrote %s (zoom %.4f, %d boxes)\n", qPrintable(expanded), graph->canvas()->zoom(),
            graph->visibleItemCount());
        return saved && run->report.status == ps::model::RunStatus::Ok ? 0 : 1;
    }
    if (auto model = window.report()->currentGraph()) {
        const int node = model->indexOf("addmm");
        if (node >= 0)
            graph->selectNodes({node}, /*reveal=*/true);
    }
    spin([]() { return false; }, 500);  // let everything repaint
    QDir().mkpath(QFileInfo(out).path());
    if (!window.grab().save(out)) {
        std::fprintf(stderr, "ui_screenshot: cannot write %s\n", qPrintable(out));
        return 1;
    }
    std::printf("wrote %s\n", qPrintable(out));
    // The other tabs beside it (window-source.png, ...), to look at too.
    const QStringList names = {"graph", "source", "violations", "cache", "verify"};
    for (int tab = 1; tab < names.size(); ++tab) {
        window.report()->tabs()->setCurrentIndex(tab);
        spin([]() { return false; }, 300);
        const QString file
            = QFileInfo(out).path() + "/" + QFileInfo(out).completeBaseName() + "-" + names[tab] + ".png";
        window.grab().save(file);
        std::printf("wrote %s\n", qPrintable(file));
    }
    auto sibling
        = [&](const char* suffix) { return QFileInfo(out).path() + "/" + QFileInfo(out).completeBaseName() + suffix; };

    // The same graph coloured by the kernel inductor generated for each node.
    window.report()->tabs()->setCurrentIndex(ps::ui::ReportView::GraphTab);
    graph->setLens(ps::graph::Lens::Kernel);
    spin([]() { return false; }, 300);
    window.grab().save(sibling("-kernels.png"));
    std::printf("wrote %s (legend: %s)\n", qPrintable(sibling("-kernels.png")), qPrintable(graph->legend().join(", ")));
    graph->setLens(ps::graph::Lens::Kind);

    // The Lessons window, after a lesson ran both ways.
    if (!shootLessons(window, sibling("-lessons.png"), QSize(1400, 900)))
        return 1;

    // A 10,000-node graph as it opens, then with its largest module expanded.
    window.report()->tabs()->setCurrentIndex(ps::ui::ReportView::GraphTab);
    graph->setGraph(std::make_shared<ps::graph::GraphModel>(
        ps::graph::GraphModel::fromJson(ps::graphtest::transformerGraph(10000, 4))));
    spin([&]() { return !graph->layoutPending(); }, 60000);
    if (const auto* tree = graph->moduleTree(); tree && tree->largest() > 0) {
        graph->expandModule(QString::fromStdString(tree->module(tree->largest()).path));
        spin([&]() { return !graph->layoutPending(); }, 60000);
    }
    spin([]() { return false; }, 300);
    window.grab().save(sibling("-graph-10k.png"));
    std::printf("wrote %s\n", qPrintable(sibling("-graph-10k.png")));
    // Zoomed out: a 1,000-node graph, all of it expanded, fitted (boxes too small for text,
    // the modules named as regions), then at 35 % (each box keeps its title).
    graph->setGraph(std::make_shared<ps::graph::GraphModel>(
        ps::graph::GraphModel::fromJson(ps::graphtest::transformerGraph(1000, 2))));
    spin([&]() { return !graph->layoutPending(); }, 60000);
    graph->expandAll();
    spin([&]() { return !graph->layoutPending(); }, 60000);
    graph->zoomToFit();
    spin([]() { return false; }, 300);
    window.grab().save(sibling("-graph-1k-fit.png"));
    std::printf("wrote %s\n", qPrintable(sibling("-graph-1k-fit.png")));
    graph->canvas()->setZoom(0.35);
    graph->canvas()->centerOn(graph->nodeCenter(static_cast<int>(graph->graph()->nodes().size()) / 3));
    spin([]() { return false; }, 300);
    window.grab().save(sibling("-graph-1k-third.png"));
    std::printf("wrote %s\n", qPrintable(sibling("-graph-1k-third.png")));
    return run->report.status == ps::model::RunStatus::Ok || qEnvironmentVariableIsSet("PS_SHOT_SCRIPT") ? 0 : 1;
}
