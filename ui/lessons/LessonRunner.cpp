#include "ui/lessons/LessonRunner.h"

#include "ui/run/RunDocument.h"
#include "ui/run/WorkerClient.h"

#include "lessons/LessonExpectation.h"
#include "protocol/RunOptions.h"

#include <QSettings>

namespace ps::ui {

LessonRunner::LessonRunner(const QString& pythonEnv, QObject* parent) : QObject(parent), m_pythonEnv(pythonEnv)
{ }

LessonRunner::~LessonRunner()
{
    if (m_worker) {
        // Nothing of the worker may reach this half-destroyed runner; its destructor kills it.
        m_worker->disconnect(this);
        delete m_worker;
        m_worker = nullptr;
    }
}

bool LessonRunner::ensureWorker(QString* problem)
{
    if (m_worker && !m_worker->launchError().isEmpty()) {
        delete m_worker;  // try again: the environment may have been made since
        m_worker = nullptr;
    }
    if (!m_worker) {
        m_worker = new WorkerClient(m_pythonEnv, this);
        m_worker->setLibraryPath(QString());  // lessons are never stored in the library
        connect(m_worker, &WorkerClient::stageChanged, this, &LessonRunner::onStage);
        connect(m_worker, &WorkerClient::finished, this, &LessonRunner::onRunFinished);
    }
    if (!m_worker->launchError().isEmpty()) {
        if (problem)
            *problem = m_worker->launchError();
        return false;
    }
    return true;
}

bool LessonRunner::start(const lessons::Lesson& lesson, const nlohmann::json& expect,
    const QList<lessons::LessonSide>& sides, QString* problem)
{
    if (busy() || sides.isEmpty()) {
        *problem = busy() ? tr("a run is in progress") : tr("nothing to run");
        return false;
    }
    if (!ensureWorker(problem))
        return false;
    m_lesson = lesson;
    m_expect = expect;
    m_sides = sides;
    m_queue = sides.mid(1);
    m_cancelRequested = false;
    startSide(sides.front());
    return true;
}

void LessonRunner::startSide(lessons::LessonSide side)
{
    m_running = side;
    m_stage = model::Stage::Start;
    m_stageCapture.clear();
    m_clock.start();
    emit sideStarted(side);

    protocol::RunOptions options;
    options.script = LessonOutcome::scriptPath(m_lesson, side).toStdString();
    options.verify = true;
    options.timeoutSeconds = QSettings().value(QStringLiteral("run/timeoutSeconds"), 600).toDouble();
    if (!m_worker->run(options)) {
        emit sideFinished(side,
            LessonOutcome::failed(
                m_lesson, side, model::RunStatus::Error, tr("the lesson's worker is busy with another run"), m_expect),
            0.0);
        endQueued(tr("not run: the other script could not run"));
        finish();
    }
}

void LessonRunner::cancel()
{
    if (!busy() || !m_worker)
        return;
    m_cancelRequested = true;
    m_worker->cancel();
    emit stageChanged();
}

void LessonRunner::prewarm()
{
    if (ensureWorker(nullptr))
        m_worker->prewarm();
}

void LessonRunner::release(const QString& why)
{
    if (!m_worker)
        return;
    const auto side = m_running;
    // The worker's destructor kills its process (a run, or the one kept warm) and waits for its
    // thread; nothing it would still send may arrive here.
    m_worker->disconnect(this);
    delete m_worker;
    m_worker = nullptr;
    if (side) {
        m_cancelRequested = true;
        emit sideFinished(*side, LessonOutcome::failed(m_lesson, *side, model::RunStatus::Cancelled, why, m_expect),
            elapsedSeconds());
        endQueued(why);
        finish();
    }
}

void LessonRunner::onStage(model::Stage stage, const QString& capture)
{
    if (!busy())
        return;
    m_stage = stage;
    m_stageCapture = capture;
    emit stageChanged();
}

void LessonRunner::onRunFinished(const std::shared_ptr<const RunDocument>& run)
{
    if (!busy() || !run)
        return;
    const lessons::LessonSide side = *m_running;
    const auto& r = run->report;
    // A cancelled run says so itself (status "cancelled"); one that ended as the cancel came
    // keeps what it found.
    emit sideFinished(side, LessonOutcome(m_lesson, side, r.toJson(), m_expect), run->elapsedSeconds);
    if (!m_cancelRequested && r.startFailure)
        emit workerProblem(QString::fromStdString(r.message));
    if (!m_cancelRequested && !m_queue.isEmpty()) {
        startSide(m_queue.takeFirst());
        return;
    }
    if (m_cancelRequested)
        endQueued(tr("not run: the lesson was cancelled"));
    finish();
}

void LessonRunner::endQueued(const QString& why)
{
    for (lessons::LessonSide side : std::as_const(m_queue))
        emit sideFinished(side, LessonOutcome::failed(m_lesson, side, model::RunStatus::Cancelled, why, m_expect), 0.0);
    m_queue.clear();
}

void LessonRunner::finish()
{
    m_running.reset();
    const bool cancelled = m_cancelRequested;
    m_cancelRequested = false;
    emit finished(cancelled);
}

}  // namespace ps::ui
