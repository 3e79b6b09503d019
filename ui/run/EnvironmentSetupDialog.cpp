#include "ui/run/EnvironmentSetupDialog.h"

#include "install/InstallLayout.h"

#include <QDir>
#include <QLabel>
#include <QPlainTextEdit>
#include <QProgressBar>
#include <QPushButton>
#include <QRegularExpression>
#include <QVBoxLayout>

#include <csignal>
#include <unistd.h>

namespace ps::ui {

EnvironmentSetupDialog::EnvironmentSetupDialog(const QString& studio, QWidget* parent)
    : QDialog(parent),
      m_studio(studio.isEmpty()
              ? QDir(QString::fromStdString(install::InstallLayout::executableDir())).filePath("precompile-studio")
              : studio),
      m_process(new QProcess(this)),
      m_status(new QLabel(this)),
      m_progress(new QProgressBar(this)),
      m_log(new QPlainTextEdit(this)),
      m_button(new QPushButton(tr("Cancel"), this))
{
    setWindowTitle(tr("Make the Python Environment"));
    setObjectName(QStringLiteral("environmentSetupDialog"));
    auto* layout = new QVBoxLayout(this);
    auto* intro
        = new QLabel(tr("The studio runs scripts with torch from a Python environment of its own, made once per "
                        "user in %1. It takes a few minutes (torch is large).")
                         .arg(QString::fromStdString(install::InstallLayout::defaultPythonEnv())),
            this);
    intro->setWordWrap(true);
    layout->addWidget(intro);
    m_status->setWordWrap(true);
    layout->addWidget(m_status);
    m_progress->setRange(0, 3);
    m_progress->setValue(0);
    layout->addWidget(m_progress);
    m_log->setReadOnly(true);
    m_log->setObjectName(QStringLiteral("setupLog"));
    m_log->setMaximumBlockCount(2000);
    layout->addWidget(m_log, 1);
    layout->addWidget(m_button, 0, Qt::AlignRight);
    resize(720, 420);

    m_process->setProcessChannelMode(QProcess::MergedChannels);
    // A group of its own, so that Cancel ends pip and the venv with it (killGroup).
    m_process->setChildProcessModifier([]() { ::setpgid(0, 0); });
    connect(m_process, &QProcess::readyRead, this, &EnvironmentSetupDialog::readOutput);
    connect(m_process, &QProcess::finished, this, &EnvironmentSetupDialog::onFinished);
    connect(m_process, &QProcess::errorOccurred, this, [this](QProcess::ProcessError error) {
        if (error == QProcess::FailedToStart)
            onFinished(-1, QProcess::CrashExit);
    });
    connect(m_button, &QPushButton::clicked, this, [this]() {
        if (running())
            reject();
        else
            accept();
    });
}

EnvironmentSetupDialog::~EnvironmentSetupDialog()
{
    killGroup();
}

void EnvironmentSetupDialog::killGroup()
{
    if (!running())
        return;
    if (const qint64 pid = m_process->processId(); pid > 0)
        ::kill(-static_cast<pid_t>(pid), SIGKILL);
    m_process->kill();
    m_process->waitForFinished(5000);
}

void EnvironmentSetupDialog::start(const QStringList& extraArguments)
{
    m_succeeded = false;
    m_cancelled = false;
    m_lastError.clear();
    m_progress->setValue(0);
    m_status->setText(tr("Starting %1 setup…").arg(m_studio));
    m_button->setText(tr("Cancel"));
    m_process->start(m_studio, QStringList{QStringLiteral("setup")} + extraArguments);
}

bool EnvironmentSetupDialog::running() const
{
    return m_process->state() != QProcess::NotRunning;
}

QString EnvironmentSetupDialog::logText() const
{
    return m_log->toPlainText();
}

QString EnvironmentSetupDialog::statusText() const
{
    return m_status->text();
}

int EnvironmentSetupDialog::step() const
{
    return m_progress->value();
}

void EnvironmentSetupDialog::readOutput()
{
    m_pending += m_process->readAll();
    static const QRegularExpression stepLine(QStringLiteral("^\\[setup\\] ([1-3])/3 (.*)$"));
    qsizetype newline;
    while ((newline = m_pending.indexOf('\n')) >= 0) {
        const QString line = QString::fromUtf8(m_pending.left(newline));
        m_pending.remove(0, newline + 1);
        m_log->appendPlainText(line);
        if (const auto match = stepLine.match(line); match.hasMatch()) {
            m_progress->setValue(match.captured(1).toInt() - 1);
            m_status->setText(tr("Step %1 of 3: %2").arg(match.captured(1), match.captured(2)));
        } else if (line.startsWith(QStringLiteral("precompile-studio setup: "))) {
            m_lastError = line.mid(int(qstrlen("precompile-studio setup: ")));
        }
    }
}

void EnvironmentSetupDialog::onFinished(int exitCode, QProcess::ExitStatus status)
{
    readOutput();
    m_button->setText(tr("Close"));
    m_succeeded = status == QProcess::NormalExit && exitCode == 0;
    if (m_succeeded) {
        m_progress->setValue(3);
        m_status->setText(tr("The environment is ready: scripts can run."));
        emit environmentReady();
    } else if (m_cancelled) {
        m_status->setText(tr("Cancelled: nothing is marked complete; making it again continues from here."));
    } else if (exitCode == -1 && status == QProcess::CrashExit && m_process->error() == QProcess::FailedToStart) {
        m_status->setText(tr("%1 could not be started: %2").arg(m_studio, m_process->errorString()));
    } else {
        m_status->setText(
            tr("The environment could not be made: %1")
                .arg(m_lastError.isEmpty() ? tr("setup ended with exit code %1").arg(exitCode) : m_lastError));
    }
    emit finished(m_succeeded);
}

void EnvironmentSetupDialog::reject()
{
    if (running()) {
        m_cancelled = true;
        killGroup();  // setup marks nothing complete until its last step: a rerun continues
        return;       // the dialog stays, saying it was cancelled; Close closes it
    }
    QDialog::reject();
}

}  // namespace ps::ui
