#pragma once

#include "ui/run/PythonEnvironmentSetting.h"

#include <QObject>

class QAction;
class QLabel;
class QWidget;

namespace ps::ui {

class WorkerClient;

/// The window's side of the user's Python environment: Run > Python Environment…, the status
/// bar's "env" label, and keeping the worker on the environment of the script in the editor
/// (PythonEnvironmentSetting: per folder, a default, or the command line's). While runs go to
/// another host (Run > Run On), the label says the environment there: the one named for that
/// host ("env: venv on gpu-box"), else the studio's there ("env: studio's on gpu-box"), as
/// "env: studio's" says the studio's packages here; the environment chosen here is not used.
class PythonEnvironmentControl : public QObject {
    Q_OBJECT
public:
    PythonEnvironmentControl(const QString& commandLine, WorkerClient* worker, QWidget* window);

    QAction* action() const { return m_action; }
    QLabel* statusLabel() const { return m_label; }
    const PythonEnvironmentSetting& setting() const { return m_setting; }

    /// The script in the editor is now `scriptPath` ("" : unsaved): its environment applies.
    void scriptChanged(const QString& scriptPath);
    /// Opens the dialog (the action does this).
    void choose();

signals:
    /// The environment now in use cannot be used (one line), or "" when it can.
    void problemChanged(const QString& problem);

private:
    void apply();
    void updateLabel();

    PythonEnvironmentSetting m_setting;
    WorkerClient* m_worker;
    QWidget* m_window;
    QAction* m_action;
    QLabel* m_label;
    QString m_script;
    bool m_pending = false;  ///< a change waits for the run in progress to end
};

}  // namespace ps::ui
