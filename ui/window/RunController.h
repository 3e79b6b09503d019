#pragma once

#include "model/Stage.h"
#include "protocol/RunOptions.h"

#include <QElapsedTimer>
#include <QObject>
#include <QStringList>
#include <QTimer>

#include <functional>
#include <memory>

class QLabel;

namespace ps::ui {

class ElidedLabel;
class LibraryView;
class LogView;
class NoticeBar;
class ReportView;
class RunStore;
class ScriptEditor;
class WorkerClient;
struct RunDocument;

/// The window's run flow: starts and cancels runs through WorkerClient, shows their progress
/// (the report header and the status bar), shows finished and stored runs, and keeps the
/// report truthful about what it shows: a new run clears it; a report of another script, of an
/// older text of this one, or kept after a cancel is marked so; opening a script shows its last
/// stored run. It also keeps the worker indicator in step with the worker's own state.
///
/// Thread contract: GUI thread only. It owns none of the widgets it drives.
class RunController : public QObject {
    Q_OBJECT
public:
    struct Parts {
        ScriptEditor* editor = nullptr;
        ReportView* report = nullptr;
        WorkerClient* worker = nullptr;
        LogView* log = nullptr;
        NoticeBar* notice = nullptr;
        LibraryView* library = nullptr;
        ElidedLabel* stageLabel = nullptr;  ///< the status bar's run line (shortened, whole in its tooltip)
        QLabel* workerLabel = nullptr;      ///< the status bar's worker indicator
        /// The file a run of the editor's script reads (its file, or an unsaved copy's);
        /// unset: the editor's file.
        std::function<QString()> scriptPath;
        /// What the editor's script is called (its file's name, or its copy's: untitled.py,
        /// mlp_inference.py); unset: its file's name, else "an untitled script".
        std::function<QString()> scriptName;
        /// Sends the runs kept in the local library while the team library was away (offered on
        /// the notice of a run kept so); unset: not offered.
        std::function<void()> pushKeptRuns;
    };

    explicit RunController(const Parts& parts, QObject* parent = nullptr);

    /// The library stored runs are opened from (null: none).
    void setStore(RunStore* store) { m_store = store; }

    bool isRunning() const;
    /// The status bar's run line: the stage and seconds while running, else the last outcome.
    QString stageText() const;
    /// The stages this run is expected to go through, in order (Start, Script, ...).
    const QList<model::Stage>& plannedStages() const { return m_steps; }

    /// Starts a run of options.script (saved by the caller); `logTitle` heads its part of the
    /// log ("train.py (script's backend, make_fx)"). False when a run is already going.
    bool start(const protocol::RunOptions& options, const QString& logTitle);
    void cancel();
    /// Shows a run (just finished, stored or exported) in the report.
    void showRun(const std::shared_ptr<const RunDocument>& run);
    bool openStoredRun(qint64 id);
    /// A script was opened in the editor: shows its newest stored run (marked as stored run #N,
    /// stale when its text differs), or marks the report as another script's.
    void scriptOpened(const QString& path);
    /// The report shows a run of the script in the editor.
    bool scriptMatchesRun() const;
    /// Runs were deleted from the library: when the report shows one of them, it says so.
    void runsDeleted(const QList<qint64>& ids);

signals:
    void runFinished(const std::shared_ptr<const ps::ui::RunDocument>& run);
    /// A run (finished, stored or exported) is now shown.
    void runShown();
    void runningChanged(bool running);

private:
    void onStage(model::Stage stage, const QString& capture);
    void onFinished(const std::shared_ptr<const RunDocument>& run);
    void showProgress();
    void updateWorkerLabel();
    /// Compares what the report shows with the editor and marks the report (ReportView::setStale).
    void updateFreshness();
    /// The script text the shown run was made from ("" when unknown).
    void rememberBaseline();
    QString editorScript() const;

    Parts m_p;
    RunStore* m_store = nullptr;
    model::Stage m_stage = model::Stage::Start;
    QString m_stageCapture;
    QString m_stageDetail;  ///< what the stage does now (WorkerClient::stageDetail)
    QString m_transfer;     ///< "receiving capture-0.cache · 48 of 200 MiB" while bytes arrive
    QList<model::Stage> m_steps;
    QElapsedTimer m_clock;
    QElapsedTimer m_stageClock;  ///< since the stage under way began
    QTimer m_tick;               ///< refreshes the seconds shown while a run goes
    QString m_lastOutcome;
    std::shared_ptr<const RunDocument> m_previous;  ///< shown when the run started
    QString m_baseline;                             ///< the text the shown run was made from
    bool m_baselineKnown = false;
    QString m_deletedNote;  ///< "Run #N was deleted ..." while that run is shown
    QString m_cancelNote;   ///< "Run cancelled; showing run #N ..." while that older run is shown
};

}  // namespace ps::ui
