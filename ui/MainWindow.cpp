#include "ui/MainWindow.h"

#include "graph/GraphModel.h"
#include "ui/AboutDialog.h"
#include "ui/FindBar.h"
#include "ui/GraphView.h"
#include "ui/LessonsView.h"
#include "ui/LibraryView.h"
#include "ui/LogView.h"
#include "ui/NoticeBar.h"
#include "ui/PythonEnvironmentControl.h"
#include "ui/ReportView.h"
#include "ui/RunDocument.h"
#include "ui/RunStore.h"
#include "ui/ScriptEditor.h"
#include "ui/ScriptFile.h"
#include "ui/SourceView.h"
#include "ui/StatusStyle.h"
#include "ui/ViolationsView.h"
#include "ui/WorkerClient.h"

#include <QAction>
#include <QActionGroup>
#include <QApplication>
#include <QCloseEvent>
#include <QComboBox>
#include <QDockWidget>
#include <QFileDialog>
#include <QFileInfo>
#include <QInputDialog>
#include <QLabel>
#include <QMenuBar>
#include <QMessageBox>
#include <QMimeData>
#include <QSettings>
#include <QSplitter>
#include <QStatusBar>
#include <QTabWidget>
#include <QToolBar>
#include <QVBoxLayout>

#include <algorithm>
#include <set>

namespace ps::ui {

namespace {

constexpr int kMaxRecent = 10;

bool sameFile(const QString& a, const QString& b)
{
    if (a.isEmpty() || b.isEmpty())
        return false;
    if (a == b)
        return true;
    const QString ca = QFileInfo(a).canonicalFilePath(), cb = QFileInfo(b).canonicalFilePath();
    return !ca.isEmpty() && ca == cb;
}

}  // namespace

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

    m_report = new ReportView;
    m_split = new QSplitter(Qt::Horizontal);
    m_split->setObjectName(QStringLiteral("mainSplitter"));
    m_split->addWidget(editorPane);
    m_split->addWidget(m_report);
    m_split->setStretchFactor(0, 1);
    m_split->setStretchFactor(1, 3);
    connect(m_split, &QSplitter::splitterMoved, this, [this]() { m_splitPlaced = true; });

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
    resizeDocks({m_libraryDock}, {210}, Qt::Horizontal);
    resizeDocks({m_logDock}, {160}, Qt::Vertical);
    // Cheap to make: its worker (a process of its own) starts at its first Run Both.
    m_lessons = new LessonsView(options.pythonEnv);
    m_lessonsDock = new QDockWidget(tr("Lessons"), this);
    m_lessonsDock->setObjectName(QStringLiteral("lessonsDock"));
    m_lessonsDock->setWidget(m_lessons);
    addDockWidget(Qt::RightDockWidgetArea, m_lessonsDock);
    m_lessonsDock->hide();  // until Help > Lessons (or the restored layout) shows it

    m_stageLabel = new QLabel(tr("Ready"));
    m_workerLabel = new QLabel;
    statusBar()->addWidget(m_stageLabel, 1);
    statusBar()->addPermanentWidget(m_workerLabel);

    m_worker = new WorkerClient(options.pythonEnv, this);
    m_environment = new PythonEnvironmentControl(options.pythonEnv, m_worker, this);
    statusBar()->addPermanentWidget(m_environment->statusLabel());
    connect(m_editor, &ScriptEditor::filePathChanged, m_environment, &PythonEnvironmentControl::scriptChanged);
    connect(m_environment, &PythonEnvironmentControl::problemChanged, this, [this](const QString& problem) {
        if (!problem.isEmpty())
            m_notice->showNotice(NoticeBar::Level::Error, tr("Scripts cannot run: %1").arg(problem));
        updateRunActions();
    });
    connect(m_worker, &WorkerClient::helloChanged, this, &MainWindow::updateRunActions);
    connect(m_worker, &WorkerClient::stageChanged, this, &MainWindow::onStage);
    connect(m_worker, &WorkerClient::output, m_log, &LogView::appendOutput);
    connect(m_worker, &WorkerClient::workerEvent, this, [this](const QString& text) {
        m_log->appendNote(tr("The worker died: %1. A fresh worker is starting.").arg(text));
    });
    connect(m_worker, &WorkerClient::finished, this, &MainWindow::onRunFinished);
    connect(m_worker, &WorkerClient::helloChanged, this, [this]() {
        if (auto hello = m_worker->hello())
            m_workerLabel->setText(tr("torch %1 · Python %2")
                                       .arg(QString::fromStdString(hello->value("torch", "?")),
                                           QString::fromStdString(hello->value("python", "?"))));
    });
    m_tick.setInterval(100);
    connect(&m_tick, &QTimer::timeout, this, [this]() {
        m_stageLabel->setStyleSheet(QString());
        m_stageLabel->setText(stageText());
    });

