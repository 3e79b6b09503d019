#pragma once

#include "ui/run/RunHostSetting.h"

#include <QObject>

class QActionGroup;
class QMenu;
class QWidget;

namespace ps::ui {

class WorkerClient;

/// Run > Run On: This Computer, the hosts added, Add Host…. Keeps the worker on the place
/// chosen for the script in the editor's folder (RunHostSetting); a change asked for during a
/// run applies when it ends. A session host (the command line's --host) holds for every script
/// until the user picks another place, and is never remembered.
class RunHostControl : public QObject {
    Q_OBJECT
public:
    RunHostControl(WorkerClient* worker, QWidget* window);

    QMenu* menu() const { return m_menu; }
    const RunHostSetting& setting() const { return m_setting; }

    /// The script in the editor is now `scriptPath` ("" : unsaved): its folder's place applies.
    void scriptChanged(const QString& scriptPath);
    /// Runs the script's folder on `destination` ("" : this computer), remembered.
    void choose(const QString& destination);
    /// Adds `host` and runs the script's folder there (Add Host… does this after its dialog).
    void addHost(const remote::RemoteTarget& host);
    /// Runs every script on `host` for this session (listed in the menu, not remembered), until
    /// the user picks another place; what it leaves empty (studio, project, environment there)
    /// comes from the added host of the same destination, if any.
    void setSessionHost(const remote::RemoteTarget& host);

signals:
    /// Where runs go changed (the window's title and status bar say it).
    void placeChanged(const QString& place);

private:
    void apply();
    void rebuildMenu();

    RunHostSetting m_setting;
    WorkerClient* m_worker;
    QWidget* m_window;
    QMenu* m_menu;
    QActionGroup* m_group;
    QString m_script;
    QString m_unsavedChoice;  ///< where an unsaved script runs (there is no folder to remember it by)
    std::optional<remote::RemoteTarget> m_session;  ///< the command line's host
    bool m_sessionChosen = false;                   ///< runs go to m_session, whatever the folder chose
    bool m_pending = false;
};

}  // namespace ps::ui
