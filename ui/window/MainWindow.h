#pragma once

#include "remote/RemoteTarget.h"

#include <QMainWindow>

#include <memory>
#include <optional>

class QAction;
class QDockWidget;
class QLabel;
class QSplitter;

namespace ps::ui {

class CrossSelection;
class EditorTabs;
class ElidedLabel;
class FindBar;
class LessonsView;
class LessonsWindow;
class LibraryView;
class PythonEnvironmentControl;
class RunHostControl;
class LogView;
class MainActions;
class NoticeBar;
class PaneCycler;
class ReportView;
class RunController;
class RunMarkers;
class RunStore;
class KeptRunsPush;
class ScriptDocument;
class ScriptEditor;
class WorkerClient;
struct RunDocument;
class WorkbenchLayout;

struct MainWindowOptions {
    QString libraryPath;       ///< "" : the last one used, else RunStore::defaultPath()
    QString pythonEnv;         ///< "" : the environment the build was configured with
    bool prewarm = true;       ///< start a worker (import torch) as soon as the window is up
    bool restoreState = true;  ///< geometry, dock layout and the last script from QSettings
    /// --host (with --remote-studio, --remote-dir, and --python-env naming a path there): Run On
    /// for this session, whatever a script's folder chose, until the user picks another place;
    /// never remembered. nullopt: each folder's choice.
    std::optional<remote::RemoteTarget> host;
};

/// The studio's window: the script editor on the left, the run's tabs on the right, the
/// library and the log as docks. Runs go to the worker process through WorkerClient; stored
/// runs come from the library through RunStore. Selecting graph nodes marks their script lines
/// and their kernels in Source; clicking a script line (or a kernel) selects its nodes
/// (CrossSelection). The script is a ScriptDocument; the actions, menus and toolbar are
/// MainActions'.
class MainWindow : public QMainWindow {
    Q_OBJECT
public:
    explicit MainWindow(const MainWindowOptions& options = {}, QWidget* parent = nullptr);
    ~MainWindow() override;

    /// A script, or an exported NAME.py with NAME.cache and NAME.json beside it. False (and the
    /// notice bar says why) when the file is refused.
    bool openPath(const QString& path);
    /// Switches to another library file; false (the notice says why) when it cannot be used.
    /// `remember`: later launches open it too (false for --library: a command-line option is
    /// for this window only).
    bool openLibrary(const QString& path, bool remember = true);
    bool openStoredRun(qint64 id);
    /// "" : the script decides; else inductor / eager (make_fx / dynamo).
    void setBackendChoice(const QString& backend);
    void setTracerChoice(const QString& tracer);
    QString backendChoice() const;
    QString tracerChoice() const;

    ScriptEditor* editor() const { return m_editor; }
    /// The script's tab and the read-only viewers of library files beside it.
    EditorTabs* editorTabs() const { return m_editorTabs; }
    ReportView* report() const { return m_report; }
    LibraryView* libraryView() const { return m_library; }
    LessonsView* lessonsView() const { return m_lessons; }
    LessonsWindow* lessonsWindow() const { return m_lessonsWindow.get(); }
    LogView* logView() const { return m_log; }
    NoticeBar* notice() const { return m_notice; }
    WorkerClient* worker() const { return m_worker; }
    RunHostControl* hosts() const { return m_hosts; }
    PythonEnvironmentControl* environment() const { return m_environment; }
    /// The status bar's worker words ("worker: gpu-box · torch … · 1x …").
    QString workerText() const;
    RunController* runs() const { return m_runs; }
    RunMarkers* runMarkers() const { return m_markers; }
    RunStore* store() const { return m_store.get(); }
    QString stageText() const;
    bool isRunning() const;
    QAction* runAction() const;
    QAction* profileAction() const;
    QAction* deepVerifyAction() const;
    QAction* cancelAction() const;
    QStringList recentFiles() const;
    PaneCycler* panes() const { return m_panes; }

public slots:
    /// `profile`: Run > Profile, a verified run whose artifact calls are then profiled per kernel.
    /// `coldStart`: Run > Measure Cold Start, a verified run whose start-up is then measured.
    void startRun(bool profile = false, bool coldStart = false);
    void cancelRun();
    void showAbout();
    /// Help > Keyboard Shortcuts (ShortcutsDialog, non-modal).
    void showShortcuts();
    /// Shows the Lessons window and raises it.
    void showLessons();
    /// File > Open Library… (`create`: New Library…): asks for a file, then openLibrary().
    void openLibraryDialog(bool create);
    /// File > Open Team Library…: asks for a PostgreSQL connection string, then openLibrary().
    void openTeamLibraryDialog();
    /// File > Push Kept Runs: sends the runs the local library keeps for a team library that
    /// was away (on a pool thread); the notice says what happened, then keptRunsPushed().
    void pushKeptRuns();
    QAction* pushKeptRunsAction() const;
    /// Shows why no script can run; when the studio's environment is missing (an installed
    /// studio's first start), offers Make the Environment… (EnvironmentSetupDialog).
    void showLaunchProblem(const QString& problem);
    /// Make the Environment…: runs `precompile-studio setup` in a dialog, then locates the worker again.
    void makeEnvironment();

signals:
    void runFinished(const std::shared_ptr<const ps::ui::RunDocument>& run);
    /// A run (finished, stored or exported) is now shown.
    void runShown();
    /// A push of kept runs ended (its outcome is on the notice bar).
    void keptRunsPushed();

protected:
    void closeEvent(QCloseEvent* event) override;
    void dragEnterEvent(QDragEnterEvent* event) override;
    void dropEvent(QDropEvent* event) override;

private:
    void restoreSettings(bool restoreState);
    void saveSettings();
    void updateRunActions();

    ScriptEditor* m_editor;
    EditorTabs* m_editorTabs;
    FindBar* m_editorFind;
    ReportView* m_report;
    LibraryView* m_library;
    LogView* m_log;
    NoticeBar* m_notice;
    QSplitter* m_split;
    WorkbenchLayout* m_layout;  ///< the first layout, and a splitter that tabs cannot move
    PaneCycler* m_panes;        ///< F6 / Ctrl+Tab between editor, report, library, log
    QDockWidget* m_libraryDock;
    KeptRunsPush* m_push;
    QDockWidget* m_logDock;
    LessonsView* m_lessons;
    std::unique_ptr<LessonsWindow> m_lessonsWindow;  ///< a top-level window, not a child
    WorkerClient* m_worker;
    RunController* m_runs;          ///< the run flow: runs, their progress, what the report shows
    bool m_profiling = false;       ///< the run under way was asked by Profile
    bool m_measuringStart = false;  ///< the run under way was asked by Measure Cold Start
    RunMarkers* m_markers;          ///< violations, warnings and line colours in the editor, graph and source
    PythonEnvironmentControl* m_environment;
    RunHostControl* m_hosts;
    std::unique_ptr<RunStore> m_store;
    ScriptDocument* m_document = nullptr;  ///< open, save, recent files, the title, the untitled copy
    CrossSelection* m_selection;           ///< editor, graph, Source and Violations in step
    MainActions* m_actions;                ///< the actions, menus and the Run toolbar
    ElidedLabel* m_stageLabel;
    QLabel* m_workerLabel;
};

}  // namespace ps::ui
