#pragma once

#include <QElapsedTimer>
#include <QMainWindow>
#include <QTimer>

#include <memory>

class QAction;
class QActionGroup;
class QComboBox;
class QDockWidget;
class QLabel;
class QMenu;
class QSplitter;

namespace ps::ui {

class FindBar;
class LessonsView;
class LibraryView;
class PythonEnvironmentControl;
class LogView;
class NoticeBar;
class ReportView;
class RunStore;
class ScriptEditor;
class WorkerClient;
struct RunDocument;

struct MainWindowOptions {
    QString libraryPath;       ///< "" : the last one used, else RunStore::defaultPath()
    QString pythonEnv;         ///< "" : the environment the build was configured with
    bool prewarm = true;       ///< start a worker (import torch) as soon as the window is up
    bool restoreState = true;  ///< geometry, dock layout and the last script from QSettings
};

/// The studio's window: the script editor on the left, the run's tabs on the right, the
/// library and the log as docks. Runs go to the worker process through WorkerClient; stored
/// runs come from the library through RunStore. Selecting graph nodes marks their script lines
/// and their kernels in Source; clicking a script line (or a kernel) selects its nodes.
class MainWindow : public QMainWindow {
    Q_OBJECT
public:
    explicit MainWindow(const MainWindowOptions& options = {}, QWidget* parent = nullptr);
    ~MainWindow() override;

    /// A script, or an exported NAME.py with NAME.cache and NAME.json beside it. False (and the
    /// notice bar says why) when the file is refused.
    bool openPath(const QString& path);
    /// Switches to another library file; false (the notice says why) when it cannot be used.
    bool openLibrary(const QString& path);
    bool openStoredRun(qint64 id);
    /// "" : the script decides; else inductor / eager (make_fx / dynamo).
    void setBackendChoice(const QString& backend);
    void setTracerChoice(const QString& tracer);
    QString backendChoice() const;
    QString tracerChoice() const;

    ScriptEditor* editor() const { return m_editor; }
    ReportView* report() const { return m_report; }
    LibraryView* libraryView() const { return m_library; }
    LessonsView* lessonsView() const { return m_lessons; }
    QDockWidget* lessonsDock() const { return m_lessonsDock; }
    LogView* logView() const { return m_log; }
    NoticeBar* notice() const { return m_notice; }
    WorkerClient* worker() const { return m_worker; }
    RunStore* store() const { return m_store.get(); }
    QString stageText() const;
    bool isRunning() const;
    QAction* runAction() const { return m_runAction; }
    QAction* deepVerifyAction() const { return m_deepVerifyAction; }
    QAction* cancelAction() const { return m_cancelAction; }
    QStringList recentFiles() const;

public slots:
    void startRun();
    void cancelRun();
    void showAbout();
    /// Shows the Lessons dock and raises it.
    void showLessons();

signals:
    void runFinished(const std::shared_ptr<const ps::ui::RunDocument>& run);
    /// A run (finished, stored or exported) is now shown.
    void runShown();

protected:
    void closeEvent(QCloseEvent* event) override;
    void dragEnterEvent(QDragEnterEvent* event) override;
    void dropEvent(QDropEvent* event) override;

private:
    void buildActions();
    void buildMenus();
    void buildToolBar();
    void restoreSettings(bool restoreState);
    /// Once a graph is on screen, narrows the editor so the report gets the room a graph needs,
    /// unless the user has placed the splitter (now, or in a past session). Once per window.
    void makeRoomForGraph();
    void saveSettings();
    bool maybeSave();
    bool save();
    bool saveAs();
    void openDialog();
    void openLibraryDialog(bool create);
    void addRecent(const QString& path);
    void rebuildRecentMenu();
    void updateTitle();
    void updateRunActions();
    void showRun(const std::shared_ptr<const RunDocument>& run);
    void onRunFinished(const std::shared_ptr<const RunDocument>& run);
    void onStage(const QString& stage, const QString& capture);
    void onNodesSelected(const QList<int>& nodes);
    void onScriptLineClicked(int line);
    void onSourceNodes(const QStringList& names);
    void onLocation(const QString& file, int line);
    bool scriptMatchesRun() const;

    ScriptEditor* m_editor;
    FindBar* m_editorFind;
    ReportView* m_report;
    LibraryView* m_library;
    LogView* m_log;
    NoticeBar* m_notice;
    QSplitter* m_split;
    bool m_splitPlaced = false;   ///< the user moved the splitter, or its place was restored
    bool m_roomForGraph = false;  ///< makeRoomForGraph did its work
    QDockWidget* m_libraryDock;
    QDockWidget* m_logDock;
    LessonsView* m_lessons;
    QDockWidget* m_lessonsDock;
    WorkerClient* m_worker;
    PythonEnvironmentControl* m_environment;
    std::unique_ptr<RunStore> m_store;

    QAction* m_newAction;
    QAction* m_openAction;
    QAction* m_saveAction;
    QAction* m_saveAsAction;
    QAction* m_openLibraryAction;
    QAction* m_newLibraryAction;
    QAction* m_quitAction;
    QAction* m_findAction;
    QAction* m_findNextAction;
    QAction* m_findPrevAction;
    QAction* m_gotoAction;
    QAction* m_runAction;
    QAction* m_cancelAction;
    QAction* m_verifyAction;
    QAction* m_deepVerifyAction;
    QAction* m_aboutAction;
    QAction* m_lessonsAction;
    QActionGroup* m_backendGroup;
    QActionGroup* m_tracerGroup;
    QMenu* m_recentMenu = nullptr;
    QComboBox* m_backendCombo;
    QComboBox* m_tracerCombo;
    QLabel* m_stageLabel;
    QLabel* m_workerLabel;

    QString m_stage;
    QString m_stageCapture;
    QElapsedTimer m_clock;
    QTimer m_tick;
    QString m_lastOutcome;
    bool m_syncing = false;
};

}  // namespace ps::ui
