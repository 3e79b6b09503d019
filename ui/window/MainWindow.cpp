#include "ui/window/MainWindow.h"
#include "ui/common/QtText.h"

#include "ui/common/ElidedLabel.h"

#include "ui/common/NoticeBar.h"
#include "ui/compare/CompareView.h"
#include "ui/editor/EditorTabs.h"
#include "ui/editor/FindBar.h"
#include "ui/editor/ScriptEditor.h"
#include "ui/editor/UnsavedScript.h"
#include "ui/graph/GraphCanvas.h"
#include "ui/graph/GraphView.h"
#include "ui/lessons/LessonsView.h"
#include "ui/lessons/LessonsWindow.h"
#include "ui/library/KeptRunsPush.h"
#include "ui/library/LibraryActions.h"
#include "ui/library/LibraryView.h"
#include "ui/library/RunStore.h"
#include "ui/report/ReportView.h"
#include "ui/report/RunMarkers.h"
#include "ui/report/VerifyView.h"
#include "ui/run/EnvironmentSetupDialog.h"
#include "ui/run/LogView.h"
#include "ui/run/PythonEnvironmentControl.h"
#include "ui/run/RunDocument.h"
#include "ui/run/RunHostControl.h"
#include "ui/run/WorkerClient.h"
#include "ui/window/AboutDialog.h"
#include "ui/window/CrossSelection.h"
#include "ui/window/MainActions.h"
#include "ui/window/PaneCycler.h"
#include "ui/window/RunController.h"
#include "ui/window/ScriptDocument.h"
#include "ui/window/ShortcutsDialog.h"
#include "ui/window/WorkbenchLayout.h"

#include "protocol/WorkerLocator.h"

#include <utility>

#include <QCloseEvent>
#include <QDockWidget>
#include <QFileDialog>
#include <QFileInfo>
#include <QInputDialog>
#include <QLabel>
#include <QLineEdit>
#include <QListWidget>
#include <QMessageBox>
#include <QMimeData>
#include <QPushButton>
#include <QScreen>
#include <QSettings>
#include <QSplitter>
#include <QStatusBar>
#include <QTabWidget>
#include <QTimer>
#include <QVBoxLayout>