    buildActions();
    buildMenus();
    buildToolBar();

    connect(m_editor, &ScriptEditor::modificationChanged, this, &MainWindow::updateTitle);
    connect(m_editor, &ScriptEditor::filePathChanged, this, &MainWindow::updateTitle);
    connect(m_editor, &ScriptEditor::lineClicked, this, &MainWindow::onScriptLineClicked);
    connect(m_editor, &ScriptEditor::fileDropped, this, [this](const QString& path) { openPath(path); });
    connect(m_report->graphView(), &GraphView::nodesSelected, this, &MainWindow::onNodesSelected);
    connect(m_report->graphView(), &GraphView::locationActivated, this, &MainWindow::onLocation);
    connect(m_report->graphView(), &GraphView::graphShown, this, [this]() {
        if (m_report->tabs()->currentIndex() == ReportView::GraphTab)
            makeRoomForGraph();
    });
    connect(m_report->tabs(), &QTabWidget::currentChanged, this, [this](int tab) {
        if (tab == ReportView::GraphTab && m_report->graphView()->graph())
            makeRoomForGraph();
    });
    connect(m_report->sourceView(), &SourceView::nodesActivated, this, &MainWindow::onSourceNodes);
    connect(m_report->violationsView(), &ViolationsView::locationActivated, this, &MainWindow::onLocation);
    connect(m_report, &ReportView::captureChanged, this, [this]() { m_editor->highlightLines({}); });
    connect(m_library, &LibraryView::runActivated, this, &MainWindow::openStoredRun);
    connect(m_library, &LibraryView::openAnotherRequested, this, [this]() { openLibraryDialog(false); });
    connect(m_library, &LibraryView::newLibraryRequested, this, [this]() { openLibraryDialog(true); });
    connect(m_lessons, &LessonsView::openScript, this, [this](const QString& path) {
        if (maybeSave())
            openPath(path);
    });

    restoreSettings(options.restoreState);

    QString libraryPath = options.libraryPath;
    if (libraryPath.isEmpty())
        libraryPath = QSettings().value(QStringLiteral("library/path")).toString();
    if (libraryPath.isEmpty())
        libraryPath = RunStore::defaultPath();
    openLibrary(libraryPath);

    m_environment->scriptChanged(m_editor->filePath());  // the default environment, if one is set
    if (!m_worker->launchError().isEmpty()) {
        m_workerLabel->setText(tr("worker: cannot start"));
        m_notice->showNotice(NoticeBar::Level::Error, tr("Scripts cannot run: %1").arg(m_worker->launchError()));
    } else {
        m_workerLabel->setText(tr("worker: starts with the first run"));
        if (options.prewarm) {  // after the window is up: it costs a process and an import of torch
            QTimer::singleShot(200, m_worker, &WorkerClient::prewarm);
            m_workerLabel->setText(tr("worker: warming up (importing torch)"));
        }
    }
    if (m_editor->filePath().isEmpty() && m_editor->text().isEmpty())
        m_editor->newScript();
    updateTitle();
    updateRunActions();
}

MainWindow::~MainWindow() = default;

