#include "ui/library/CheckOnDialog.h"

#include "model/CheckOutcome.h"
#include "model/VisibleText.h"
#include "remote/SshDestination.h"
#include "ui/common/QtText.h"
#include "ui/common/StatusStyle.h"
#include "ui/report/ColdStartBars.h"
#include "ui/run/PythonEnvironmentSetting.h"
#include "ui/run/RunHostSetting.h"

#include <QCheckBox>
#include <QDialogButtonBox>
#include <QFileDialog>
#include <QFutureWatcher>
#include <QHBoxLayout>
#include <QHeaderView>
#include <QLabel>
#include <QListWidget>
#include <QPalette>
#include <QProgressBar>
#include <QPushButton>
#include <QTreeWidget>
#include <QVBoxLayout>
#include <QtConcurrent/QtConcurrentRun>

namespace ps::ui {

namespace {

/// A row's reason as plain text (its tooltips are escaped).
constexpr int kWhyRole = Qt::UserRole + 1;

/// A target's worker may take this long: it imports torch, then a fresh process loads the pair
/// (its kernels compiled where its cache does not serve them) and calls eager fn beside it.
constexpr double kTargetTimeout = 900;

/// A run's or a host's words for a label: controls shown as escapes.
QString shownText(const std::string& text)
{
    return q(model::VisibleText::of(text));
}

QString firstCall(const std::optional<double>& s)
{
    if (!s)
        return QStringLiteral("–");
    return QStringLiteral("%1 s").arg(*s, 0, 'f', *s < 10 ? 2 : 1);
}

/// What keeping the outcomes gives the GUI thread: how many say something of the pair, and why
/// they were not kept ("" : kept).
struct Kept {
    int count = 0;
    QString why;
};

/// What preparing the check gives the GUI thread: the check, or why there is none.
struct Prepared {
    std::shared_ptr<run::StoredRunCheck> check;
    QString failure;
};

}  // namespace

CheckOnDialog::CheckOnDialog(
    const QString& libraryLocation, qint64 runId, const QString& runName, const QString& untrusted, QWidget* parent)
    : QDialog(parent), m_location(libraryLocation), m_runId(runId), m_untrusted(untrusted)
{
    setWindowTitle(tr("Check Run %1 On…").arg(runId));
    m_intro = new QLabel(tr("Will run %1 (%2) load there? Each target loads its pair as a server would: a fresh "
                            "process, plain torch.compiler.precompile, an empty Inductor cache, one call compared "
                            "with eager fn there. What each target says is kept with the run.")
                             .arg(runId)
                             .arg(runName));
    m_intro->setWordWrap(true);
    m_intro->setTextFormat(Qt::PlainText);
    m_targets = new QListWidget;
    m_targets->setObjectName(QStringLiteral("checkTargets"));
    m_targets->setMaximumHeight(m_targets->fontMetrics().height() * 7);  // a few targets; the results get the room
    m_offered.push_back({.label = "the studio's environment"});
    if (const QString env = PythonEnvironmentSetting().defaultEnvironment(); !env.isEmpty())
        m_offered.push_back({.pythonEnv = env.toStdString(), .label = env.toStdString()});
    for (const remote::RemoteTarget& host : RunHostSetting().hosts())
        m_offered.push_back({.host = host, .label = remote::SshDestination::displayName(host.host)});
    for (std::size_t i = 0; i < m_offered.size(); ++i) {
        const auto& t = m_offered[i];
        const QString where = t.host ? tr("%1 (over ssh)")
            : t.pythonEnv            ? tr("%1 (an environment here)")
                                     : tr("this computer: %1");
        auto* item = new QListWidgetItem(where.arg(shownText(t.label)), m_targets);
        item->setFlags(item->flags() | Qt::ItemIsUserCheckable);
        item->setCheckState(i == 0 ? Qt::Checked : Qt::Unchecked);
    }
    m_addEnv = new QPushButton(tr("Add &Environment…"));
    m_addEnv->setToolTip(tr("A Python environment folder (a venv or conda environment) on this computer"));
    m_folderPrompt = [](QWidget* parent) {
        return QFileDialog::getExistingDirectory(parent, tr("Python Environment"), QString());
    };
    connect(m_addEnv, &QPushButton::clicked, this, [this]() {
        const QString folder = m_folderPrompt ? m_folderPrompt(this) : QString();
        if (!folder.isEmpty())
            addEnvironment(folder);
    });
    m_checkButton = new QPushButton(tr("&Check"));
    m_checkButton->setObjectName(QStringLiteral("checkOnStart"));
    connect(m_checkButton, &QPushButton::clicked, this, &CheckOnDialog::startCheck);
    m_progress = new QProgressBar;
    m_progress->setTextVisible(true);
    m_progress->hide();
    m_coldStart = new QCheckBox(tr("Also measure cold &start there"));
    m_coldStart->setToolTip(tr("At each target, time the start-up in fresh processes: eager's first call, "
                               "torch.compile with an empty and a warm Inductor cache, and this pair with and "
                               "without its cache (as `library check --cold-start`; minutes on inductor)"));
    auto* row = new QHBoxLayout;
    row->addWidget(m_addEnv);
    row->addWidget(m_coldStart);
    row->addStretch(1);
    row->addWidget(m_progress);
    row->addWidget(m_checkButton);

    m_headline = new QLabel;
    m_headline->setObjectName(QStringLiteral("checkHeadline"));
    m_headline->setWordWrap(true);
    m_headline->setTextFormat(Qt::PlainText);
    m_results = new QTreeWidget;
    m_results->setRootIsDecorated(false);
    m_results->setHeaderLabels({tr("Target"), tr("torch"), tr("Outcome"), tr("First call"), tr("Matches eager")});
    m_results->setTextElideMode(Qt::ElideMiddle);
    m_results->header()->setStretchLastSection(false);
    m_results->header()->setSectionResizeMode(0, QHeaderView::Stretch);
    m_kept = new QLabel;
    m_kept->setObjectName(QStringLiteral("checkKept"));
    m_kept->setWordWrap(true);
    m_kept->setTextFormat(Qt::PlainText);
    m_reason = new QLabel;
    m_reason->setWordWrap(true);
    m_reason->setTextFormat(Qt::PlainText);
    m_reason->setTextInteractionFlags(Qt::TextSelectableByMouse);
    m_bars = new ColdStartBars;
    m_bars->setObjectName(QStringLiteral("checkColdStart"));
    m_bars->setLedger(std::nullopt);
    connect(m_results, &QTreeWidget::currentItemChanged, this, [this](QTreeWidgetItem* item) {
        // This check's rows come in the outcomes' order; earlier checks carry no ledger here.
        const int row = item ? m_results->indexOfTopLevelItem(item) : -1;
        const bool ours = row >= 0 && static_cast<std::size_t>(row) < m_outcomes.size();
        const auto& check = ours ? m_outcomes[static_cast<std::size_t>(row)].check : std::nullopt;
        m_bars->setLedger(check ? check->coldStart : std::nullopt);
        // The ledger's line is the bars' title: said once.
        QStringList lines = item ? item->data(0, kWhyRole).toString().split('\n') : QStringList();
        if (m_bars->hasLedger())
            lines.removeIf([](const QString& line) { return line.startsWith(tr("Cold start there: ")); });
        m_reason->setText(lines.join('\n'));
    });
    auto* buttons = new QDialogButtonBox(QDialogButtonBox::Close);
    connect(buttons, &QDialogButtonBox::rejected, this, &QDialog::reject);

    auto* layout = new QVBoxLayout(this);
    layout->addWidget(m_intro);
    layout->addWidget(m_targets);
    layout->addLayout(row);
    layout->addWidget(m_headline);
    layout->addWidget(m_results, 1);
    layout->addWidget(m_reason);
    layout->addWidget(m_bars);
    layout->addWidget(m_kept);
    layout->addWidget(buttons);
    if (!m_untrusted.isEmpty()) {
        m_headline->setText(tr("Not checked: %1").arg(m_untrusted));
        m_checkButton->setEnabled(false);
        m_checkButton->setToolTip(tr("Its script and python_code would execute there: trust the run first"));
    }
    resize(720, 520);
}

CheckOnDialog::~CheckOnDialog()
{
    cancelCheck();
}

void CheckOnDialog::done(int result)
{
    cancelCheck();
    QDialog::done(result);
}

void CheckOnDialog::setMeasureColdStart(bool on)
{
    m_coldStart->setChecked(on);
}

void CheckOnDialog::showEarlier(const std::vector<StoredCheck>& checks)
{
    if (m_busy || checks.empty())
        return;
    m_results->clear();
    QString latest;
    for (const StoredCheck& c : checks) {
        auto* item = new QTreeWidgetItem(m_results);
        item->setText(0, shownText(c.target.toStdString()));
        item->setText(1, c.torch.isEmpty() ? QStringLiteral("–") : shownText(c.torch.toStdString()));
        item->setText(2, q(model::keptCheckWords(c.outcome.toStdString(), c.runs)));
        item->setText(3,
            firstCall(
                c.firstCallMs ? std::optional<double>(static_cast<double>(*c.firstCallMs) / 1000.0) : std::nullopt));
        const bool ran = c.outcome == QLatin1String("loads") || c.outcome == QLatin1String("fallback");
        item->setText(4, ran ? (c.runs ? tr("yes") : tr("no")) : QStringLiteral("–"));
        const QString why = tr("Checked %1 by %2.\n%3")
                                .arg(c.checkedAt.left(16).replace('T', ' '), shownText(c.checkedBy.toStdString()),
                                    shownText(c.reason.toStdString()));
        item->setData(0, kWhyRole, why);
        for (int col = 0; col < 5; ++col) {
            item->setToolTip(col, plainTip(why));  // a team member's words: never read as markup
            item->setForeground(col, palette().color(QPalette::Disabled, QPalette::Text));  // not this check's
        }
        latest = std::max(latest, c.checkedAt);
    }
    for (int col = 1; col < 5; ++col)
        m_results->resizeColumnToContents(col);
    m_headline->setText(tr("Checked before (the latest at each target, last on %1); Check runs it again.")
                            .arg(latest.left(16).replace('T', ' ')));
}

void CheckOnDialog::addEnvironment(const QString& folder)
{
    m_offered.push_back({.pythonEnv = folder.toStdString(), .label = folder.toStdString()});
    auto* item = new QListWidgetItem(tr("%1 (an environment here)").arg(folder), m_targets);
    item->setFlags(item->flags() | Qt::ItemIsUserCheckable);
    item->setCheckState(Qt::Checked);
}

QStringList CheckOnDialog::targetLabels() const
{
    QStringList out;
    for (int i = 0; i < m_targets->count(); ++i)
        out << m_targets->item(i)->text();
    return out;
}

void CheckOnDialog::setTargetChecked(int row, bool checked)
{
    if (QListWidgetItem* item = m_targets->item(row))
        item->setCheckState(checked ? Qt::Checked : Qt::Unchecked);
}

QString CheckOnDialog::headline() const
{
    return m_headline->text();
}

QStringList CheckOnDialog::reasons() const
{
    QStringList out;
    for (int i = 0; i < m_results->topLevelItemCount(); ++i)
        out << m_results->topLevelItem(i)->data(0, kWhyRole).toString();
    return out;
}

void CheckOnDialog::startCheck()
{
    if (m_busy || !m_untrusted.isEmpty())
        return;
    m_queue.clear();
    for (int i = 0; i < m_targets->count(); ++i)
        if (m_targets->item(i)->checkState() == Qt::Checked)
            m_queue.push_back(m_offered[static_cast<std::size_t>(i)]);
    if (m_queue.empty()) {
        m_headline->setText(tr("Choose a target to check on."));
        return;
    }
    m_outcomes.clear();
    m_results->clear();
    m_reason->clear();
    m_kept->clear();
    m_notKept.clear();
    m_bars->setLedger(std::nullopt);
    m_busy = true;
    const int generation = ++m_generation;
    m_checkButton->setEnabled(false);
    m_targets->setEnabled(false);
    m_addEnv->setEnabled(false);
    m_coldStart->setEnabled(false);
    m_progress->setRange(0, static_cast<int>(m_queue.size()));
    m_progress->setValue(0);
    m_progress->show();
    m_headline->setStyleSheet(QString());
    m_headline->setText(tr("Reading run %1 from the library…").arg(m_runId));
    // The watcher is the dialog's: gone with it, so a thread's end never reaches a dead dialog.
    auto* watcher = new QFutureWatcher<Prepared>(this);
    connect(watcher, &QFutureWatcher<Prepared>::finished, this, [this, watcher, generation]() {
        watcher->deleteLater();
        if (generation != m_generation)
            return;
        const Prepared prepared = watcher->result();
        if (!prepared.check) {
            finish(prepared.failure);
            return;
        }
        if (!prepared.check->refusal().empty()) {
            finish(shownText(prepared.check->refusal()));
            return;
        }
        m_check = prepared.check;
        next();
    });
    const std::string location = m_location.toStdString();
    const qint64 id = m_runId;
    watcher->setFuture(QtConcurrent::run([location, id]() {
        Prepared p;
        try {
            p.check = std::make_shared<run::StoredRunCheck>(location, id);
        } catch (const std::exception& e) {
            p.failure = shownText(e.what());
        }
        return p;
    }));
}

void CheckOnDialog::next()
{
    if (m_outcomes.size() == m_queue.size()) {
        keepAndFinish();
        return;
    }
    const run::StoredRunCheck::Target target = m_queue[m_outcomes.size()];
    m_headline->setText(
        tr("Checking on %1 (%2 of %3)…").arg(shownText(target.label)).arg(m_outcomes.size() + 1).arg(m_queue.size()));
    const int generation = m_generation;
    auto* watcher = new QFutureWatcher<run::StoredRunCheck::Outcome>(this);
    connect(watcher, &QFutureWatcher<run::StoredRunCheck::Outcome>::finished, this, [this, watcher, generation]() {
        watcher->deleteLater();
        if (generation != m_generation)
            return;
        m_outcomes.push_back(watcher->result());
        addRow(m_outcomes.back());
        m_progress->setValue(static_cast<int>(m_outcomes.size()));
        next();
    });
    auto check = m_check;
    const bool coldStart = m_coldStart->isChecked();
    watcher->setFuture(
        QtConcurrent::run([check, target, coldStart]() { return check->check(target, kTargetTimeout, coldStart); }));
}

void CheckOnDialog::addRow(const run::StoredRunCheck::Outcome& o)
{
    auto* item = new QTreeWidgetItem(m_results);
    item->setText(0, shownText(o.target.label));
    item->setText(1, o.check && o.check->target ? shownText(o.check->target->torch) : QStringLiteral("–"));
    item->setText(2, q(run::StoredRunCheck::outcomeWords(o)));
    item->setText(3, firstCall(o.check ? o.check->firstCallS : std::nullopt));
    item->setText(4, o.check ? q(o.check->matchesWords()) : QStringLiteral("–"));
    QString why = shownText(run::StoredRunCheck::reasonOf(o));
    if (o.check && !o.check->verdictMessage.empty() && o.check->verdict != "matches")
        why += QStringLiteral("\n") + tr("Against eager there: %1").arg(shownText(o.check->verdictMessage));
    if (o.check && o.check->coldStart)
        why += QStringLiteral("\n")
            + tr("Cold start there: %1")
                  .arg(shownText(o.check->coldStart->ran ? o.check->coldStart->message : o.check->coldStart->reason));
    item->setData(0, kWhyRole, why);
    for (int c = 0; c < 5; ++c)
        item->setToolTip(c, plainTip(why));
    const bool good = o.check && o.check->runs();
    item->setForeground(2, StatusStyle::color(good ? model::RunStatus::Ok : model::RunStatus::Error));
    for (int c = 1; c < 5; ++c)
        m_results->resizeColumnToContents(c);
    if (m_results->topLevelItemCount() == 1)
        m_results->setCurrentItem(item);
}

void CheckOnDialog::keepAndFinish()
{
    // Kept with the run on a pool thread: a team library is a network away.
    m_headline->setText(tr("Keeping the outcomes with run %1…").arg(m_runId));
    const int generation = m_generation;
    auto* watcher = new QFutureWatcher<Kept>(this);
    connect(watcher, &QFutureWatcher<Kept>::finished, this, [this, watcher, generation]() {
        watcher->deleteLater();
        if (generation != m_generation)
            return;
        const Kept kept = watcher->result();
        m_notKept = kept.why;
        if (kept.count > 0 && m_notKept.isEmpty()) {
            m_kept->setText(tr("Kept with run %1: the library shows where it was checked.").arg(m_runId));
            emit checksKept(m_runId);
        } else if (!m_notKept.isEmpty()) {
            m_kept->setText(tr("Not kept in the library: %1").arg(m_notKept));
        }
        finish(QString());
    });
    auto check = m_check;
    const std::string location = m_location.toStdString();
    const auto outcomes = m_outcomes;
    watcher->setFuture(QtConcurrent::run([check, location, outcomes]() {
        Kept kept;
        for (const auto& o : outcomes)
            kept.count += run::StoredRunCheck::learned(o) ? 1 : 0;
        if (kept.count > 0)
            kept.why = shownText(check->keep(location, outcomes));
        return kept;
    }));
}

void CheckOnDialog::finish(const QString& failure)
{
    m_busy = false;
    m_check.reset();
    m_progress->hide();
    m_checkButton->setEnabled(true);
    m_targets->setEnabled(true);
    m_addEnv->setEnabled(true);
    m_coldStart->setEnabled(true);
    if (!failure.isEmpty()) {
        m_headline->setText(tr("Not checked: %1").arg(failure));
        m_headline->setStyleSheet(QStringLiteral("color: %1;").arg(StatusStyle::color(model::RunStatus::Error).name()));
    } else {
        m_headline->setText(tr("Run %1 %2").arg(m_runId).arg(q(run::StoredRunCheck::headline(m_outcomes))));
        const bool good = run::StoredRunCheck::exitCode(m_outcomes) == 0;
        m_headline->setStyleSheet(
            QStringLiteral("color: %1;")
                .arg(StatusStyle::color(good ? model::RunStatus::Ok : model::RunStatus::Error).name()));
    }
    emit checkFinished();
}

void CheckOnDialog::cancelCheck()
{
    ++m_generation;  // what is still running says nothing now
    if (m_check)
        m_check->cancel();  // kills its worker: the thread ends soon, holding what it uses
    m_check.reset();
    m_busy = false;
}

}  // namespace ps::ui
