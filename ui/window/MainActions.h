#pragma once

#include <QObject>
#include <QString>

class QAction;
class QActionGroup;
class QComboBox;
class QCheckBox;
class QDockWidget;
class QSettings;

namespace ps::ui {

class FindBar;
class MainWindow;
class NoticeBar;
class PaneCycler;
class PythonEnvironmentControl;
class RunHostControl;
class ReportView;
class RunMarkers;
class ScriptDocument;
class ScriptEditor;

/// The window's actions, its menu bar (File, Edit, Run, View, Help) and its Run toolbar, with
/// the run's choices they hold: backend, tracer, verify, deep verification. The actions are
/// the window's children (so its shortcuts and ShortcutsDialog see them); they call the
/// window's slots, the script document and the panes; the window keeps the behaviour.
///
/// Thread contract: GUI thread only.
class MainActions : public QObject {
    Q_OBJECT
public:
    struct Parts {
        MainWindow* window = nullptr;
        ScriptEditor* editor = nullptr;
        FindBar* editorFind = nullptr;  ///< the editor's find bar
        ReportView* report = nullptr;
        NoticeBar* notice = nullptr;
        ScriptDocument* document = nullptr;
        RunMarkers* markers = nullptr;
        PaneCycler* panes = nullptr;
        int reportPane = -1;  ///< the report's, the library's and the log's panes in `panes`
        int libraryPane = -1;
        int logPane = -1;
        PythonEnvironmentControl* environment = nullptr;
        QDockWidget* libraryDock = nullptr;
        QDockWidget* logDock = nullptr;
        RunHostControl* hosts = nullptr;  ///< Run > Run On
        QAction* checkCurrent = nullptr;  ///< Run > Check Current Run On… (the library's)
    };

    /// Builds the actions, the menus and the toolbar into parts.window.
    explicit MainActions(const Parts& parts);

    QAction* runAction() const { return m_runAction; }
    QAction* profileAction() const { return m_profileAction; }  ///< Run > Profile: a run with --profile
    /// Run > Measure Cold Start: a run with --cold-start.
    QAction* coldStartAction() const { return m_coldStartAction; }
    QAction* pushKeptRunsAction() const { return m_pushKeptRunsAction; }
    QAction* exportTraceAction() const { return m_exportTraceAction; }
    QAction* exportReportAction() const { return m_exportReportAction; }
    QAction* cancelAction() const { return m_cancelAction; }
    QAction* verifyAction() const { return m_verifyAction; }
    /// The tool bar's check box for verifyAction (a setting, so it looks like one).
    QCheckBox* verifyToggle() const { return m_verifyToggle; }
    QAction* deepVerifyAction() const { return m_deepVerifyAction; }

    /// "" : the script decides; else inductor / eager (make_fx / dynamo). The menu's radio
    /// items and the toolbar's combo boxes show the same choice.
    void setBackendChoice(const QString& backend);
    void setTracerChoice(const QString& tracer);
    QString backendChoice() const;
    QString tracerChoice() const;
    /// Run and the choices are disabled while a run goes, Cancel enabled.
    void setRunning(bool running);

    /// The run's choices as the last session left them (run/backend, run/tracer, run/verify,
    /// run/deepVerify), and back.
    void restoreChoices(const QSettings& settings);
    void saveChoices(QSettings& settings) const;

private:
    void buildActions();
    void buildMenus();
    void buildToolBar();

    Parts m_p;
    QAction* m_newAction;
    QAction* m_openAction;
    QAction* m_saveAction;
    QAction* m_saveAsAction;
    QAction* m_openLibraryAction;
    QAction* m_newLibraryAction;
    QAction* m_openTeamLibraryAction;
    QAction* m_pushKeptRunsAction;
    QAction* m_exportTraceAction;   ///< File > Export Compile Trace…
    QAction* m_exportReportAction;  ///< File > Export Report… (ReportExport)
    QAction* m_quitAction;
    QAction* m_findAction;
    QAction* m_findNextAction;
    QAction* m_findPrevAction;
    QAction* m_gotoAction;
    QAction* m_runAction;
    QAction* m_profileAction;
    QAction* m_coldStartAction;
    QAction* m_cancelAction;
    QAction* m_verifyAction;
    QCheckBox* m_verifyToggle = nullptr;
    QAction* m_deepVerifyAction;
    QAction* m_aboutAction;
    QAction* m_lessonsAction;
    QActionGroup* m_backendGroup;
    QActionGroup* m_tracerGroup;
    QComboBox* m_backendCombo;
    QComboBox* m_tracerCombo;
};

}  // namespace ps::ui