void MainWindow::buildActions()
{
    auto make = [this](const QString& text, const QKeySequence& key, auto slot) {
        auto* a = new QAction(text, this);
        if (!key.isEmpty())
            a->setShortcut(key);
        connect(a, &QAction::triggered, this, slot);
        return a;
    };
    m_newAction = make(tr("&New Script"), QKeySequence::New, [this]() {
        if (maybeSave())
            m_editor->newScript();
    });
    m_openAction = make(tr("&Open…"), QKeySequence::Open, [this]() { openDialog(); });
    m_saveAction = make(tr("&Save"), QKeySequence::Save, [this]() { save(); });
    m_saveAsAction = make(tr("Save &As…"), QKeySequence::SaveAs, [this]() { saveAs(); });
    m_openLibraryAction = make(tr("Open &Library…"), QKeySequence(), [this]() { openLibraryDialog(false); });
    m_newLibraryAction = make(tr("New Li&brary…"), QKeySequence(), [this]() { openLibraryDialog(true); });
    m_quitAction = make(tr("&Quit"), QKeySequence::Quit, [this]() { close(); });
    // Find follows the focus: the graph's search box, the Source tab's bar, or the editor's.
    auto inReportTab
        = [this](int tab) { return m_report->tabs()->currentIndex() == tab && m_report->isAncestorOf(focusWidget()); };
    m_findAction = make(tr("&Find…"), QKeySequence::Find, [this, inReportTab]() {
        if (inReportTab(ReportView::GraphTab))
            m_report->graphView()->focusSearch();
        else if (inReportTab(ReportView::SourceTab))
            m_report->sourceView()->findBar()->activate();
        else
            m_editorFind->activate();
    });
    auto findStep = [this, inReportTab](bool forward) {
        if (inReportTab(ReportView::GraphTab)) {
            forward ? m_report->graphView()->findNext() : m_report->graphView()->findPrevious();
            return;
        }
        FindBar* bar = m_report->sourceView()->findBar()->isVisible() && m_report->isAncestorOf(focusWidget())
            ? m_report->sourceView()->findBar()
            : m_editorFind;
        forward ? bar->findNext() : bar->findPrevious();
    };
    m_findNextAction = make(tr("Find &Next"), QKeySequence::FindNext, [findStep]() { findStep(true); });
    m_findPrevAction = make(tr("Find &Previous"), QKeySequence::FindPrevious, [findStep]() { findStep(false); });
    m_gotoAction = make(tr("&Go to Line…"), QKeySequence(Qt::CTRL | Qt::Key_L), [this]() {
        bool ok = false;
        int line = 0, index = 0;
        m_editor->getCursorPosition(&line, &index);
        const int to
            = QInputDialog::getInt(this, tr("Go to Line"), tr("Line:"), line + 1, 1, m_editor->lines(), 1, &ok);
        if (ok)
            m_editor->goToLine(to);
    });
    m_runAction = make(tr("&Run"), QKeySequence(Qt::CTRL | Qt::Key_R), [this]() { startRun(); });
    m_runAction->setToolTip(tr("Run precompile on the script in the worker (Ctrl+R)"));
    m_cancelAction = make(tr("&Cancel Run"), QKeySequence(Qt::CTRL | Qt::Key_Period), [this]() { cancelRun(); });
    m_cancelAction->setToolTip(tr("Kill the worker running the script (Ctrl+.)"));
    m_verifyAction = new QAction(tr("&Verify the Artifact"), this);
    m_verifyAction->setCheckable(true);
    m_verifyAction->setChecked(true);
    m_verifyAction->setToolTip(tr("Load the artifact in the worker and compare it with eager fn"));
    m_deepVerifyAction = new QAction(tr("&Deep Verification"), this);
    m_deepVerifyAction->setCheckable(true);
    m_deepVerifyAction->setToolTip(tr("Every optional check, whatever it costs, and (inductor) a reload that "
                                      "recompiles every kernel from scratch (--deep-verify)"));
    connect(m_verifyAction, &QAction::toggled, m_deepVerifyAction, &QAction::setEnabled);
    m_aboutAction = make(tr("&About Precompile Studio"), QKeySequence(), [this]() { showAbout(); });
    m_lessonsAction = make(tr("&Lessons"), QKeySequence(Qt::CTRL | Qt::SHIFT | Qt::Key_E), [this]() { showLessons(); });
    m_lessonsAction->setToolTip(tr("One lesson per rule of the programming model: broken and fixed side by side "
                                   "(Ctrl+Shift+E)"));

    m_backendGroup = new QActionGroup(this);
    m_tracerGroup = new QActionGroup(this);
    for (const auto& [group, values] : {std::pair{m_backendGroup, QStringList{"", "inductor", "eager"}},
             std::pair{m_tracerGroup, QStringList{"", "make_fx", "dynamo"}}})
        for (const QString& v : values) {
            auto* a = new QAction(v.isEmpty() ? tr("As the Script Says") : v, group);
            a->setData(v);
            a->setCheckable(true);
            a->setChecked(v.isEmpty());
        }
    connect(
        m_backendGroup, &QActionGroup::triggered, this, [this](QAction* a) { setBackendChoice(a->data().toString()); });
    connect(
        m_tracerGroup, &QActionGroup::triggered, this, [this](QAction* a) { setTracerChoice(a->data().toString()); });
}