namespace ps::ui {

MainWindow::MainWindow(const MainWindowOptions& options, QWidget* parent) : QMainWindow(parent)
{
    setObjectName(QStringLiteral("MainWindow"));
    setAcceptDrops(true);
    setDockNestingEnabled(true);

    m_editor = new ScriptEditor;
    m_editorFind = new FindBar(m_editor);
    auto* editorPane = new QWidget;
    auto* el = new QVBoxLayout(editorPane);
    el->setContentsMargins(0, 0, 0, 0);
    el->setSpacing(0);
    el->addWidget(m_editor, 1);
    el->addWidget(m_editorFind);

    // The script, and beside it the library files opened from a node's stack (read-only tabs).
    m_editorTabs = new EditorTabs(editorPane);
    // The script's tab says its name: its file's, or its copy's (untitled.py, an example's own).
    const auto retitle
        = [this]() { m_editorTabs->setScriptTitle(m_document ? m_document->scriptName() : tr("Script")); };
    connect(m_editor, &ScriptEditor::filePathChanged, m_editorTabs, retitle);
    // A script opened (from a menu, a run, a lesson) is shown, whatever viewer tab was in front.
    connect(m_editor, &ScriptEditor::scriptReplaced, m_editorTabs, [this, retitle]() {
        retitle();
        m_editorTabs->showScript();
    });

    m_report = new ReportView;
    m_split = new QSplitter(Qt::Horizontal);
    m_split->setObjectName(QStringLiteral("mainSplitter"));
    m_split->addWidget(m_editorTabs);
    m_split->addWidget(m_report);

    m_notice = new NoticeBar;
    auto* central = new QWidget;
    auto* cl = new QVBoxLayout(central);
    cl->setContentsMargins(0, 0, 0, 0);
    cl->setSpacing(0);
    cl->addWidget(m_notice);
    cl->addWidget(m_split, 1);
    setCentralWidget(central);

    m_library = new LibraryView;
    m_libraryDock = new QDockWidget(tr("Library"), this);
    m_libraryDock->setObjectName(QStringLiteral("libraryDock"));
    m_libraryDock->setWidget(m_library);
    addDockWidget(Qt::LeftDockWidgetArea, m_libraryDock);
    m_log = new LogView;
    m_logDock = new QDockWidget(tr("Log"), this);
    m_logDock->setObjectName(QStringLiteral("logDock"));
    m_logDock->setWidget(m_log);
    addDockWidget(Qt::BottomDockWidgetArea, m_logDock);
    m_layout = new WorkbenchLayout(this, m_split, m_libraryDock, m_logDock);  // placed at the first show
    // A window of its own (Help > Lessons); its worker runs only while it is open.
    m_lessonsWindow = std::make_unique<LessonsWindow>(options.pythonEnv, options.prewarm);
    m_lessons = m_lessonsWindow->view();

    // The run line gives way to the worker and the environment at the right: shortened, whole
    // in its tooltip.
    m_stageLabel = new ElidedLabel;
    m_stageLabel->setFullText(tr("Ready"));
    m_workerLabel = new QLabel;
    m_workerLabel->setTextFormat(Qt::PlainText);
    statusBar()->addWidget(m_stageLabel, 1);
    statusBar()->addPermanentWidget(m_workerLabel);

    m_worker = new WorkerClient(options.pythonEnv, this);
    m_environment = new PythonEnvironmentControl(options.pythonEnv, m_worker, this);
    statusBar()->addPermanentWidget(m_environment->statusLabel());
    connect(m_editor, &ScriptEditor::filePathChanged, m_environment, &PythonEnvironmentControl::scriptChanged);
    m_hosts = new RunHostControl(m_worker, this);
    if (options.host)
        m_hosts->setSessionHost(*options.host);  // --host: before a worker starts anywhere else
    connect(m_editor, &ScriptEditor::filePathChanged, m_hosts, &RunHostControl::scriptChanged);
    connect(m_environment, &PythonEnvironmentControl::problemChanged, this, [this](const QString& problem) {
        if (!problem.isEmpty())
            showLaunchProblem(problem);
        updateRunActions();
    });
    connect(m_worker, &WorkerClient::helloChanged, this, &MainWindow::updateRunActions);
    RunController::Parts parts{m_editor, m_report, m_worker, m_log, m_notice, m_library, m_stageLabel, m_workerLabel,
        [this]() { return m_document->runScriptPath(); }, [this]() { return m_document->scriptName(); },
        [this]() { pushKeptRuns(); }};
    m_push = new KeptRunsPush(this);
    connect(m_push, &KeptRunsPush::finished, this, [this](const KeptRunsPush::Outcome& outcome) {
        m_notice->showNotice(outcome.complete ? NoticeBar::Level::Info : NoticeBar::Level::Warning, outcome.summary);
        if (m_store && m_store->isOpen())
            m_library->reload();
        emit keptRunsPushed();
    });
    m_runs = new RunController(parts, this);
    m_document = new ScriptDocument(this, m_editor, m_notice, m_runs);
    m_selection = new CrossSelection(m_editor, m_editorTabs, m_notice, m_report, m_runs, m_document, this);
    connect(m_runs, &RunController::runningChanged, this, &MainWindow::updateRunActions);
    connect(m_runs, &RunController::runFinished, this, &MainWindow::runFinished);
    // Profile shows what it measured: the time lens, where the run has kernel times.
    connect(m_runs, &RunController::runFinished, this, [this]() {
        if (std::exchange(m_profiling, false) && m_report->graphView()->lensUnavailable(graph::Lens::Time).isEmpty())
            m_report->graphView()->setLens(graph::Lens::Time);
        // Measure Cold Start shows its ledger: the Verify tab, where the bars are.
        if (std::exchange(m_measuringStart, false))
            m_report->tabs()->setCurrentIndex(ReportView::VerifyTab);
    });
    connect(m_runs, &RunController::runShown, this, &MainWindow::runShown);
    m_markers = new RunMarkers(m_editor, m_report, this);  // the run's findings where the user looks
    connect(m_runs, &RunController::runShown, m_markers, &RunMarkers::refresh);
    connect(m_runs, &RunController::runningChanged, m_markers, &RunMarkers::refresh);  // a new run: none

    // F6 / Ctrl+Tab go round these, in this order.
    m_panes = new PaneCycler(this);
    m_panes->addPane(tr("Editor"), m_editorTabs, nullptr, [this]() { return m_editorTabs->currentWidget(); });
    const int reportPane
        = m_panes->addPane(tr("Report"), m_report, nullptr, [this]() { return m_report->tabs()->currentWidget(); });
    const int libraryPane = m_panes->addPane(tr("Library"), m_library, m_libraryDock);
    const int logPane = m_panes->addPane(tr("Log"), m_log, m_logDock);
    connect(
        m_editor, &ScriptEditor::leaveRequested, m_panes, [this](bool forward) { m_panes->cycle(forward ? 1 : -1); });

    m_actions = new MainActions(
        {this, m_editor, m_editorFind, m_report, m_notice, m_document, m_markers, m_panes, reportPane, libraryPane,
            logPane, m_environment, m_libraryDock, m_logDock, m_hosts, m_library->actions()->checkCurrentAction()});

    connect(m_library, &LibraryView::runActivated, this, &MainWindow::openStoredRun);
    connect(m_library, &LibraryView::openAnotherRequested, this, [this]() { openLibraryDialog(false); });
    connect(m_library, &LibraryView::newLibraryRequested, this, [this]() { openLibraryDialog(true); });
    m_library->actions()->setScriptOpener(
        [this](const QString& path, const QString& text, const QString& note, std::function<QString()> untrusted) {
            return text.isEmpty()
                ? m_document->replaceWith(path)
                : m_document->openScriptCopy(text, QFileInfo(path).fileName(), note, std::move(untrusted));
        });
    m_library->actions()->setCurrentRun([this]() { return m_report->run(); });
    // "Compare with Current Run" needs one shown, and another than the one selected.
    connect(m_runs, &RunController::runShown, m_library->actions(), &LibraryActions::update);
    connect(m_library->actions(), &LibraryActions::runsDeleted, m_runs, &RunController::runsDeleted);
    // "make a repro…" beside where the drift starts, and a graph node's Make Repro From Here…
    connect(
        m_report->verifyView(), &VerifyView::reproRequested, m_library->actions(), &LibraryActions::makeReproOfCurrent);
    connect(
        m_report->graphView(), &GraphView::reproRequested, m_library->actions(), &LibraryActions::makeReproOfCurrent);
    connect(m_runs, &RunController::runningChanged, m_library->actions(), &LibraryActions::update);
    connect(m_lessons, &LessonsView::openScript, m_document, &ScriptDocument::replaceWith);

    restoreSettings(options.restoreState);

    QString libraryPath = options.libraryPath;
    if (libraryPath.isEmpty())
        libraryPath = QSettings().value(QStringLiteral("library/path")).toString();
    if (libraryPath.isEmpty())
        libraryPath = RunStore::defaultPath();
    openLibrary(libraryPath, /*remember=*/options.libraryPath.isEmpty());  // --library is for this window only

    m_environment->scriptChanged(m_editor->filePath());  // the default environment, if one is set
    if (!m_worker->launchError().isEmpty())
        showLaunchProblem(m_worker->launchError());
    else if (options.prewarm)  // after the window is up: it costs a process and an import of torch
        QTimer::singleShot(200, m_worker, &WorkerClient::prewarm);
    m_runs->scriptOpened(m_editor->filePath());  // the restored script's last run, now that the library is open
    if (m_editor->filePath().isEmpty() && m_editor->text().isEmpty())
        m_editor->newScript();
    m_document->updateTitle();
    updateRunActions();
}

MainWindow::~MainWindow() = default;

// ---- settings -------------------------------------------------------------------------------

void MainWindow::restoreSettings(bool restoreState)
{
    QSettings s;
    // 1400x900, or what the screen has room for (a 1280x800 laptop); WorkbenchLayout places the
    // panes for the size the window is first shown at.
    const QSize room = screen() ? screen()->availableGeometry().size() * 0.96 : QSize(1400, 900);
    const QSize defaultSize = QSize(1400, 900).boundedTo(room);
    if (restoreState) {
        if (!restoreGeometry(s.value(QStringLiteral("window/geometry")).toByteArray()))
            resize(defaultSize);
        const bool docks = QMainWindow::restoreState(s.value(QStringLiteral("window/state")).toByteArray());
        const bool split = m_split->restoreState(s.value(QStringLiteral("window/splitter")).toByteArray());
        m_layout->setRestored(docks && split);
        const QString last = s.value(QStringLiteral("editor/lastFile")).toString();
        if (!last.isEmpty() && QFileInfo(last).isFile())
            openPath(last);
    } else {
        resize(defaultSize);
    }
    m_actions->restoreChoices(s);
}

void MainWindow::saveSettings()
{
    QSettings s;
    s.setValue(QStringLiteral("window/geometry"), saveGeometry());
    s.setValue(QStringLiteral("window/state"), saveState());
    s.setValue(QStringLiteral("window/splitter"), m_split->saveState());
    s.setValue(QStringLiteral("editor/lastFile"), m_editor->filePath());
    m_actions->saveChoices(s);
}

// ---- files, drops, close -----------------------------------------------------------------------

bool MainWindow::openPath(const QString& path)
{
    return m_document->openPath(path);
}

QStringList MainWindow::recentFiles() const
{
    return m_document->recentFiles();
}

void MainWindow::dragEnterEvent(QDragEnterEvent* event)
{
    if (event->mimeData()->hasUrls())
        event->acceptProposedAction();
}

void MainWindow::dropEvent(QDropEvent* event)
{
    for (const QUrl& url : event->mimeData()->urls())
        if (url.isLocalFile()) {
            event->acceptProposedAction();
            m_document->replaceWith(url.toLocalFile());
            return;
        }
}

void MainWindow::closeEvent(QCloseEvent* event)
{
    if (!m_document->maybeSave()) {
        event->ignore();
        return;
    }
    if (m_runs->isRunning()) {
        // A long compile is not thrown away by a stray click: ask, Escape keeps it running.
        QMessageBox ask(QMessageBox::Question, tr("A Run Is in Progress"),
            plainTip(
                tr("Precompile is still running (%1). Stop the run and close the window?").arg(m_runs->stageText())),
            QMessageBox::NoButton, this);
        QPushButton* stop = ask.addButton(tr("Stop the Run and Close"), QMessageBox::DestructiveRole);
        ask.addButton(tr("Keep Running"), QMessageBox::RejectRole);
        ask.setDefaultButton(stop);
        ask.exec();
        if (ask.clickedButton() != stop) {
            event->ignore();
            return;
        }
    }
    if (m_worker->busy())
        m_worker->cancel();
    m_lessonsWindow->close();  // stops its worker
    saveSettings();
    event->accept();
}

// ---- library -----------------------------------------------------------------------------------

bool MainWindow::openLibrary(const QString& path, bool remember)
{
    auto store = std::make_unique<RunStore>(path);
    const bool ok = store->isOpen();
    if (!ok && m_store && m_store->isOpen()) {
        // Keep the library that works; say why the other one cannot be used.
        m_notice->showNotice(NoticeBar::Level::Error, tr("That library cannot be used: %1").arg(store->error()));
        return false;
    }
    m_store = std::move(store);
    m_library->setStore(m_store.get());
    m_runs->setStore(m_store.get());
    m_worker->setLibraryPath(ok ? path : QString(), ok ? QString() : m_store->error());
    m_report->graphView()->setLayoutCache(m_store->layoutCache());
    if (ok) {
        if (remember)
            QSettings().setValue(QStringLiteral("library/path"), m_store->rememberedPath());
        if (m_notice->text().contains(tr("library")))
            m_notice->dismiss();
        m_libraryDock->setWindowTitle(RunStore::isTeamLibrary(path) ? tr("Library — team: %1").arg(m_store->shortName())
                                                                    : tr("Library — %1").arg(m_store->shortName()));
        m_libraryDock->setToolTip(plainTip(m_store->displayPath()));
    } else {
        m_libraryDock->setWindowTitle(tr("Library — cannot be used"));
        m_notice->showNotice(NoticeBar::Level::Error,
            tr("The library cannot be used, so runs are not kept: %1").arg(m_store->error()),
            {{tr("Open Another Library…"), [this]() { openLibraryDialog(false); }},
                {tr("Start a New Library…"), [this]() { openLibraryDialog(true); }}});
    }
    return ok;
}

void MainWindow::openLibraryDialog(bool create)
{
    const QString dir = m_store ? QFileInfo(m_store->path()).path() : QString();
    const QString filter = tr("Precompile Studio libraries (*.sqlite3 *.sqlite *.db);;All files (*)");
    const QString path = create
        ? QFileDialog::getSaveFileName(this, tr("Start a New Library"), dir + "/library.sqlite3", filter)
        : QFileDialog::getOpenFileName(this, tr("Open a Library"), dir, filter);
    if (!path.isEmpty())
        openLibrary(path);
}

void MainWindow::openTeamLibraryDialog()
{
    bool ok = false;
    const QString current = m_store && RunStore::isTeamLibrary(m_store->path()) ? m_store->rememberedPath() : QString();
    const QString location = QInputDialog::getText(this, tr("Open Team Library"),
        tr("A PostgreSQL connection string, as for psql (a password is better kept in ~/.pgpass):\n"
           "postgresql://user@host/database  ·  host=… dbname=…  ·  service=name"),
        QLineEdit::Normal, current, &ok)
                                 .trimmed();
    if (!ok || location.isEmpty())
        return;
    if (!RunStore::isTeamLibrary(location)) {
        m_notice->showNotice(NoticeBar::Level::Error,
            tr("That is not a PostgreSQL connection string (postgresql://…, host=… dbname=…, service=…); "
               "File > Open Library… opens a file."));
        return;
    }
    openLibrary(location);
}

void MainWindow::pushKeptRuns()
{
    if (!m_push->start(RunStore::defaultPath()))
        return;  // one push at a time
    m_notice->showNotice(NoticeBar::Level::Info, tr("Pushing the kept runs…"));
}

QAction* MainWindow::pushKeptRunsAction() const
{
    return m_actions->pushKeptRunsAction();
}

bool MainWindow::openStoredRun(qint64 id)
{
    return m_runs->openStoredRun(id);
}

// ---- runs (RunController) ----------------------------------------------------------------------

bool MainWindow::isRunning() const
{
    return m_runs->isRunning();
}

QString MainWindow::stageText() const
{
    return m_runs->stageText();
}

void MainWindow::updateRunActions()
{
    m_actions->setRunning(isRunning());
}

QAction* MainWindow::runAction() const
{
    return m_actions->runAction();
}

QAction* MainWindow::profileAction() const
{
    return m_actions->profileAction();
}

QAction* MainWindow::cancelAction() const
{
    return m_actions->cancelAction();
}

QAction* MainWindow::deepVerifyAction() const
{
    return m_actions->deepVerifyAction();
}

void MainWindow::setBackendChoice(const QString& backend)
{
    m_actions->setBackendChoice(backend);
}

void MainWindow::setTracerChoice(const QString& tracer)
{
    m_actions->setTracerChoice(tracer);
}

QString MainWindow::backendChoice() const
{
    return m_actions->backendChoice();
}

void MainWindow::showLaunchProblem(const QString& problem)
{
    const QString text = tr("Scripts cannot run: %1").arg(problem);
    const QString env = QString::fromStdString(protocol::WorkerLocator::defaultPythonEnv());
    if (QFileInfo::exists(env + QStringLiteral("/.complete")))
        m_notice->showNotice(NoticeBar::Level::Error, text);
    else
        m_notice->showNotice(
            NoticeBar::Level::Error, text, {{tr("Make the Environment…"), [this]() { makeEnvironment(); }}});
}

void MainWindow::makeEnvironment()
{
    EnvironmentSetupDialog dialog(QString(), this);
    connect(&dialog, &EnvironmentSetupDialog::environmentReady, this, [this]() {
        m_worker->relocate();
        if (m_worker->launchError().isEmpty())
            m_notice->showNotice(NoticeBar::Level::Info, tr("The Python environment is ready: scripts can run."));
        else
            showLaunchProblem(m_worker->launchError());
    });
    dialog.start();
    dialog.exec();
}

QString MainWindow::tracerChoice() const
{
    return m_actions->tracerChoice();
}

void MainWindow::startRun(bool profile, bool coldStart)
{
    if (isRunning())
        return;
    if (!m_worker->launchError().isEmpty()) {
        showLaunchProblem(m_worker->launchError());
        return;
    }
    const QString script = m_document->scriptForRun();
    if (script.isEmpty())
        return;
    protocol::RunOptions options;
    options.script = script.toStdString();
    if (!backendChoice().isEmpty())
        options.backend = backendChoice().toStdString();
    if (!tracerChoice().isEmpty())
        options.tracer = tracerChoice().toStdString();
    // the profile calls the artifact verification loaded: Profile verifies whatever the Verify box says
    options.verify = profile || coldStart || m_actions->verifyAction()->isChecked();
    options.profile = profile;
    options.coldStart = coldStart;
    options.deepVerify = options.verify && m_actions->deepVerifyAction()->isChecked();
    options.timeoutSeconds = QSettings().value(QStringLiteral("run/timeoutSeconds"), 600).toDouble();
    QStringList how;
    how << (backendChoice().isEmpty() ? tr("script's backend") : backendChoice());
    how << (tracerChoice().isEmpty() ? tr("script's tracer") : tracerChoice());
    if (profile)
        how << tr("profiled");
    if (coldStart)
        how << tr("cold start measured");
    m_profiling = profile;
    m_measuringStart = coldStart;
    m_runs->start(options, tr("%1 (%2)").arg(UnsavedScript::displayName(script), how.join(", ")));
    updateRunActions();
}

void MainWindow::cancelRun()
{
    m_runs->cancel();
}

void MainWindow::showAbout()
{
    AboutDialog about(m_worker->hello(), m_worker->launchError(), this);
    about.exec();
}

void MainWindow::showShortcuts()
{
    // One dialog, rebuilt from the actions each time (a shortcut changed since is shown as it is).
    delete findChild<ShortcutsDialog*>();
    auto* dialog = new ShortcutsDialog(this);
    dialog->setAttribute(Qt::WA_DeleteOnClose);
    dialog->addKeys(tr("Editor"), m_editor->keyHelp());
    dialog->addKeys(tr("Graph"), GraphCanvas::keyHelp());
    dialog->addKeys(tr("Library"), LibraryView::keyHelp());
    dialog->addKeys(tr("Compare"), CompareView::keyHelp());
    dialog->show();
}

void MainWindow::showLessons()
{
    m_lessonsWindow->showAndRaise();
    m_lessons->lessonList()->setFocus();
}

QString MainWindow::workerText() const
{
    return m_workerLabel->text();
}

}  // namespace ps::ui
