#include "ui/run/PythonEnvironmentControl.h"

#include "ui/run/PythonEnvironmentDialog.h"
#include "ui/run/WorkerClient.h"

#include <QAction>
#include <QDir>
#include <QLabel>
#include <QMessageBox>

namespace ps::ui {

PythonEnvironmentControl::PythonEnvironmentControl(const QString& commandLine, WorkerClient* worker, QWidget* window)
    : QObject(window), m_setting(commandLine), m_worker(worker), m_window(window)
{
    m_action = new QAction(tr("Python &Environment…"), this);
    m_action->setStatusTip(tr("Name your own Python environment (a venv) whose packages scripts import"));
    connect(m_action, &QAction::triggered, this, &PythonEnvironmentControl::choose);
    m_label = new QLabel;
    updateLabel();
    // A worker of another environment or place (Run > Run On) swaps in with this signal.
    connect(m_worker, &WorkerClient::helloChanged, this, &PythonEnvironmentControl::updateLabel);
    // A change asked for during a run applies when it ends.
    connect(m_worker, &WorkerClient::finished, this, [this]() {
        if (m_pending)
            apply();
    });
}

void PythonEnvironmentControl::scriptChanged(const QString& scriptPath)
{
    m_script = scriptPath;
    apply();
}

void PythonEnvironmentControl::apply()
{
    const QString wanted = m_setting.forScript(m_script);
    m_pending = !m_worker->setUserEnvironment(wanted);
    updateLabel();
    emit problemChanged(m_pending ? QString() : m_worker->launchError());
}

void PythonEnvironmentControl::updateLabel()
{
    if (const auto& remote = m_worker->remoteTarget()) {
        // Runs go to another host: its environment, not this computer's, is the one scripts see.
        const QString host = QString::fromStdString(remote->host);
        const QString there = QString::fromStdString(remote->pythonEnv);
        if (there.isEmpty()) {
            m_label->setText(tr("env: studio's on %1").arg(host));
            m_label->setToolTip(tr("Scripts on %1 see the packages of the studio there only (Run > Run On > Add "
                                   "Host… names an environment there)")
                                    .arg(host));
        } else {
            m_label->setText(tr("env: %1 on %2").arg(QDir(there).dirName(), host));
            m_label->setToolTip(tr("Python environment %1 on %2").arg(there, host));
        }
        return;
    }
    const QString env = m_worker->userEnvironment();
    if (env.isEmpty()) {
        m_label->setText(tr("env: studio's"));
        m_label->setToolTip(tr("Scripts see the studio's packages only (Run > Python Environment… names yours)"));
    } else {
        m_label->setText(tr("env: %1").arg(QDir(env).dirName()));
        m_label->setToolTip(tr("Python environment %1 (%2)").arg(env, m_setting.originFor(m_script)));
    }
}

void PythonEnvironmentControl::choose()
{
    if (m_setting.fixed()) {
        QMessageBox::information(m_window, tr("Python Environment"),
            tr("This session runs scripts with %1, named by --python-env on the command line; start the "
               "studio without it to choose one per folder.")
                .arg(m_worker->userEnvironment()));
        return;
    }
    const QString folder = PythonEnvironmentSetting::folderOf(m_script);
    const bool folderScope = !m_setting.forFolder(folder).isEmpty() || m_setting.defaultEnvironment().isEmpty();
    PythonEnvironmentDialog dialog(m_setting.forScript(m_script), folder, folderScope, m_window);
    if (dialog.exec() != QDialog::Accepted)
        return;
    if (dialog.forFolder())
        m_setting.setForFolder(folder, dialog.environment());
    else
        m_setting.setDefault(dialog.environment());
    apply();
}

}  // namespace ps::ui