void MainWindow::buildMenus()
{
    QMenu* file = menuBar()->addMenu(tr("&File"));
    file->addAction(m_newAction);
    file->addAction(m_openAction);
    m_recentMenu = file->addMenu(tr("Open &Recent"));
    file->addAction(m_saveAction);
    file->addAction(m_saveAsAction);
    file->addSeparator();
    file->addAction(m_openLibraryAction);
    file->addAction(m_newLibraryAction);
    file->addSeparator();
    file->addAction(m_quitAction);

    QMenu* edit = menuBar()->addMenu(tr("&Edit"));
    auto* undo = edit->addAction(tr("&Undo"), QKeySequence::Undo, m_editor, &ScriptEditor::undo);
    auto* redo = edit->addAction(tr("&Redo"), QKeySequence::Redo, m_editor, &ScriptEditor::redo);
    // The editor handles these keys itself when it has the focus; the menu shows them.
    undo->setShortcutContext(Qt::WidgetShortcut);
    redo->setShortcutContext(Qt::WidgetShortcut);
    edit->addSeparator();
    edit->addAction(m_findAction);
    edit->addAction(m_findNextAction);
    edit->addAction(m_findPrevAction);
    edit->addAction(m_gotoAction);

    QMenu* run = menuBar()->addMenu(tr("&Run"));
    run->addAction(m_runAction);
    run->addAction(m_cancelAction);
    run->addSeparator();
    QMenu* backend = run->addMenu(tr("&Backend"));
    backend->addActions(m_backendGroup->actions());
    QMenu* tracer = run->addMenu(tr("&Tracer"));
    tracer->addActions(m_tracerGroup->actions());
    run->addAction(m_verifyAction);
    run->addAction(m_deepVerifyAction);
    run->addSeparator();
    run->addAction(m_environment->action());

    QMenu* view = menuBar()->addMenu(tr("&View"));
    const QStringList tabs = {tr("&Graph"), tr("&Source"), tr("&Violations"), tr("&Cache"), tr("V&erify")};
    for (int i = 0; i < tabs.size(); ++i) {
        auto* a = view->addAction(tabs[i]);
        a->setShortcut(QKeySequence(Qt::ALT | static_cast<Qt::Key>(Qt::Key_1 + i)));
        connect(a, &QAction::triggered, this, [this, i]() { m_report->tabs()->setCurrentIndex(i); });
    }
    view->addSeparator();
    auto* zoomIn = view->addAction(tr("Zoom &In"), QKeySequence::ZoomIn, m_report->graphView(), &GraphView::zoomIn);
    auto* zoomOut = view->addAction(tr("Zoom &Out"), QKeySequence::ZoomOut, m_report->graphView(), &GraphView::zoomOut);
    auto* fit = view->addAction(
        tr("&Fit Graph"), QKeySequence(Qt::CTRL | Qt::Key_0), m_report->graphView(), &GraphView::zoomToFit);
    for (auto* a : {zoomIn, zoomOut, fit})
        a->setShortcutContext(Qt::WindowShortcut);
    view->addSeparator();
    QAction* lib = m_libraryDock->toggleViewAction();
    lib->setShortcut(QKeySequence(Qt::CTRL | Qt::SHIFT | Qt::Key_L));
    view->addAction(lib);
    QAction* log = m_logDock->toggleViewAction();
    log->setShortcut(QKeySequence(Qt::CTRL | Qt::SHIFT | Qt::Key_G));
    view->addAction(log);
    view->addAction(m_lessonsDock->toggleViewAction());

    QMenu* help = menuBar()->addMenu(tr("&Help"));
    help->addAction(m_lessonsAction);
    help->addSeparator();
    help->addAction(m_aboutAction);
}

void MainWindow::buildToolBar()
{
    QToolBar* bar = addToolBar(tr("Run"));
    bar->setObjectName(QStringLiteral("runToolBar"));
    bar->setToolButtonStyle(Qt::ToolButtonTextBesideIcon);
    m_runAction->setIcon(style()->standardIcon(QStyle::SP_MediaPlay));
    m_cancelAction->setIcon(style()->standardIcon(QStyle::SP_MediaStop));
    m_openAction->setIcon(style()->standardIcon(QStyle::SP_DialogOpenButton));
    m_saveAction->setIcon(style()->standardIcon(QStyle::SP_DialogSaveButton));
    bar->addAction(m_openAction);
    bar->addAction(m_saveAction);
    bar->addSeparator();
    bar->addAction(m_runAction);
    bar->addAction(m_cancelAction);
    bar->addSeparator();
    m_backendCombo = new QComboBox;
    m_tracerCombo = new QComboBox;
    for (auto* a : m_backendGroup->actions())
        m_backendCombo->addItem(a->data().toString().isEmpty() ? tr("script's backend") : a->text(), a->data());
    for (auto* a : m_tracerGroup->actions())
        m_tracerCombo->addItem(a->data().toString().isEmpty() ? tr("script's tracer") : a->text(), a->data());
    m_backendCombo->setToolTip(tr("Backend (overrides the script's `backend`)"));
    m_tracerCombo->setToolTip(tr("Tracer (overrides the script's `tracer`)"));
    connect(m_backendCombo, &QComboBox::activated, this,
        [this](int i) { setBackendChoice(m_backendCombo->itemData(i).toString()); });
    connect(m_tracerCombo, &QComboBox::activated, this,
        [this](int i) { setTracerChoice(m_tracerCombo->itemData(i).toString()); });
    bar->addWidget(new QLabel(tr(" Backend ")));
    bar->addWidget(m_backendCombo);
    bar->addWidget(new QLabel(tr(" Tracer ")));
    bar->addWidget(m_tracerCombo);
    bar->addAction(m_verifyAction);
}

void MainWindow::setBackendChoice(const QString& backend)
{
    for (auto* a : m_backendGroup->actions())
        if (a->data().toString() == backend)
            a->setChecked(true);
    m_backendCombo->setCurrentIndex(std::max(0, m_backendCombo->findData(backend)));
}

