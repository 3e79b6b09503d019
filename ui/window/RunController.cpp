#include "ui/window/RunController.h"
#include "ui/common/QtText.h"

#include "ui/common/ElidedLabel.h"

#include "ui/common/NoticeBar.h"
#include "ui/common/StatusStyle.h"
#include "ui/editor/ScriptEditor.h"
#include "ui/editor/ScriptFile.h"
#include "ui/library/LibraryView.h"
#include "ui/library/RunStore.h"
#include "ui/report/ReportHeader.h"
#include "ui/report/ReportView.h"
#include "ui/report/ViolationsView.h"
#include "ui/run/LogView.h"
#include "ui/run/RunDocument.h"
#include "ui/run/WorkerClient.h"

#include "install/InstallLayout.h"
#include "ui/editor/ScriptLocations.h"

#include <QFileInfo>
#include <QLabel>
#include <QTabWidget>

namespace ps::ui {

namespace {

/// Line ends aside, the text a run was made from and the editor's are compared as they are.
QString normalized(QString text)
{
    text.remove(QLatin1Char('\r'));
    return text;
}

/// "run #12 of train.py", "stored run #12 of train.py", "the exported artifact of train.py".
QString runLabel(const RunDocument& run)
{
    const auto& r = run.report;
    const QString name = QFileInfo(QString::fromStdString(r.script)).fileName();
    if (run.origin == RunDocument::Origin::Export)
        return RunController::tr("the exported artifact of %1").arg(name);
    const QString id = r.runId ? QStringLiteral(" #%1").arg(*r.runId) : QString();
    return run.origin == RunDocument::Origin::Library ? RunController::tr("stored run%1 of %2").arg(id, name)
                                                      : RunController::tr("run%1 of %2").arg(id, name);
}

}  // namespace

RunController::RunController(const Parts& parts, QObject* parent) : QObject(parent), m_p(parts)
{
    connect(m_p.worker, &WorkerClient::stageChanged, this, &RunController::onStage);
    connect(m_p.worker, &WorkerClient::stageDetail, this, [this](const QString& detail) {
        m_stageDetail = detail;
        showProgress();
    });
    connect(m_p.worker, &WorkerClient::finished, this, &RunController::onFinished);
    connect(m_p.worker, &WorkerClient::stateChanged, this, &RunController::updateWorkerLabel);
    connect(m_p.worker, &WorkerClient::helloChanged, this, &RunController::updateWorkerLabel);
    connect(m_p.worker, &WorkerClient::output, m_p.log, &LogView::appendOutput);
    connect(m_p.worker, &WorkerClient::transfer, this, [this](const QString& file, quint64 done, quint64 total) {
        // Bytes arriving from another host: the run line says how far, while it lasts.
        m_transfer = done < total ? tr("receiving %1 · %2 of %3 MiB")
                                        .arg(file)
                                        .arg(static_cast<double>(done) / 1048576.0, 0, 'f', 0)
                                        .arg(static_cast<double>(total) / 1048576.0, 0, 'f', 0)
                                  : QString();
        showProgress();
    });
    connect(m_p.worker, &WorkerClient::workerEvent, this, [this](const QString& text) {
        m_p.log->appendNote(tr("The worker died: %1. A fresh worker is starting.").arg(text));
    });
    connect(m_p.editor, &ScriptEditor::textChanged, this, &RunController::updateFreshness);
    connect(m_p.editor, &ScriptEditor::filePathChanged, this, &RunController::updateFreshness);
    m_tick.setInterval(100);
    connect(&m_tick, &QTimer::timeout, this, &RunController::showProgress);
    updateWorkerLabel();
}

bool RunController::isRunning() const
{
    return m_p.worker->busy();
}

QString RunController::stageText() const
{
    if (!isRunning())
        return m_lastOutcome.isEmpty() ? tr("Ready") : m_lastOutcome;
    QString s = WorkerClient::stageWords(m_stage);
    if (!m_stageCapture.isEmpty())
        s += " · " + m_stageCapture;
    if (!m_transfer.isEmpty())
        s += " · " + m_transfer;
    return tr("%1 · %2 s").arg(s).arg(static_cast<double>(m_clock.elapsed()) / 1000.0, 0, 'f', 1);
}

void RunController::updateWorkerLabel()
{
    if (!m_p.workerLabel)
        return;
    m_p.workerLabel->setText(m_p.worker->stateText());
    const QString problem = m_p.worker->state() == WorkerClient::State::Unavailable ? m_p.worker->launchError()
                                                                                    : m_p.worker->stateProblem();
    m_p.workerLabel->setToolTip(plainTip(problem));
}

QString RunController::editorScript() const
{
    return m_p.scriptPath ? m_p.scriptPath() : m_p.editor->filePath();
}

bool RunController::start(const protocol::RunOptions& options, const QString& logTitle)
{
    if (isRunning())
        return false;
    const QString script = QString::fromStdString(options.script);
    if (m_p.notice->level() != NoticeBar::Level::Error || m_p.notice->text().contains(tr("worker")))
        m_p.notice->dismiss();
    m_stage = model::Stage::Start;
    m_stageCapture.clear();
    // The stages a run goes through (a capture's repeat for each further capture).
    using model::Stage;
    m_steps = {Stage::Start, Stage::Script, Stage::Capture, Stage::Lower};
    if (options.verify)
        m_steps << Stage::Verify;
    if (options.coldStart)
        m_steps << Stage::ColdStart;
    if (m_p.worker->storesRuns())
        m_steps << Stage::Store;
    m_previous = m_p.report->run();
    m_cancelNote.clear();
    m_clock.start();
    m_p.log->beginRun(logTitle);
    if (!m_p.worker->run(options))
        return false;
    m_p.editor->highlightLines({});
    m_p.report->beginRun(script);
    m_tick.start();
    m_p.stageLabel->setStyleSheet(QString());
    showProgress();
    emit runningChanged(true);
    return true;
}

void RunController::cancel()
{
    if (!isRunning())
        return;
    m_p.log->appendNote(tr("Cancelling: the worker is killed."));
    m_p.worker->cancel();
}

void RunController::onStage(model::Stage stage, const QString& capture)
{
    m_transfer.clear();
    m_stage = stage;
    m_stageCapture = capture;
    m_stageDetail.clear();
    m_stageClock.start();
    showProgress();
}

void RunController::showProgress()
{
    if (!isRunning())
        return;
    m_p.stageLabel->setStyleSheet(QString());
    m_p.stageLabel->setFullText(stageText());
    const int step = static_cast<int>(m_steps.indexOf(m_stage)) + 1;
    // What the stage is doing now, and for how long, once it takes a while: a long lowering is
    // seen to move.
    QString what = m_stageCapture;
    if (!m_stageDetail.isEmpty())
        what += (what.isEmpty() ? QString() : QStringLiteral(" · ")) + m_stageDetail;
    if (m_stageClock.isValid() && m_stageClock.elapsed() >= 5000)
        what += (what.isEmpty() ? QString() : QStringLiteral(" · "))
            + tr("this step %1 s").arg(m_stageClock.elapsed() / 1000);
    m_p.report->setProgress(WorkerClient::stageWords(m_stage), what, step, static_cast<int>(m_steps.size()),
        static_cast<double>(m_clock.elapsed()) / 1000.0);
}

void RunController::onFinished(const std::shared_ptr<const RunDocument>& run)
{
    m_tick.stop();
    const auto& r = run->report;
    using model::RunStatus;
    const QString verdict = StatusStyle::verdict(r);
    const QString message = QString::fromStdString(r.message);
    const QString storeError = run->storeError();
    m_lastOutcome = tr("Last run: %1 in %2 s").arg(verdict).arg(run->elapsedSeconds, 0, 'f', 1);
    if (r.runId)
        m_lastOutcome += tr(" · run #%1").arg(*r.runId);
    m_p.stageLabel->setFullText(m_lastOutcome);
    m_p.stageLabel->setStyleSheet(QStringLiteral("color: %1").arg(StatusStyle::verdictColor(r).name()));
    m_p.log->appendNote(tr("%1: %2").arg(verdict, message.section('\n', 0, 0))
        + (r.runId                     ? tr(" (stored as run #%1)").arg(*r.runId)
                : storeError.isEmpty() ? QString()
                                       : tr(" (not stored: %1)").arg(storeError)));

    NoticeBar* notice = m_p.notice;
    const bool hostProblem = r.startFailure && model::isHostFailure(*r.startFailure);
    if (hostProblem) {
        // The message names the host, says which and what to do; nothing ran, nothing was stored.
        notice->showNotice(
            NoticeBar::Level::Error, tr("%1. Nothing ran; Run > Run On > This Computer runs here.").arg(message));
    } else if (r.status == RunStatus::ConnectionLost) {
        notice->showNotice(NoticeBar::Level::Warning, tr("%1. The next run connects again.").arg(message));
    } else if (r.startFailure) {
        notice->showNotice(NoticeBar::Level::Error,
            tr("The worker could not start: %1. The studio's Python environment is made by %2.")
                .arg(message, QString::fromStdString(install::InstallLayout::environmentCommand())));
    } else if (r.status == RunStatus::WorkerDied) {
        notice->showNotice(NoticeBar::Level::Warning,
            tr("The worker died: %1. A fresh worker has been started; the next run works as usual.").arg(message));
    } else if (r.status == RunStatus::ProtocolError) {
        notice->showNotice(NoticeBar::Level::Warning,
            tr("The worker broke the protocol and was stopped: %1. A fresh worker has been started.").arg(message));
    } else if (r.status == RunStatus::Timeout) {
        notice->showNotice(NoticeBar::Level::Warning, tr("%1. A fresh worker has been started.").arg(message));
    } else if (r.status == RunStatus::Cancelled) {
        notice->showNotice(NoticeBar::Level::Info, tr("Run cancelled: the worker was killed and a fresh one started."));
    } else if (!storeError.isEmpty() && r.extra().contains("kept") && m_p.pushKeptRuns) {
        // The team library was away: the run waits in the local library; push it when it is back.
        notice->showNotice(NoticeBar::Level::Warning,
            tr("The run was not stored in the team library: %1").arg(storeError),
            {{tr("Push Kept Runs"), m_p.pushKeptRuns}});
    } else if (!storeError.isEmpty()) {
        notice->showNotice(NoticeBar::Level::Warning, tr("The run was not stored in the library: %1").arg(storeError));
    }
    emit runningChanged(false);
    if (r.status == RunStatus::Cancelled && m_previous
        && ScriptLocations::sameFile(
            QString::fromStdString(m_previous->report.script), QString::fromStdString(r.script))) {
        // The run before it comes back, marked: nothing old passes for this run's result.
        m_cancelNote = tr("Run cancelled; showing %1 from before.").arg(runLabel(*m_previous));
        const QString note = m_cancelNote;
        showRun(m_previous);
        m_cancelNote = note;
        updateFreshness();
    } else {
        showRun(run);  // a cancelled run with nothing before it says so itself
    }
    m_previous.reset();
    if (r.runId) {
        m_p.library->reload();
        m_p.library->selectRun(*r.runId);
    }
    emit runFinished(run);
}

void RunController::showRun(const std::shared_ptr<const RunDocument>& run)
{
    m_cancelNote.clear();
    m_deletedNote.clear();
    m_p.editor->highlightLines({});
    ReportView* report = m_p.report;
    report->showRun(run);
    // A run that ended in a violation or an error opens on what went wrong.
    if (run && run->report.status != model::RunStatus::Ok && report->violationsView()->count() > 0)
        report->tabs()->setCurrentIndex(ReportView::ViolationsTab);
    else if (report->tabs()->currentIndex() == ReportView::ViolationsTab)
        report->tabs()->setCurrentIndex(ReportView::GraphTab);
    rememberBaseline();
    updateFreshness();
    emit runShown();
}

void RunController::rememberBaseline()
{
    const auto& run = m_p.report->run();
    m_baselineKnown = false;
    m_baseline.clear();
    if (!run)
        return;
    if (!run->scriptText.empty()) {
        m_baseline = normalized(QString::fromStdString(run->scriptText));
        m_baselineKnown = true;
    } else if (ScriptLocations::sameFile(QString::fromStdString(run->report.script), editorScript())) {
        m_baseline = normalized(m_p.editor->text());  // an export: the text as it is now
        m_baselineKnown = true;
    }
}

void RunController::updateFreshness()
{
    if (isRunning())
        return;  // beginRun cleared the report
    ReportView* report = m_p.report;
    const auto& run = report->run();
    if (!run) {
        report->setStale(QString(), false);
        return;
    }
    const QString script = QString::fromStdString(run->report.script);
    QStringList reasons;
    if (!m_cancelNote.isEmpty())
        reasons << m_cancelNote;
    if (!m_deletedNote.isEmpty())
        reasons << m_deletedNote;
    bool grey = false;
    if (!ScriptLocations::sameFile(script, editorScript())) {
        const QString editorName = m_p.scriptName ? m_p.scriptName()
            : m_p.editor->filePath().isEmpty()    ? tr("an untitled script")
                                                  : QFileInfo(m_p.editor->filePath()).fileName();
        reasons << tr("This report is %1, not of %2 in the editor.").arg(runLabel(*run), editorName);
        grey = true;
    } else if (m_baselineKnown && normalized(m_p.editor->text()) != m_baseline) {
        reasons << tr("The script changed since this run: run it again (Ctrl+R) to update the report.");
    }
    report->setStale(reasons.join(QLatin1Char(' ')), grey);
}

bool RunController::scriptMatchesRun() const
{
    const auto& run = m_p.report->run();
    return run && ScriptLocations::sameFile(QString::fromStdString(run->report.script), editorScript());
}

bool RunController::openStoredRun(qint64 id)
{
    if (!m_store)
        return false;
    // While a run is on, the editor's script and the run's progress stay: what the run ends
    // with is of the script it started from.
    if (isRunning()) {
        m_p.notice->showNotice(NoticeBar::Level::Info,
            tr("Run #%1 is not opened while %2 runs: open it when the run ends, or cancel the run (Ctrl+.).")
                .arg(id)
                .arg(QFileInfo(editorScript()).fileName()));
        return false;
    }
    QString error;
    auto doc = m_store->load(id, &error);
    if (!doc) {
        m_p.notice->showNotice(NoticeBar::Level::Error, tr("Run #%1 cannot be opened: %2").arg(id).arg(error));
        return false;
    }
    // The run's script comes into the editor only when nothing there is being edited.
    const QString script = QString::fromStdString(doc->report.script);
    if (!ScriptLocations::sameFile(script, m_p.editor->filePath()) && QFileInfo(script).isFile()
        && !m_p.editor->isModified())
        m_p.editor->open(script);
    showRun(doc);
    QStringList damaged;
    for (const auto& a : doc->artifacts)
        if (!a.error.empty())
            damaged << QString::fromStdString(a.error);
    if (!damaged.isEmpty())
        m_p.notice->showNotice(NoticeBar::Level::Warning,
            tr("Part of run #%1 is damaged in the library: %2").arg(id).arg(damaged.join("; ")));
    return true;
}

void RunController::runsDeleted(const QList<qint64>& ids)
{
    const auto& run = m_p.report->run();
    if (!run || run->origin == RunDocument::Origin::Export || !run->report.runId || !ids.contains(*run->report.runId))
        return;
    m_deletedNote
        = tr("Run #%1 was deleted from the library: what is shown is all that is left of it.").arg(*run->report.runId);
    updateFreshness();
}

void RunController::scriptOpened(const QString& path)
{
    if (isRunning() || path.isEmpty())
        return;
    if (scriptMatchesRun()) {
        updateFreshness();
        return;
    }
    if (m_store) {
        if (const qint64 id = m_store->lastRunOf(path); id > 0) {
            QString error;
            if (auto doc = m_store->load(id, &error)) {
                showRun(doc);
                return;
            }
        }
    }
    updateFreshness();  // another script's report: greyed, and said so
}

}  // namespace ps::ui
