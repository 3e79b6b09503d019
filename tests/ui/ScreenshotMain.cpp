// ui_screenshot OUT.png [BACKEND]: opens the window on the bundled training-step example, runs
// it through the real worker, selects a node (so the cross-selection shows), and writes the
// window as a PNG. Meant for Xvfb (xvfb-run), where the window is laid out as on a desktop.
// PS_SHOT_SCRIPT=FILE runs another script (PS_SHOT_USER_ENV=VENV: with the user's environment); PS_SHOT_DARK=1 uses a
// dark palette. Then OUT-lessons.png (the Lessons dock after running inv1-closed-over-tensor), OUT-graph-10k.png (a
// synthetic 10,000-node training graph as the Graph tab opens it, its largest module expanded) and
// OUT-graph-10k-fit.png / -third.png (all of it expanded, fitted, then at 35 %).
#include "SyntheticGraph.h"

#include "graph/GraphModel.h"
#include "graph/ModuleTree.h"
#include "ui/GraphCanvas.h"
#include "ui/GraphView.h"
#include "ui/LessonsView.h"
#include "ui/MainWindow.h"
#include "ui/ReportView.h"
#include "ui/RunDocument.h"

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
    if (!spin([&]() { return run != nullptr; }, 600000)) {
        std::fprintf(stderr, "ui_screenshot: the run did not finish\n");
        return 1;
    }
    std::printf("run: %s (%s) in %.1f s\n", std::string(ps::model::toString(run->report.status)).c_str(),
        run->report.message.c_str(), static_cast<double>(clock.elapsed()) / 1000.0);
    auto* graph = window.report()->graphView();
    window.report()->tabs()->setCurrentIndex(ps::ui::ReportView::GraphTab);
    spin([&]() { return !graph->layoutPending(); }, 20000);
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

    // The Lessons dock, after a lesson ran both ways.
    window.showLessons();
    auto* lessons = window.lessonsView();
    bool lessonDone = false;
    QObject::connect(lessons, &ps::ui::LessonsView::finished, [&]() { lessonDone = true; });
    if (!lessons->selectLesson(QStringLiteral("inv1-closed-over-tensor")) || !lessons->runBoth()) {
        std::fprintf(stderr, "ui_screenshot: the lesson did not start: %s\n", qPrintable(lessons->problem()));
        return 1;
    }
    if (!spin([&]() { return lessonDone; }, 600000)) {
        std::fprintf(stderr, "ui_screenshot: the lesson did not finish\n");
        return 1;
    }
    spin([]() { return false; }, 300);
    window.grab().save(sibling("-lessons.png"));
    std::printf("wrote %s\n", qPrintable(sibling("-lessons.png")));
    window.lessonsDock()->hide();

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