void MainWindow::setTracerChoice(const QString& tracer)
{
    for (auto* a : m_tracerGroup->actions())
        if (a->data().toString() == tracer)
            a->setChecked(true);
    m_tracerCombo->setCurrentIndex(std::max(0, m_tracerCombo->findData(tracer)));
}

QString MainWindow::backendChoice() const
{
    return m_backendGroup->checkedAction() ? m_backendGroup->checkedAction()->data().toString() : QString();
}

QString MainWindow::tracerChoice() const
{
    return m_tracerGroup->checkedAction() ? m_tracerGroup->checkedAction()->data().toString() : QString();
}

// ---- settings -------------------------------------------------------------------------------

void MainWindow::restoreSettings(bool restoreState)
{
    QSettings s;
    if (restoreState) {
        if (!restoreGeometry(s.value(QStringLiteral("window/geometry")).toByteArray()))
            resize(1400, 900);
        QMainWindow::restoreState(s.value(QStringLiteral("window/state")).toByteArray());
        m_splitPlaced = m_split->restoreState(s.value(QStringLiteral("window/splitter")).toByteArray());
        if (!m_splitPlaced)
            m_split->setSizes({460, 740});
        const QString last = s.value(QStringLiteral("editor/lastFile")).toString();
        if (!last.isEmpty() && QFileInfo(last).isFile())
            openPath(last);
    } else {
        resize(1400, 900);
        m_split->setSizes({460, 740});
    }
    setBackendChoice(s.value(QStringLiteral("run/backend")).toString());
    setTracerChoice(s.value(QStringLiteral("run/tracer")).toString());
    m_verifyAction->setChecked(s.value(QStringLiteral("run/verify"), true).toBool());
    m_deepVerifyAction->setChecked(s.value(QStringLiteral("run/deepVerify"), false).toBool());
    rebuildRecentMenu();
}

void MainWindow::makeRoomForGraph()
{
    if (m_splitPlaced || m_roomForGraph || !isVisible())
        return;
    m_roomForGraph = true;
    // The report (the canvas, its side panel shut) gets 63 % of the window; the editor keeps
    // what is left, and never less than a narrow column of code.
    constexpr double kReportShare = 0.63;
    constexpr int kEditorMin = 240;
    const int total = m_split->width() - m_split->handleWidth();
    const int editor = std::max(kEditorMin, total - static_cast<int>(width() * kReportShare));
    if (editor < m_split->sizes().value(0))
        m_split->setSizes({editor, total - editor});
}

void MainWindow::saveSettings()
{
    QSettings s;
    s.setValue(QStringLiteral("window/geometry"), saveGeometry());
    s.setValue(QStringLiteral("window/state"), saveState());
    s.setValue(QStringLiteral("window/splitter"), m_split->saveState());
    s.setValue(QStringLiteral("editor/lastFile"), m_editor->filePath());
    s.setValue(QStringLiteral("run/backend"), backendChoice());
    s.setValue(QStringLiteral("run/tracer"), tracerChoice());
    s.setValue(QStringLiteral("run/verify"), m_verifyAction->isChecked());
    s.setValue(QStringLiteral("run/deepVerify"), m_deepVerifyAction->isChecked());
}

QStringList MainWindow::recentFiles() const
{
    return QSettings().value(QStringLiteral("recentFiles")).toStringList();
}

void MainWindow::addRecent(const QString& path)
{
    QSettings s;
    QStringList files = s.value(QStringLiteral("recentFiles")).toStringList();
    files.removeAll(path);
    files.prepend(path);
    while (files.size() > kMaxRecent)
        files.removeLast();
    s.setValue(QStringLiteral("recentFiles"), files);
    rebuildRecentMenu();
}

void MainWindow::rebuildRecentMenu()
{
    if (!m_recentMenu)
        return;
    m_recentMenu->clear();
    const QStringList files = recentFiles();
    for (int i = 0; i < files.size(); ++i) {
        const QString path = files[i];
        auto* a = m_recentMenu->addAction(QStringLiteral("&%1 %2").arg((i + 1) % 10).arg(QFileInfo(path).fileName()));
        a->setToolTip(path);
        a->setStatusTip(path);
        connect(a, &QAction::triggered, this, [this, path]() {
            if (maybeSave())
                openPath(path);
        });
    }
    if (files.isEmpty())
        m_recentMenu->addAction(tr("(none yet)"))->setEnabled(false);
    else {
        m_recentMenu->addSeparator();
        m_recentMenu->addAction(tr("&Clear the List"), this, [this]() {
            QSettings().remove(QStringLiteral("recentFiles"));
            rebuildRecentMenu();
        });
    }
}

// ---- files -------------------------------------------------------------------------------------

