#pragma once

#include "lessons/LessonCatalogue.h"
#include "model/Stage.h"
#include "ui/lessons/LessonOutcome.h"

#include <QElapsedTimer>
#include <QList>
#include <QObject>
#include <QString>

#include <nlohmann/json.hpp>

#include <memory>
#include <optional>

namespace ps::ui {

class WorkerClient;
struct RunDocument;

/// Runs a lesson's scripts, one after the other, in a worker of its own (a WorkerClient with no
/// library: lessons are never stored) and sets each report against expect.json
/// (LessonOutcome).
///
/// The worker process (torch imported, about 700 MB) starts at the first start() or prewarm()
/// and lives until release() or the runner's end; the next start() makes a fresh one.
/// Thread contract: GUI thread only, like WorkerClient.
class LessonRunner : public QObject {
    Q_OBJECT
public:
    /// `pythonEnv` "": the environment the build was configured with.
    explicit LessonRunner(const QString& pythonEnv, QObject* parent = nullptr);
    ~LessonRunner() override;

    /// Runs `sides` of `lesson` in that order. False, with the reason in `problem`, when a run
    /// is in progress or no worker can start.
    bool start(const lessons::Lesson& lesson, const nlohmann::json& expect, const QList<lessons::LessonSide>& sides,
        QString* problem);
    /// Kills the run in progress; the sides not yet run end as cancelled, then finished().
    void cancel();
    /// Starts the worker now, so that the first run finds torch imported (nothing when none can
    /// start: start() says why).
    void prewarm();
    /// Stops the worker: a run in progress ends as cancelled ("why" in its outcome), then
    /// finished(); the process is gone when this returns.
    void release(const QString& why);

    bool busy() const { return m_running.has_value(); }
    bool hasWorker() const { return m_worker != nullptr; }
    /// The side running (nullopt: none), the sides of the current (or last) run.
    std::optional<lessons::LessonSide> running() const { return m_running; }
    const QList<lessons::LessonSide>& sides() const { return m_sides; }
    bool cancelRequested() const { return m_cancelRequested; }
    /// The running side's stage, its capture, and seconds so far.
    model::Stage stage() const { return m_stage; }
    const QString& stageCapture() const { return m_stageCapture; }
    double elapsedSeconds() const { return static_cast<double>(m_clock.elapsed()) / 1000.0; }

signals:
    void sideStarted(ps::lessons::LessonSide side);
    void stageChanged();
    /// A side's outcome: what it reported, cancelled, or could not run; `seconds` it took.
    void sideFinished(ps::lessons::LessonSide side, const ps::ui::LessonOutcome& outcome, double seconds);
    /// The worker could not start for a run: the report's message (a start failure).
    void workerProblem(const QString& message);
    /// Every side asked for has an outcome; `cancelled` when the run was cancelled or released.
    void finished(bool cancelled);

private:
    bool ensureWorker(QString* problem);
    void startSide(lessons::LessonSide side);
    void onStage(model::Stage stage, const QString& capture);
    void onRunFinished(const std::shared_ptr<const RunDocument>& run);
    void endQueued(const QString& why);
    void finish();

    QString m_pythonEnv;
    WorkerClient* m_worker = nullptr;
    std::optional<lessons::LessonSide> m_running;
    QList<lessons::LessonSide> m_queue;  ///< the sides still to run after m_running
    QList<lessons::LessonSide> m_sides;
    bool m_cancelRequested = false;
    lessons::Lesson m_lesson;
    nlohmann::json m_expect;
    model::Stage m_stage = model::Stage::Start;
    QString m_stageCapture;
    QElapsedTimer m_clock;
};

}  // namespace ps::ui
