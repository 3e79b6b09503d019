// bench_window: the window's two start-up figures.
//
//   window.shown            process start (fork+exec of a fresh process) to the main window's
//                           first paint, library opened, no run; median of N launches.
//   graph.first_paint.5k    openStoredRun() of a run whose graph has 5,000 nodes (read from the
//                           library, parsed, laid out off the UI thread, scene built) to the
//                           graph canvas's first paint; median of N.
//
// Qt's platform is what QT_QPA_PLATFORM says (offscreen when unset and there is no display).
// Prints a table, then one `BENCH <name> <value> <unit> <target>` line per figure.
#include "UiTestSupport.h"

#include "ui/graph/GraphCanvas.h"
#include "ui/graph/GraphView.h"
#include "ui/library/RunStore.h"
#include "ui/report/ReportView.h"
#include "ui/window/MainWindow.h"

#include <QApplication>
#include <QDir>
#include <QElapsedTimer>
#include <QSettings>
#include <QTabWidget>
#include <QTemporaryDir>
#include <QThread>
#include <QTimer>

#include <algorithm>
#include <chrono>
#include <cstdio>
#include <cstring>
#include <spawn.h>
#include <string>
#include <sys/wait.h>
#include <unistd.h>
#include <vector>

extern char** environ;

namespace {

double median(std::vector<double> v)
{
    std::sort(v.begin(), v.end());
    return v.empty() ? 0 : v[v.size() / 2];
}

void isolateSettings(const QString& dir)
{
    QSettings::setDefaultFormat(QSettings::IniFormat);
    QSettings::setPath(QSettings::IniFormat, QSettings::UserScope, dir + "/config");
}

void defaultPlatform()
{
    if (qEnvironmentVariableIsEmpty("QT_QPA_PLATFORM") && qEnvironmentVariableIsEmpty("DISPLAY")
        && qEnvironmentVariableIsEmpty("WAYLAND_DISPLAY"))
        qputenv("QT_QPA_PLATFORM", "offscreen");
}

// The child: a window as `precompile-studio` opens it; prints SHOWN at its first paint.
int child(int argc, char** argv, const char* dir)
{
    defaultPlatform();
    isolateSettings(QString::fromLocal8Bit(dir));
    QGuiApplication::setHighDpiScaleFactorRoundingPolicy(Qt::HighDpiScaleFactorRoundingPolicy::PassThrough);
    QApplication app(argc, argv);
    ps::ui::MainWindowOptions options;
    options.libraryPath = QString::fromLocal8Bit(dir) + "/library.sqlite3";
    options.prewarm = false;  // the real window starts its worker 200 ms after it is shown
    options.restoreState = false;
    ps::ui::MainWindow window(options);
    struct Filter : QObject {
        bool eventFilter(QObject*, QEvent* e) override
        {
            if (e->type() == QEvent::Paint && !done) {
                done = true;
                std::printf("SHOWN\n");
                std::fflush(stdout);
                QTimer::singleShot(0, qApp, &QCoreApplication::quit);
            }
            return false;
        }
        bool done = false;
    } filter;
    window.installEventFilter(&filter);
    window.show();
    return app.exec();
}

double launchOnce(const char* self, const std::string& dir)
{
    int pipeFd[2];
    if (::pipe(pipeFd) != 0)
        return -1;
    posix_spawn_file_actions_t actions;
    posix_spawn_file_actions_init(&actions);
    posix_spawn_file_actions_adddup2(&actions, pipeFd[1], 1);
    posix_spawn_file_actions_addclose(&actions, pipeFd[0]);
    std::string flag = "--child-show";
    char* argv[] = {const_cast<char*>(self), flag.data(), const_cast<char*>(dir.c_str()), nullptr};
    const auto t0 = std::chrono::steady_clock::now();
    pid_t pid = 0;
    const int rc = posix_spawn(&pid, self, &actions, nullptr, argv, environ);
    posix_spawn_file_actions_destroy(&actions);
    ::close(pipeFd[1]);
    if (rc != 0) {
        ::close(pipeFd[0]);
        return -1;
    }
    std::string out;
    char buf[256];
    double seconds = -1;
    while (true) {
        const ssize_t n = ::read(pipeFd[0], buf, sizeof buf);
        if (n <= 0)
            break;
        out.append(buf, static_cast<std::size_t>(n));
        if (out.find("SHOWN") != std::string::npos) {
            seconds = std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count();
            break;
        }
    }
    ::close(pipeFd[0]);
    int status = 0;
    ::waitpid(pid, &status, 0);
    return seconds;
}

}  // namespace