bool MainWindow::openPath(const QString& path)
{
    if (RunStore::looksLikeExport(path)) {
        QString error;
        if (auto doc = RunStore::readExport(path, &error)) {
            showRun(doc);
            m_notice->showNotice(NoticeBar::Level::Info,
                tr("Opened the exported artifact %1 (not stored, not trusted: python_code and the cache "
                   "are executable).")
                    .arg(QFileInfo(path).fileName()));
            const QString script = QString::fromStdString(doc->report.script);
            if (QFileInfo(script).isFile() && !m_editor->isModified())
                m_editor->open(script);
            addRecent(QFileInfo(path).absoluteFilePath());
            return true;
        }
        m_notice->showNotice(NoticeBar::Level::Warning,
            tr("%1 looks like an exported artifact but cannot be read as one (%2); it is opened as a script.")
                .arg(QFileInfo(path).fileName(), error));
    }
    const ScriptFile file = m_editor->open(path);
    switch (file.status) {
    case ScriptFile::Status::Refused:
        m_notice->showNotice(NoticeBar::Level::Error, file.message);
        return false;
    case ScriptFile::Status::ReadOnly:
        m_notice->showNotice(NoticeBar::Level::Warning, file.message);
        break;
    case ScriptFile::Status::Editable:
        if (m_notice->level() != NoticeBar::Level::Error)
            m_notice->dismiss();
        break;
    }
    addRecent(file.path);
    statusBar()->showMessage(tr("Opened %1").arg(file.path), 4000);
    return true;
}

void MainWindow::openDialog()
{
    if (!maybeSave())
        return;
    const QString dir = m_editor->filePath().isEmpty() ? QString() : QFileInfo(m_editor->filePath()).path();
    const QString path = QFileDialog::getOpenFileName(
        this, tr("Open a Script or an Exported Artifact"), dir, tr("Python scripts (*.py);;All files (*)"));
    if (!path.isEmpty())
        openPath(path);
}

bool MainWindow::save()
{
    if (m_editor->filePath().isEmpty())
        return saveAs();
    QString error;
    if (!m_editor->save(&error)) {
        m_notice->showNotice(NoticeBar::Level::Error, tr("Not saved: %1").arg(error));
        return false;
    }
    statusBar()->showMessage(tr("Saved %1").arg(m_editor->filePath()), 3000);
    return true;
}

bool MainWindow::saveAs()
{
    const QString path
        = QFileDialog::getSaveFileName(this, tr("Save the Script"), m_editor->filePath(), tr("Python scripts (*.py)"));
    if (path.isEmpty())
        return false;
    QString error;
    if (!m_editor->saveAs(path, &error)) {
        m_notice->showNotice(NoticeBar::Level::Error, tr("Not saved: %1").arg(error));
        return false;
    }
    addRecent(m_editor->filePath());
    return true;
}

bool MainWindow::maybeSave()
{
    if (!m_editor->isModified() || m_editor->isPreview())
        return true;
    const auto answer = QMessageBox::question(this, tr("Unsaved Changes"),
        tr("The script has changes that are not saved. Save them?"),
        QMessageBox::Save | QMessageBox::Discard | QMessageBox::Cancel);
    if (answer == QMessageBox::Save)
        return save();
    return answer == QMessageBox::Discard;
}

void MainWindow::updateTitle()
{
    const QString path = m_editor->filePath();
    const QString name = path.isEmpty() ? tr("untitled.py") : QFileInfo(path).fileName();
    setWindowTitle(QStringLiteral("%1[*]%2 — Precompile Studio")
                       .arg(name, m_editor->isPreview() ? tr(" (read-only)") : QString()));
    setWindowModified(m_editor->isModified());
    setWindowFilePath(path);
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
            if (maybeSave())
                openPath(url.toLocalFile());
            return;
        }
}

void MainWindow::closeEvent(QCloseEvent* event)
{
    if (!maybeSave()) {
        event->ignore();
        return;
    }
    if (m_worker->busy())
        m_worker->cancel();
    m_lessons->cancel();
    saveSettings();
    event->accept();
}

// ---- library -----------------------------------------------------------------------------------

