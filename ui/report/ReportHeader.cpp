#include "ui/report/ReportHeader.h"

#include "model/JsonFields.h"
#include "model/WorkerInfo.h"
#include "ui/common/QtText.h"

#include "ui/common/StatusStyle.h"
#include "ui/editor/UnsavedScript.h"
#include "ui/run/RunDocument.h"

#include <QDateTime>
#include <QFileInfo>
#include <QHBoxLayout>
#include <QLabel>
#include <QLocale>
#include <QProgressBar>
#include <QTextDocument>
#include <QVBoxLayout>

namespace ps::ui {

namespace {

QString when(const QString& iso)
{
    const QDateTime t = QDateTime::fromString(iso, Qt::ISODateWithMs);
    return t.isValid() ? QLocale().toString(t.toLocalTime(), QLocale::ShortFormat) : iso;
}

}  // namespace

ReportHeader::ReportHeader(QWidget* parent) : QWidget(parent)
{
    m_identity = new QLabel;
    m_identity->setObjectName(QStringLiteral("reportIdentity"));
    m_identity->setTextFormat(Qt::RichText);
    m_identity->setTextInteractionFlags(Qt::TextSelectableByMouse);
    m_verdict = new QLabel;
    m_verdict->setWordWrap(true);
    m_verdict->setTextFormat(Qt::RichText);
    m_verdict->setTextInteractionFlags(Qt::TextSelectableByMouse);
    m_facts = new QLabel;
    m_facts->setWordWrap(true);
    m_facts->setTextFormat(Qt::RichText);
    m_facts->setTextInteractionFlags(Qt::TextSelectableByMouse);

    m_progressText = new QLabel;
    m_progressText->setTextFormat(Qt::PlainText);
    m_progressText->setObjectName(QStringLiteral("reportProgressText"));
    m_progress = new QProgressBar;
    m_progress->setObjectName(QStringLiteral("reportProgress"));
    m_progress->setTextVisible(false);
    m_progress->setMaximumWidth(220);
    m_progress->setMaximumHeight(12);
    m_progressRow = new QWidget;
    auto* pl = new QHBoxLayout(m_progressRow);
    pl->setContentsMargins(0, 0, 0, 0);
    pl->addWidget(m_progress);
    pl->addWidget(m_progressText, 1);

    m_stale = new QLabel;
    m_stale->setTextFormat(Qt::PlainText);
    m_stale->setObjectName(QStringLiteral("reportStale"));
    m_stale->setWordWrap(true);
    m_stale->setMargin(3);
    // Amber on a light background whatever the palette: the one place the report says "old".
    m_stale->setStyleSheet(QStringLiteral("QLabel { background: #fff3cd; color: #6b4e00; border-radius: 3px; }"));

    auto* layout = new QVBoxLayout(this);
    layout->setContentsMargins(0, 0, 0, 0);
    layout->setSpacing(1);
    layout->addWidget(m_identity);
    layout->addWidget(m_progressRow);
    layout->addWidget(m_verdict);
    layout->addWidget(m_facts);
    layout->addWidget(m_stale);
    m_progressRow->hide();
    m_stale->hide();
}

QString ReportHeader::ranWith(const RunDocument& run)
{
    QStringList pairs;
    for (const auto& c : run.report.captures) {
        QString pair = QString::fromStdString(c.backend.empty() ? std::string("?") : c.backend);
        if (!c.tracer.empty())
            pair += QStringLiteral(" / ") + QString::fromStdString(c.tracer);
        if (!pairs.contains(pair))
            pairs << pair;
    }
    return pairs.join(QStringLiteral(", "));
}

QString ReportHeader::identity(const RunDocument& run)
{
    const auto& r = run.report;
    const QString script = QString::fromStdString(r.script);
    QStringList parts;
    parts << (script.isEmpty() ? tr("(no script)") : UnsavedScript::displayName(script));
    if (run.origin == RunDocument::Origin::Library)
        parts << (r.runId ? tr("stored run #%1").arg(*r.runId) : tr("stored run"));
    else if (run.origin == RunDocument::Origin::Export)
        parts << tr("exported artifact");
    else
        parts << (r.runId ? tr("run #%1").arg(*r.runId) : tr("run (not stored)"));
    if (!run.createdAt.isEmpty())
        parts << when(run.createdAt);
    const QString ran = ranWith(run);
    parts << (ran.isEmpty() ? tr("no capture ran") : tr("ran %1").arg(ran));
    return parts.join(QStringLiteral(" · "));
}

void ReportHeader::showEmpty(const QString& hint)
{
    m_identity->setText(QString());
    m_identity->hide();
    m_verdictHtml = hint;
    m_verdictPlain = plainOf(hint);
    m_verdict->setText(hint);
    m_facts->clear();
    m_facts->hide();
    hideProgress();
    setStale(QString());
}

void ReportHeader::showRun(const RunDocument& run)
{
    const auto& r = run.report;
    const QString script = QString::fromStdString(r.script);
    m_identity->setText(QStringLiteral("<b>%1</b>").arg(identity(run).toHtmlEscaped()));
    m_identity->setToolTip(plainTip(script));
    m_identity->show();
    QStringList facts;
    if (!run.trusted)
        facts << tr("not trusted: %1")
                     .arg(run.untrustedBecause.isEmpty() ? tr("python_code and the cache are executable")
                                                         : run.untrustedBecause);
    if (run.elapsedSeconds > 0)
        facts << tr("%1 s").arg(run.elapsedSeconds, 0, 'f', 1);
    if (!run.storeError().isEmpty() && run.origin == RunDocument::Origin::Run)
        facts << tr("not stored: %1").arg(run.storeError());
    // Where it ran, when that was another host.
    if (const auto worker = model::WorkerInfo::fromJson(model::JsonFields::member(r.extra(), "worker"));
        worker && worker->remote())
        facts << tr("ran on %1").arg(QString::fromStdString(worker->summary()));
    m_factsPlain = facts.join(QStringLiteral(" · "));
    m_facts->setText(QStringLiteral("<small>%1</small>").arg(facts.join(QStringLiteral(" · ")).toHtmlEscaped()));
    m_facts->setVisible(!facts.isEmpty());
    QString message = QString::fromStdString(r.message).section('\n', 0, 0);
    if (message.size() > 300)
        message = message.left(300) + QStringLiteral("…");
    const QString verdict = StatusStyle::verdict(r);
    m_verdictHtml = QStringLiteral("<b style='color:%1'>%2</b> %3")
                        .arg(StatusStyle::verdictColor(r).name(), verdict.toHtmlEscaped(), message.toHtmlEscaped());
    m_verdictPlain = verdict + QLatin1Char(' ') + message;
    m_verdict->setText(m_verdictHtml);
    hideProgress();
    setStale(QString());
}

void ReportHeader::showRunning(const QString& scriptPath)
{
    m_identity->setText(QStringLiteral("<b>%1</b>")
                            .arg(tr("%1 · running").arg(UnsavedScript::displayName(scriptPath)).toHtmlEscaped()));
    m_identity->setToolTip(scriptPath);
    m_identity->show();
    m_verdictHtml = tr("The results appear when the run ends.");
    m_verdictPlain = m_verdictHtml;
    m_verdict->setText(m_verdictHtml);
    m_facts->clear();
    m_factsPlain.clear();
    m_facts->hide();
    setStale(QString());
    m_progress->setRange(0, 0);  // busy until the first stage says how far along it is
    m_progressText->setText(tr("starting"));
    m_progressRow->show();
}

void ReportHeader::setProgress(const QString& stage, const QString& capture, int step, int steps, double seconds)
{
    if (steps > 0 && step > 0) {
        m_progress->setRange(0, steps);
        m_progress->setValue(step - 1);  // the stage in progress is not done yet
    } else {
        m_progress->setRange(0, 0);
    }
    QString text = steps > 0 && step > 0 ? tr("step %1 of %2: %3").arg(step).arg(steps).arg(stage) : stage;
    if (!capture.isEmpty())
        text += QStringLiteral(" · ") + capture;
    text += tr(" · %1 s").arg(seconds, 0, 'f', 1);
    m_progressText->setText(text);
    m_progressRow->show();
}

void ReportHeader::hideProgress()
{
    m_progressRow->hide();
    m_progress->setRange(0, 1);
    m_progress->setValue(0);
    m_progressText->clear();
}

void ReportHeader::setStale(const QString& reason)
{
    m_stale->setText(reason);
    m_stale->setVisible(!reason.isEmpty());
    if (reason.isEmpty()) {
        m_verdict->setText(m_verdictHtml);
        m_identity->setEnabled(true);
    } else {
        // Greyed: the verdict is not this script's (or this text's) any more.
        m_verdict->setText(QStringLiteral("<span style='color:gray'>%1</span>").arg(m_verdictPlain.toHtmlEscaped()));
        m_identity->setEnabled(false);
    }
}

QString ReportHeader::identityText() const
{
    return plainOf(m_identity->text());
}

QString ReportHeader::verdictText() const
{
    return m_verdictPlain;
}

QString ReportHeader::progressText() const
{
    return !m_progressRow->isHidden() ? m_progressText->text() : QString();
}

QString ReportHeader::staleText() const
{
    return !m_stale->isHidden() ? m_stale->text() : QString();
}

bool ReportHeader::progressShown() const
{
    return !m_progressRow->isHidden();
}

int ReportHeader::progressValue() const
{
    return m_progress->value();
}

int ReportHeader::progressMaximum() const
{
    return m_progress->maximum();
}

}  // namespace ps::ui