int main(int argc, char** argv)
{
    if (argc >= 3 && std::strcmp(argv[1], "--child-show") == 0)
        return child(argc, argv, argv[2]);
    int runs = 5;
    for (int i = 1; i + 1 < argc; ++i)
        if (std::strcmp(argv[i], "--runs") == 0)
            runs = std::max(1, std::atoi(argv[i + 1]));

    defaultPlatform();
    QTemporaryDir dir(QDir::tempPath() + "/ps-bench-window-XXXXXX");
    isolateSettings(dir.path());

    // 1. Process start to window shown (fresh processes, library file created by the first).
    std::vector<double> shown;
    char self[4096];
    const ssize_t len = ::readlink("/proc/self/exe", self, sizeof self - 1);
    if (len <= 0)
        return 2;
    self[len] = '\0';
    for (int i = 0; i < runs + 1; ++i) {
        const double s = launchOnce(self, dir.path().toStdString());
        if (s < 0) {
            std::fprintf(stderr, "bench_window: the child window did not show\n");
            return 2;
        }
        if (i > 0)  // the first launch also creates the library file and warms the page cache
            shown.push_back(s);
    }

    // 2. A stored run with a 5,000-node graph: open to first paint of the graph.
    QApplication app(argc, argv);
    const QString library = dir.filePath("library.sqlite3");
    const std::string script = dir.filePath("model.py").toStdString();
    qint64 bigId = 0, smallId = 0;
    {
        ps::ui::RunStore store(library);
        QString error;
        bigId = store.insert(
            ps::uitest::syntheticRun(script, ps::uitest::syntheticGraph(5000, script, 200), "ok", "big"), &error);
        smallId = store.insert(
            ps::uitest::syntheticRun(script, ps::uitest::syntheticGraph(10, script, 5), "ok", "small"), &error);
        if (bigId <= 0 || smallId <= 0) {
            std::fprintf(stderr, "bench_window: cannot store the synthetic runs: %s\n", qPrintable(error));
            return 2;
        }
    }
    ps::ui::MainWindowOptions options;
    options.libraryPath = library;
    options.prewarm = false;
    options.restoreState = false;
    ps::ui::MainWindow window(options);
    window.show();
    auto* graph = window.report()->graphView();
    window.report()->tabs()->setCurrentIndex(ps::ui::ReportView::GraphTab);
    auto spin = [](auto done, int ms) {
        QElapsedTimer t;
        t.start();
        while (!done() && t.elapsed() < ms) {
            QCoreApplication::processEvents(QEventLoop::AllEvents, 5);
            QThread::usleep(200);
        }
        return done();
    };
    spin([]() { return false; }, 300);
    bool shownGraph = false, painted = false;
    QObject::connect(graph, &ps::ui::GraphView::graphShown, [&]() { shownGraph = true; });
    QObject::connect(graph->canvas(), &ps::ui::GraphCanvas::painted, [&]() { painted = shownGraph; });
    std::vector<double> firstPaint, toScene;
    for (int i = 0; i < runs; ++i) {
        window.openStoredRun(smallId);  // something else first, so the big run is rebuilt
        spin([&]() { return !graph->layoutPending(); }, 10000);
        spin([]() { return false; }, 50);
        shownGraph = painted = false;
        QElapsedTimer clock;
        clock.start();
        window.openStoredRun(bigId);
        if (!spin([&]() { return shownGraph; }, 30000)) {
            std::fprintf(stderr, "bench_window: the graph was never shown\n");
            return 2;
        }
        toScene.push_back(static_cast<double>(clock.nsecsElapsed()) / 1e9);
        spin([&]() { return painted; }, 30000);
        firstPaint.push_back(static_cast<double>(clock.nsecsElapsed()) / 1e9);
    }

    const char* platform = qgetenv("QT_QPA_PLATFORM").isEmpty() ? "default" : qgetenv("QT_QPA_PLATFORM").constData();
    std::printf("bench_window (Qt platform: %s, %d runs each, medians)\n", platform, runs);
    std::printf("  %-44s %8s %8s %8s\n", "figure", "median", "min", "max");
    auto row = [](const char* name, const std::vector<double>& v) {
        std::printf("  %-44s %7.3fs %7.3fs %7.3fs\n", name, median(v), *std::min_element(v.begin(), v.end()),
            *std::max_element(v.begin(), v.end()));
    };
    row("process start -> window shown", shown);
    row("open 5k-node stored run -> scene built", toScene);
    row("open 5k-node stored run -> first paint", firstPaint);
    std::printf("BENCH window.shown %.3f s <=1\n", median(shown));
    std::printf("BENCH graph.first_paint.5k %.3f s <=0.5\n", median(firstPaint));
    return 0;
}