bool MainWindow::openLibrary(const QString& path)
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
    m_worker->setLibraryPath(ok ? path : QString(), ok ? QString() : m_store->error());
    m_report->graphView()->setLayoutCache(m_store->layoutCache());
    if (ok) {
        QSettings().setValue(QStringLiteral("library/path"), path);
        if (m_notice->text().contains(tr("library")))
            m_notice->dismiss();
        m_libraryDock->setWindowTitle(tr("Library — %1").arg(QFileInfo(path).fileName()));
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

bool MainWindow::openStoredRun(qint64 id)
{
    if (!m_store)
        return false;
    QString error;
    auto doc = m_store->load(id, &error);
    if (!doc) {
        m_notice->showNotice(NoticeBar::Level::Error, tr("Run #%1 cannot be opened: %2").arg(id).arg(error));
        return false;
    }
    const QString script = QString::fromStdString(doc->report.script);
    if (!sameFile(script, m_editor->filePath()) && QFileInfo(script).isFile() && !m_editor->isModified())
        m_editor->open(script);
    showRun(doc);
    QStringList damaged;
    for (const auto& a : doc->artifacts)
        if (!a.error.empty())
            damaged << QString::fromStdString(a.error);
    if (!damaged.isEmpty())
        m_notice->showNotice(NoticeBar::Level::Warning,
            tr("Part of run #%1 is damaged in the library: %2").arg(id).arg(damaged.join("; ")));
    else if (!doc->scriptText.empty() && sameFile(script, m_editor->filePath())
        && m_editor->text().toStdString() != doc->scriptText)
        m_notice->showNotice(NoticeBar::Level::Info,
            tr("The script has changed since run #%1: its lines may not match the run's graph.").arg(id));
    return true;
}

// ---- runs --------------------------------------------------------------------------------------

bool MainWindow::isRunning() const
{
    return m_worker->busy();
}

QString MainWindow::stageText() const
{
    if (!isRunning())
        return m_lastOutcome.isEmpty() ? tr("Ready") : m_lastOutcome;
    QString s = WorkerClient::stageWords(m_stage);
    if (!m_stageCapture.isEmpty())
        s += " · " + m_stageCapture;
    return tr("%1 · %2 s").arg(s).arg(static_cast<double>(m_clock.elapsed()) / 1000.0, 0, 'f', 1);
}

void MainWindow::updateRunActions()
{
    const bool running = isRunning();
    m_runAction->setEnabled(!running);
    m_cancelAction->setEnabled(running);
    m_backendCombo->setEnabled(!running);
    m_tracerCombo->setEnabled(!running);
}

void MainWindow::startRun()
{
    if (isRunning())
        return;
    if (!m_worker->launchError().isEmpty()) {
        m_notice->showNotice(NoticeBar::Level::Error, tr("Scripts cannot run: %1").arg(m_worker->launchError()));
        return;
    }
    if (m_editor->filePath().isEmpty() || (m_editor->isModified() && !m_editor->isPreview())) {
        if (!save())
            return;
    }
    protocol::RunOptions options;
    options.script = m_editor->filePath().toStdString();
    if (!backendChoice().isEmpty())
        options.backend = backendChoice().toStdString();
    if (!tracerChoice().isEmpty())
        options.tracer = tracerChoice().toStdString();
    options.verify = m_verifyAction->isChecked();
    options.deepVerify = options.verify && m_deepVerifyAction->isChecked();
    options.timeoutSeconds = QSettings().value(QStringLiteral("run/timeoutSeconds"), 600).toDouble();
    if (m_notice->level() != NoticeBar::Level::Error || m_notice->text().contains(tr("worker")))
        m_notice->dismiss();
    m_stage = QStringLiteral("start");
    m_stageCapture.clear();
    m_clock.start();
    QStringList how;
    how << (backendChoice().isEmpty() ? tr("script's backend") : backendChoice());
    how << (tracerChoice().isEmpty() ? tr("script's tracer") : tracerChoice());
    m_log->beginRun(tr("%1 (%2)").arg(QFileInfo(m_editor->filePath()).fileName(), how.join(", ")));
    m_worker->run(options);
    m_tick.start();
    m_stageLabel->setStyleSheet(QString());
    m_stageLabel->setText(stageText());
    updateRunActions();
}

void MainWindow::cancelRun()
{
    if (!isRunning())
        return;
    m_log->appendNote(tr("Cancelling: the worker is killed."));
    m_worker->cancel();
}

void MainWindow::onStage(const QString& stage, const QString& capture)
{
    m_stage = stage;
    m_stageCapture = capture;
    m_stageLabel->setStyleSheet(QString());
    m_stageLabel->setText(stageText());
}

void MainWindow::onRunFinished(const std::shared_ptr<const RunDocument>& run)
{
    m_tick.stop();
    updateRunActions();
    const auto& r = run->report;
    using model::RunStatus;
    const QString verdict = StatusStyle::verdict(r);
    const QString message = QString::fromStdString(r.message);
    const QString storeError = run->storeError();
    m_lastOutcome = tr("Last run: %1 in %2 s").arg(verdict).arg(run->elapsedSeconds, 0, 'f', 1);
    if (r.runId)
        m_lastOutcome += tr(" · run #%1").arg(*r.runId);
    m_stageLabel->setText(m_lastOutcome);
    m_stageLabel->setStyleSheet(QStringLiteral("color: %1").arg(StatusStyle::verdictColor(r).name()));
    m_log->appendNote(tr("%1: %2").arg(StatusStyle::word(r.status), message.section('\n', 0, 0))
        + (r.runId                     ? tr(" (stored as run #%1)").arg(*r.runId)
                : storeError.isEmpty() ? QString()
                                       : tr(" (not stored: %1)").arg(storeError)));

    if (r.startFailure) {
        m_notice->showNotice(NoticeBar::Level::Error,
            tr("The worker could not start: %1. The studio's Python environment is made by "
               "`packaging/bootstrap.sh`.")
                .arg(message));
    } else if (r.status == RunStatus::WorkerDied) {
        m_notice->showNotice(NoticeBar::Level::Warning,
            tr("The worker died: %1. A fresh worker has been started; the next run works as usual.").arg(message));
    } else if (r.status == RunStatus::ProtocolError) {
        m_notice->showNotice(NoticeBar::Level::Warning,
            tr("The worker broke the protocol and was stopped: %1. A fresh worker has been started.").arg(message));
    } else if (r.status == RunStatus::Timeout) {
        m_notice->showNotice(NoticeBar::Level::Warning, tr("%1. A fresh worker has been started.").arg(message));
    } else if (r.status == RunStatus::Cancelled) {
        m_notice->showNotice(
            NoticeBar::Level::Info, tr("Run cancelled: the worker was killed and a fresh one started."));
    } else if (!storeError.isEmpty()) {
        m_notice->showNotice(
            NoticeBar::Level::Warning, tr("The run was not stored in the library: %1").arg(storeError));
    }
    if (r.status != RunStatus::Cancelled)
        showRun(run);
    if (r.runId) {
        m_library->reload();
        m_library->selectRun(*r.runId);
    }
    emit runFinished(run);
}

void MainWindow::showRun(const std::shared_ptr<const RunDocument>& run)
{
    m_editor->highlightLines({});
    m_report->showRun(run);
    // A run that ended in a violation or an error opens on what went wrong.
    if (run->report.status != model::RunStatus::Ok && m_report->violationsView()->count() > 0)
        m_report->tabs()->setCurrentIndex(ReportView::ViolationsTab);
    else if (m_report->tabs()->currentIndex() == ReportView::ViolationsTab)
        m_report->tabs()->setCurrentIndex(ReportView::GraphTab);
    emit runShown();
}

void MainWindow::showAbout()
{
    AboutDialog about(m_worker->hello(), m_worker->launchError(), this);
    about.exec();
}

void MainWindow::showLessons()
{
    const bool first = !m_lessonsDock->isVisible() && !m_lessonsDock->isFloating();
    m_lessonsDock->show();
    m_lessonsDock->raise();
    if (first && m_lessonsDock->width() < 600)
        resizeDocks({m_lessonsDock}, {std::min(900, width() / 2)}, Qt::Horizontal);
    m_lessons->setFocus();
}

// ---- cross-selection ---------------------------------------------------------------------------

bool MainWindow::scriptMatchesRun() const
{
    const auto& run = m_report->run();
    return run && sameFile(QString::fromStdString(run->report.script), m_editor->filePath());
}

void MainWindow::onNodesSelected(const QList<int>& nodes)
{
    const auto graph = m_report->currentGraph();
    if (!graph)
        return;
    QStringList names;
    QList<int> lines;
    const bool sameScript = scriptMatchesRun();
    for (int i : nodes) {
        const auto& n = graph->nodes()[i];
        names << QString::fromStdString(n.name);
        if (sameScript && n.sourceLine > 0 && sameFile(QString::fromStdString(n.sourceFile), m_editor->filePath()))
            lines << n.sourceLine;
    }
    m_syncing = true;
    m_editor->highlightLines(lines);
    m_report->sourceView()->highlightNodes(names);
    m_syncing = false;
}

void MainWindow::onScriptLineClicked(int line)
{
    if (m_syncing)
        return;
    const auto graph = m_report->currentGraph();
    if (!graph || !scriptMatchesRun())
        return;
    const auto nodes = graph->nodesAtLine(m_report->run()->report.script, line);
    m_report->graphView()->selectNodes(QList<int>(nodes.begin(), nodes.end()), /*reveal=*/true);
}

void MainWindow::onSourceNodes(const QStringList& names)
{
    const auto graph = m_report->currentGraph();
    if (!graph || m_syncing)
        return;
    QList<int> nodes;
    for (const QString& n : names)
        if (const int i = graph->indexOf(n.toStdString()); i >= 0)
            nodes << i;
    m_report->graphView()->selectNodes(nodes, /*reveal=*/true);
}

void MainWindow::onLocation(const QString& file, int line)
{
    if (!sameFile(file, m_editor->filePath())) {
        if (!QFileInfo(file).isFile() || !maybeSave() || !openPath(file))
            return;
    }
    m_editor->goToLine(line);
    m_editor->highlightLines({line});
}

}  // namespace ps::ui
