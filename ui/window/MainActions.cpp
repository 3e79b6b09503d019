#include "ui/window/MainActions.h"

#include "ui/common/NoticeBar.h"
#include "ui/editor/FindBar.h"
#include "ui/editor/ScriptEditor.h"
#include "ui/graph/GraphView.h"
#include "ui/library/LibraryView.h"
#include "ui/report/CompileTraceExport.h"
#include "ui/report/ReportExport.h"
#include "ui/report/ReportView.h"
#include "ui/report/RunMarkers.h"
#include "ui/report/SourceView.h"
#include "ui/run/PythonEnvironmentControl.h"
#include "ui/run/RunHostControl.h"
#include "ui/window/ExamplesMenu.h"
#include "ui/window/MainWindow.h"
#include "ui/window/PaneCycler.h"
#include "ui/window/ScriptDocument.h"

#include <QAction>
#include <QActionGroup>
#include <QCheckBox>
#include <QComboBox>
#include <QDockWidget>
#include <QFileInfo>
#include <QInputDialog>
#include <QLabel>
#include <QMenuBar>
#include <QSettings>
#include <QStyle>
#include <QTabWidget>
#include <QToolBar>

#include <algorithm>

namespace ps::ui {

MainActions::MainActions(const Parts& parts) : QObject(parts.window), m_p(parts)
{
    buildActions();
    buildMenus();
    buildToolBar();
}

void MainActions::buildActions()
{
    MainWindow* w = m_p.window;
    auto make = [this, w](const QString& text, const QKeySequence& key, auto slot) {
        auto* a = new QAction(text, w);
        if (!key.isEmpty())
            a->setShortcut(key);
        connect(a, &QAction::triggered, this, slot);
        return a;
    };
    ScriptDocument* doc = m_p.document;
    m_newAction = make(tr("&New Script"), QKeySequence::New, [doc]() { doc->newScript(); });
    m_openAction = make(tr("&Open…"), QKeySequence::Open, [doc]() { doc->openDialog(); });
    m_saveAction = make(tr("&Save"), QKeySequence::Save, [doc]() { doc->save(); });
    // QKeySequence::SaveAs is empty on X11 and Windows desktops: the key every editor uses.
    m_saveAsAction = make(tr("Save &As…"), QKeySequence(Qt::CTRL | Qt::SHIFT | Qt::Key_S), [doc]() { doc->saveAs(); });
    m_openLibraryAction = make(tr("Open &Library…"), QKeySequence(), [w]() { w->openLibraryDialog(false); });
    m_newLibraryAction = make(tr("New Li&brary…"), QKeySequence(), [w]() { w->openLibraryDialog(true); });
    m_openTeamLibraryAction = make(tr("Open &Team Library…"), QKeySequence(), [w]() { w->openTeamLibraryDialog(); });
    m_pushKeptRunsAction = make(tr("&Push Kept Runs"), QKeySequence(), [w]() { w->pushKeptRuns(); });
    m_pushKeptRunsAction->setToolTip(
        tr("Send the runs kept in the local library while the team library could not be reached"));
    m_exportTraceAction = make(tr("Export &Compile Trace…"), QKeySequence(),
        [this]() { CompileTraceExport::exportRun(m_p.window, m_p.report->run(), m_p.notice); });
    m_exportTraceAction->setToolTip(tr("Write the shown run's compile-time events (torch's and the studio's) as a "
                                       "Chrome trace for Perfetto or chrome://tracing"));
    m_exportReportAction = make(tr("E&xport Report…"), QKeySequence(),
        [this]() { ReportExport::exportRun(m_p.window, m_p.report->run(), m_p.notice); });
    m_exportReportAction->setObjectName(QStringLiteral("exportReportAction"));
    m_exportReportAction->setToolTip(tr("Write the shown run as one HTML page that opens in any browser, for people "
                                        "without the studio"));
    m_quitAction = make(tr("&Quit"), QKeySequence::Quit, [w]() { w->close(); });
    // Find follows the focus: the library's search, the graph's, the Source tab's bar, or the
    // editor's.
    ReportView* report = m_p.report;
    FindBar* editorFind = m_p.editorFind;
    auto inReportTab = [w, report](int tab) {
        return report->tabs()->currentIndex() == tab && report->isAncestorOf(w->focusWidget());
    };
    QDockWidget* libraryDock = m_p.libraryDock;
    m_findAction = make(tr("&Find…"), QKeySequence::Find, [w, report, editorFind, inReportTab, libraryDock]() {
        if (auto* library = qobject_cast<LibraryView*>(libraryDock->widget());
            library && library->isAncestorOf(w->focusWidget()))
            library->focusSearch();
        else if (inReportTab(ReportView::GraphTab))
            report->graphView()->focusSearch();
        else if (inReportTab(ReportView::SourceTab))
            report->sourceView()->findBar()->activate();
        else
            editorFind->activate();
    });
    auto findStep = [w, report, editorFind, inReportTab](bool forward) {
        if (inReportTab(ReportView::GraphTab)) {
            forward ? report->graphView()->findNext() : report->graphView()->findPrevious();
            return;
        }
        FindBar* bar = report->sourceView()->findBar()->isVisible() && report->isAncestorOf(w->focusWidget())
            ? report->sourceView()->findBar()
            : editorFind;
        forward ? bar->findNext() : bar->findPrevious();
    };
    m_findNextAction = make(tr("Find &Next"), QKeySequence::FindNext, [findStep]() { findStep(true); });
    m_findPrevAction = make(tr("Find &Previous"), QKeySequence::FindPrevious, [findStep]() { findStep(false); });
    ScriptEditor* editor = m_p.editor;
    m_gotoAction = make(tr("&Go to Line…"), QKeySequence(Qt::CTRL | Qt::Key_L), [w, editor]() {
        bool ok = false;
        int line = 0, index = 0;
        editor->getCursorPosition(&line, &index);
        const int to = QInputDialog::getInt(w, tr("Go to Line"), tr("Line:"), line + 1, 1, editor->lines(), 1, &ok);
        if (ok)
            editor->goToLine(to);
    });
    m_runAction = make(tr("&Run"), QKeySequence(Qt::CTRL | Qt::Key_R), [w]() { w->startRun(); });
    m_runAction->setToolTip(tr("Run precompile on the script in the worker (Ctrl+R)"));
    m_profileAction
        = make(tr("&Profile"), QKeySequence(Qt::CTRL | Qt::SHIFT | Qt::Key_R), [w]() { w->startRun(true); });
    m_profileAction->setToolTip(tr("Run, verify, then call the artifact a few times under torch.profiler: the time "
                                   "of each kernel and the graph nodes it computes (--profile, Ctrl+Shift+R)"));
    m_coldStartAction = make(tr("Measure Cold &Start"), QKeySequence(), [w]() { w->startRun(false, true); });
    m_coldStartAction->setToolTip(
        tr("Run, verify, then time the start-up in fresh processes: eager's first call, torch.compile with an empty "
           "and a warm Inductor cache, the precompiled pair with and without its cache (--cold-start; the Verify "
           "tab shows the ledger)"));
    m_cancelAction = make(tr("&Cancel Run"), QKeySequence(Qt::CTRL | Qt::Key_Period), [w]() { w->cancelRun(); });
    m_cancelAction->setToolTip(tr("Kill the worker running the script (Ctrl+.)"));
    // A setting, not an action: the menu shows a check mark and the tool bar a check box.
    m_verifyAction = new QAction(tr("&Verify Each Run"), w);
    m_verifyAction->setCheckable(true);
    m_verifyAction->setChecked(true);
    m_verifyAction->setToolTip(tr("When checked, each run loads the artifact it made in the worker and compares "
                                  "it with eager fn; unchecked, runs are faster and not verified"));
    m_deepVerifyAction = new QAction(tr("&Deep Verification"), w);
    m_deepVerifyAction->setCheckable(true);
    m_deepVerifyAction->setToolTip(tr("Every optional check, whatever it costs, and (inductor) a reload that "
                                      "recompiles every kernel from scratch (--deep-verify)"));
    connect(m_verifyAction, &QAction::toggled, m_deepVerifyAction, &QAction::setEnabled);
    m_aboutAction = make(tr("&About Precompile Studio"), QKeySequence(), [w]() { w->showAbout(); });
    m_lessonsAction = make(tr("&Lessons"), QKeySequence(Qt::CTRL | Qt::SHIFT | Qt::Key_E), [w]() { w->showLessons(); });
    m_lessonsAction->setToolTip(tr("One lesson per rule of the programming model: broken and fixed side by side "
                                   "(Ctrl+Shift+E)"));

    m_backendGroup = new QActionGroup(w);
    m_tracerGroup = new QActionGroup(w);
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

void MainActions::buildMenus()
{
    QMenuBar* bar = m_p.window->menuBar();
    QMenu* file = bar->addMenu(tr("&File"));
    file->addAction(m_newAction);
    file->addAction(m_openAction);
    m_p.document->setRecentMenu(file->addMenu(tr("Open &Recent")));
    auto* examples = new ExamplesMenu(QString(), file);
    file->addMenu(examples);
    connect(examples, &ExamplesMenu::exampleChosen, this,
        [this](const QString& path, const QString& text) { m_p.document->openExample(path, text); });
    connect(examples, &ExamplesMenu::exampleFailed, this,
        [this](const QString& message) { m_p.notice->showNotice(NoticeBar::Level::Error, message); });
    file->addAction(m_saveAction);
    file->addAction(m_saveAsAction);
    file->addSeparator();
    file->addAction(m_openLibraryAction);
    file->addAction(m_newLibraryAction);
    file->addAction(m_openTeamLibraryAction);
    file->addAction(m_pushKeptRunsAction);
    file->addSeparator();
    file->addAction(m_exportReportAction);
    file->addAction(m_exportTraceAction);
    file->addSeparator();
    file->addAction(m_quitAction);

    QMenu* edit = bar->addMenu(tr("&Edit"));
    auto* undo = edit->addAction(tr("&Undo"), QKeySequence::Undo, m_p.editor, &ScriptEditor::undo);
    auto* redo = edit->addAction(tr("&Redo"), QKeySequence::Redo, m_p.editor, &ScriptEditor::redo);
    // The editor handles these keys itself when it has the focus; the menu shows them.
    undo->setShortcutContext(Qt::WidgetShortcut);
    redo->setShortcutContext(Qt::WidgetShortcut);
    edit->addSeparator();
    edit->addAction(m_findAction);
    edit->addAction(m_findNextAction);
    edit->addAction(m_findPrevAction);
    edit->addAction(m_gotoAction);

    QMenu* run = bar->addMenu(tr("&Run"));
    run->addAction(m_runAction);
    run->addAction(m_profileAction);
    run->addAction(m_coldStartAction);
    if (m_p.checkCurrent)
        run->addAction(m_p.checkCurrent);
    run->addAction(m_cancelAction);
    run->addSeparator();
    QMenu* backend = run->addMenu(tr("&Backend"));
    backend->addActions(m_backendGroup->actions());
    QMenu* tracer = run->addMenu(tr("&Tracer"));
    tracer->addActions(m_tracerGroup->actions());
    run->addAction(m_verifyAction);
    run->addAction(m_deepVerifyAction);
    run->addSeparator();
    if (m_p.hosts)
        run->addMenu(m_p.hosts->menu());
    run->addAction(m_p.environment->action());

    QMenu* view = bar->addMenu(tr("&View"));
    ReportView* report = m_p.report;
    const QStringList tabs = {tr("&Graph"), tr("&Source"), tr("&Violations"), tr("&Cache"), tr("V&erify")};
    for (int i = 0; i < tabs.size(); ++i) {
        auto* a = view->addAction(tabs[i]);
        a->setShortcut(QKeySequence(Qt::ALT | static_cast<Qt::Key>(Qt::Key_1 + i)));
        // Shown and focused (the graph's canvas, the Source tab's code, ...), so the keys go there.
        connect(a, &QAction::triggered, this, [this, report, i]() {
            report->tabs()->setCurrentIndex(i);
            m_p.panes->focusPane(m_p.reportPane);
        });
    }
    view->addSeparator();
    auto* zoomIn = view->addAction(tr("Zoom &In"), QKeySequence::ZoomIn, report->graphView(), &GraphView::zoomIn);
    auto* zoomOut = view->addAction(tr("Zoom &Out"), QKeySequence::ZoomOut, report->graphView(), &GraphView::zoomOut);
    auto* fit = view->addAction(
        tr("&Fit Graph"), QKeySequence(Qt::CTRL | Qt::Key_0), report->graphView(), &GraphView::zoomToFit);
    for (auto* a : {zoomIn, zoomOut, fit})
        a->setShortcutContext(Qt::WindowShortcut);
    view->addAction(m_p.markers->lineColoursAction());
    view->addSeparator();
    view->addAction(m_p.libraryDock->toggleViewAction());
    view->addAction(m_p.logDock->toggleViewAction());
    view->addSeparator();
    view->addAction(m_p.panes->nextAction());
    view->addAction(m_p.panes->previousAction());
    // Show, raise and focus (a toggle would hide the pane the user asked for).
    view->addAction(tr("Go to the &Library"), QKeySequence(Qt::CTRL | Qt::SHIFT | Qt::Key_L), this,
        [this]() { m_p.panes->focusPane(m_p.libraryPane); });
    view->addAction(tr("Go to the L&og"), QKeySequence(Qt::CTRL | Qt::SHIFT | Qt::Key_G), this,
        [this]() { m_p.panes->focusPane(m_p.logPane); });

    QMenu* help = bar->addMenu(tr("&Help"));
    help->addAction(m_lessonsAction);
    help->addAction(tr("&Keyboard Shortcuts"), QKeySequence::HelpContents, m_p.window, &MainWindow::showShortcuts);
    help->addSeparator();
    help->addAction(m_aboutAction);
}

void MainActions::buildToolBar()
{
    QToolBar* bar = m_p.window->addToolBar(tr("Run"));
    QStyle* style = m_p.window->style();
    bar->setObjectName(QStringLiteral("runToolBar"));
    bar->setToolButtonStyle(Qt::ToolButtonTextBesideIcon);
    m_runAction->setIcon(style->standardIcon(QStyle::SP_MediaPlay));
    m_cancelAction->setIcon(style->standardIcon(QStyle::SP_MediaStop));
    m_openAction->setIcon(style->standardIcon(QStyle::SP_DialogOpenButton));
    m_saveAction->setIcon(style->standardIcon(QStyle::SP_DialogSaveButton));
    bar->addAction(m_openAction);
    bar->addAction(m_saveAction);
    bar->addSeparator();
    bar->addAction(m_runAction);
    bar->addAction(m_profileAction);
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
    m_verifyToggle = new QCheckBox(tr("Verify"));
    m_verifyToggle->setObjectName(QStringLiteral("verifyToggle"));
    m_verifyToggle->setToolTip(m_verifyAction->toolTip());
    m_verifyToggle->setChecked(m_verifyAction->isChecked());
    connect(m_verifyToggle, &QCheckBox::toggled, m_verifyAction, &QAction::setChecked);
    connect(m_verifyAction, &QAction::toggled, m_verifyToggle, &QCheckBox::setChecked);
    bar->addWidget(new QLabel(QStringLiteral(" ")));
    bar->addWidget(m_verifyToggle);
    bar->addSeparator();
    m_lessonsAction->setIcon(style->standardIcon(QStyle::SP_FileDialogInfoView));
    bar->addAction(m_lessonsAction);  // one click away
}

void MainActions::setBackendChoice(const QString& backend)
{
    for (auto* a : m_backendGroup->actions())
        if (a->data().toString() == backend)
            a->setChecked(true);
    m_backendCombo->setCurrentIndex(std::max(0, m_backendCombo->findData(backend)));
}

void MainActions::setTracerChoice(const QString& tracer)
{
    for (auto* a : m_tracerGroup->actions())
        if (a->data().toString() == tracer)
            a->setChecked(true);
    m_tracerCombo->setCurrentIndex(std::max(0, m_tracerCombo->findData(tracer)));
}

QString MainActions::backendChoice() const
{
    return m_backendGroup->checkedAction() ? m_backendGroup->checkedAction()->data().toString() : QString();
}

QString MainActions::tracerChoice() const
{
    return m_tracerGroup->checkedAction() ? m_tracerGroup->checkedAction()->data().toString() : QString();
}

void MainActions::setRunning(bool running)
{
    m_runAction->setEnabled(!running);
    m_profileAction->setEnabled(!running);
    m_coldStartAction->setEnabled(!running);
    m_cancelAction->setEnabled(running);
    m_backendCombo->setEnabled(!running);
    m_tracerCombo->setEnabled(!running);
}

void MainActions::restoreChoices(const QSettings& s)
{
    setBackendChoice(s.value(QStringLiteral("run/backend")).toString());
    setTracerChoice(s.value(QStringLiteral("run/tracer")).toString());
    m_verifyAction->setChecked(s.value(QStringLiteral("run/verify"), true).toBool());
    m_deepVerifyAction->setChecked(s.value(QStringLiteral("run/deepVerify"), false).toBool());
}

void MainActions::saveChoices(QSettings& s) const
{
    s.setValue(QStringLiteral("run/backend"), backendChoice());
    s.setValue(QStringLiteral("run/tracer"), tracerChoice());
    s.setValue(QStringLiteral("run/verify"), m_verifyAction->isChecked());
    s.setValue(QStringLiteral("run/deepVerify"), m_deepVerifyAction->isChecked());
}

}  // namespace ps::ui
