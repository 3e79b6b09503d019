#include "ui/run/RunHostControl.h"

#include "ui/run/AddHostDialog.h"
#include "ui/run/PythonEnvironmentSetting.h"
#include "ui/run/WorkerClient.h"

#include <QAction>
#include <QActionGroup>
#include <QMenu>

#include <utility>

namespace ps::ui {

RunHostControl::RunHostControl(WorkerClient* worker, QWidget* window)
    : QObject(window), m_worker(worker), m_window(window)
{
    m_menu = new QMenu(tr("Run &On"), window);
    m_menu->setObjectName(QStringLiteral("runOnMenu"));
    m_menu->setStatusTip(tr("Run here, or on another host over ssh where the model and its GPU are"));
    m_group = new QActionGroup(this);
    rebuildMenu();
    connect(m_worker, &WorkerClient::finished, this, [this]() {
        if (m_pending)
            apply();
    });
}

void RunHostControl::rebuildMenu()
{
    m_menu->clear();
    for (QAction* a : m_group->actions())
        m_group->removeAction(a);
    const auto current = m_worker->remoteTarget();
    auto add = [&](const QString& text, const QString& destination) {
        QAction* a = m_menu->addAction(text);
        a->setCheckable(true);
        a->setData(destination);
        a->setChecked(current ? QString::fromStdString(current->host) == destination : destination.isEmpty());
        m_group->addAction(a);
        connect(a, &QAction::triggered, this, [this, destination]() { choose(destination); });
    };
    add(tr("This Computer"), QString());
    bool sessionListed = false;
    for (const auto& host : m_setting.hosts()) {
        add(QString::fromStdString(host.host), QString::fromStdString(host.host));
        sessionListed = sessionListed || (m_session && host.host == m_session->host);
    }
    if (m_session && !sessionListed)
        add(QString::fromStdString(m_session->host), QString::fromStdString(m_session->host));
    m_menu->addSeparator();
    QAction* addHostAction = m_menu->addAction(tr("Add Host…"));
    addHostAction->setObjectName(QStringLiteral("addHost"));
    connect(addHostAction, &QAction::triggered, this, [this]() {
        AddHostDialog dialog(m_window);
        if (dialog.exec() == QDialog::Accepted)
            addHost(dialog.target());
    });
}

void RunHostControl::scriptChanged(const QString& scriptPath)
{
    m_script = scriptPath;
    apply();
}

void RunHostControl::choose(const QString& destination)
{
    // The session's host again: for every script, as the command line said, not remembered.
    m_sessionChosen = m_session && QString::fromStdString(m_session->host) == destination;
    if (m_sessionChosen) {
        apply();
        return;
    }
    if (m_script.isEmpty())
        m_unsavedChoice = destination;
    else
        m_setting.setForFolder(PythonEnvironmentSetting::folderOf(m_script), destination);
    apply();
}

void RunHostControl::addHost(const remote::RemoteTarget& host)
{
    m_setting.addHost(host);
    choose(QString::fromStdString(host.host));
}

void RunHostControl::setSessionHost(const remote::RemoteTarget& host)
{
    remote::RemoteTarget session = host;
    if (const auto added = m_setting.host(QString::fromStdString(host.host))) {
        for (auto [field, from] : {std::pair{&session.remoteStudio, &added->remoteStudio},
                 std::pair{&session.remoteDir, &added->remoteDir}, std::pair{&session.pythonEnv, &added->pythonEnv}})
            if (field->empty())
                *field = *from;
    }
    m_session = std::move(session);
    m_sessionChosen = true;
    apply();
}

void RunHostControl::apply()
{
    const auto wanted = m_sessionChosen ? m_session
        : m_script.isEmpty()            ? m_setting.host(m_unsavedChoice)
                                        : m_setting.forScript(m_script);
    m_pending = !m_worker->setRemote(wanted);
    rebuildMenu();
    emit placeChanged(m_worker->place());
}

}  // namespace ps::ui
