#include "ui/run/AddHostDialog.h"
#include "ui/common/QtText.h"

#include "ui/common/StatusStyle.h"

#include "model/WorkerInfo.h"
#include "remote/HostCheck.h"
#include "remote/SshDestination.h"

#include <QDialogButtonBox>
#include <QFormLayout>
#include <QFutureWatcher>
#include <QHBoxLayout>
#include <QLabel>
#include <QLineEdit>
#include <QProgressBar>
#include <QPushButton>
#include <QVBoxLayout>
#include <QtConcurrent/QtConcurrentRun>

#include <chrono>

namespace ps::ui {

namespace {

/// As long as `remote check` waits by default: ssh's ConnectTimeout (15 s), then a fresh worker
/// there imports torch.
constexpr std::chrono::seconds kCheckTimeout{120};

/// The failure's name, as the line leads with it.
QString failureName(std::optional<model::StartFailure> failure)
{
    if (!failure)
        return AddHostDialog::tr("Not usable");
    switch (*failure) {
    case model::StartFailure::Unreachable:
        return AddHostDialog::tr("Unreachable");
    case model::StartFailure::Authentication:
        return AddHostDialog::tr("Login refused");
    case model::StartFailure::NoStudio:
        return AddHostDialog::tr("No studio there");
    case model::StartFailure::Version:
        return AddHostDialog::tr("Another version");
    case model::StartFailure::Timeout:
        return AddHostDialog::tr("No answer");
    default:
        return AddHostDialog::tr("Cannot start a worker");
    }
}

}  // namespace

AddHostDialog::AddHostDialog(QWidget* parent) : QDialog(parent)
{
    setWindowTitle(tr("Add Host"));
    m_host = new QLineEdit;
    m_host->setObjectName(QStringLiteral("hostDestination"));
    m_host->setPlaceholderText(tr("user@server, an alias from ~/.ssh/config, ssh://user@server:2222"));
    m_studio = new QLineEdit;
    m_studio->setPlaceholderText(tr("empty: precompile-studio on the host's PATH"));
    m_dir = new QLineEdit;
    m_dir->setPlaceholderText(tr("empty: a private temporary folder"));
    m_env = new QLineEdit;
    m_env->setPlaceholderText(tr("empty: the studio's packages only"));
    auto* form = new QFormLayout;
    form->addRow(tr("&Host:"), m_host);
    form->addRow(tr("&Studio folder there:"), m_studio);
    form->addRow(tr("&Project folder there:"), m_dir);
    form->addRow(tr("Python &environment there:"), m_env);
    m_verdict = new QLabel;
    m_verdict->setWordWrap(true);

    // Check Host: busy while it reaches the host, then one line.
    m_checkButton = new QPushButton(tr("&Check Host"));
    m_checkButton->setObjectName(QStringLiteral("checkHost"));
    m_checkButton->setToolTip(tr("Reach the host as a run would (precompile-studio remote check): ssh, the studio "
                                 "there, its worker with torch imported"));
    connect(m_checkButton, &QPushButton::clicked, this, &AddHostDialog::checkHost);
    m_busy = new QProgressBar;
    m_busy->setRange(0, 0);  // busy, for as long as it takes
    m_busy->setTextVisible(false);
    m_busy->setMaximumWidth(80);
    m_busy->setMaximumHeight(m_checkButton->sizeHint().height() / 2);
    m_checkLine = new QLabel;
    m_checkLine->setObjectName(QStringLiteral("checkResult"));
    m_checkLine->setTextFormat(Qt::PlainText);  // ssh's and the host's own words
    m_checkLine->setWordWrap(true);
    m_checkLine->setTextInteractionFlags(Qt::TextSelectableByMouse);
    auto* checkRow = new QHBoxLayout;
    checkRow->addWidget(m_checkButton, 0, Qt::AlignTop);
    checkRow->addWidget(m_busy, 0, Qt::AlignVCenter);
    checkRow->addWidget(m_checkLine, 1);

    auto* note = new QLabel(tr("The studio logs in as `ssh HOST` does, with your keys or agent and never a password; "
                               "the host needs a built studio (a checkout and `make`)."));
    note->setWordWrap(true);
    m_buttons = new QDialogButtonBox(QDialogButtonBox::Ok | QDialogButtonBox::Cancel);
    connect(m_buttons, &QDialogButtonBox::accepted, this, &QDialog::accept);
    connect(m_buttons, &QDialogButtonBox::rejected, this, &QDialog::reject);
    auto* layout = new QVBoxLayout(this);
    layout->addLayout(form);
    layout->addWidget(m_verdict);
    layout->addLayout(checkRow);
    layout->addWidget(note);
    layout->addWidget(m_buttons);
    connect(m_host, &QLineEdit::textChanged, this, &AddHostDialog::check);
    // What was checked is no longer what the fields say.
    for (QLineEdit* field : {m_host, m_studio, m_dir, m_env})
        connect(field, &QLineEdit::textChanged, this, [this]() {
            const bool wasChecking = checking();
            cancelCheck();
            m_checkPassed = false;
            m_checkFailure.reset();
            m_checkLine->clear();
            showCheck(false);
            if (wasChecking)
                emit checkFinished();
        });
    resize(560, sizeHint().height());
    showCheck(false);
    check();
}

AddHostDialog::~AddHostDialog()
{
    cancelCheck();  // its thread finishes on its own, holding what it uses
}

void AddHostDialog::done(int result)
{
    cancelCheck();
    QDialog::done(result);
}

QString AddHostDialog::problem() const
{
    return QString::fromStdString(remote::SshDestination::problem(m_host->text().trimmed().toStdString()));
}

void AddHostDialog::check()
{
    const QString why = problem();
    m_verdict->setText(why);
    m_verdict->setVisible(!why.isEmpty());  // no blank row above Check Host
    m_buttons->button(QDialogButtonBox::Ok)->setEnabled(why.isEmpty());
    m_checkButton->setEnabled(why.isEmpty() && !checking());
}

void AddHostDialog::checkHost()
{
    if (!problem().isEmpty())
        return;
    cancelCheck();
    m_checkPassed = false;
    m_checkFailure.reset();
    const remote::RemoteTarget target = this->target();
    auto check = std::make_shared<remote::HostCheck>(target);
    m_check = check;
    const QString host = QString::fromStdString(remote::SshDestination::displayName(target.host));
    m_checkLine->setText(tr("Checking %1: ssh, the studio there, its worker importing torch…").arg(host));
    m_checkLine->setStyleSheet(QString());
    showCheck(true);
    // The watcher is the dialog's: gone with it, so the thread's end never reaches a dead dialog.
    auto* watcher = new QFutureWatcher<remote::HostCheck::Result>(this);
    connect(watcher, &QFutureWatcher<remote::HostCheck::Result>::finished, this, [this, watcher, check, host]() {
        watcher->deleteLater();
        if (m_check != check)
            return;  // cancelled by an edit or another check: its end says nothing now
        m_check.reset();
        const remote::HostCheck::Result result = watcher->result();
        m_checkPassed = result.ok;
        m_checkFailure = result.failure;
        QString line;
        if (result.ok) {
            const auto worker = model::WorkerInfo::fromJson(result.worker);
            line = QStringLiteral("✓ ") + (worker ? QString::fromStdString(worker->summary()) : host);
        } else {
            line = QStringLiteral("✗ %1: %2").arg(failureName(result.failure), QString::fromStdString(result.problem));
        }
        m_checkLine->setText(line);
        m_checkLine->setToolTip(plainTip(line));
        const QColor colour = StatusStyle::color(result.ok ? model::RunStatus::Ok : model::RunStatus::Error);
        m_checkLine->setStyleSheet(QStringLiteral("color: %1;").arg(colour.name()));
        showCheck(false);
        emit checkFinished();
    });
    watcher->setFuture(QtConcurrent::run([check]() { return check->run(kCheckTimeout); }));
}

void AddHostDialog::cancelCheck()
{
    if (!m_check)
        return;
    m_check->cancel();  // kills ssh: the thread ends soon, and its result is dropped
    m_check.reset();
}

void AddHostDialog::showCheck(bool busy)
{
    m_busy->setVisible(busy);
    m_checkButton->setText(busy ? tr("Checking…") : tr("&Check Host"));
    m_checkButton->setEnabled(!busy && problem().isEmpty());
}

QString AddHostDialog::checkText() const
{
    return m_checkLine->text();
}

remote::RemoteTarget AddHostDialog::target() const
{
    return {m_host->text().trimmed().toStdString(), m_studio->text().trimmed().toStdString(),
        m_dir->text().trimmed().toStdString(), m_env->text().trimmed().toStdString()};
}

void AddHostDialog::setTarget(const remote::RemoteTarget& target)
{
    m_host->setText(QString::fromStdString(target.host));
    m_studio->setText(QString::fromStdString(target.remoteStudio));
    m_dir->setText(QString::fromStdString(target.remoteDir));
    m_env->setText(QString::fromStdString(target.pythonEnv));
}

}  // namespace ps::ui
