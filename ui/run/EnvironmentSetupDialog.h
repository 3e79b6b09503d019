#pragma once

#include <QDialog>
#include <QProcess>

class QLabel;
class QPlainTextEdit;
class QProgressBar;
class QPushButton;

namespace ps::ui {

/// Makes the studio's Python environment from the window: runs `precompile-studio setup` (the
/// same command a server runs headless, commands/SetupCommand) and shows its lines as they
/// come, the step it is at (1/3 venv, 2/3 pip, 3/3 check) on a progress bar, and how it ended.
/// Offered by the window when no environment is there (an installed studio's first start).
class EnvironmentSetupDialog : public QDialog {
    Q_OBJECT
public:
    /// `studio`: the precompile-studio executable to run ("" the one beside this executable).
    explicit EnvironmentSetupDialog(const QString& studio = QString(), QWidget* parent = nullptr);
    ~EnvironmentSetupDialog() override;

    /// Starts `studio setup` with these extra arguments (a test's --requirements).
    void start(const QStringList& extraArguments = {});
    bool running() const;
    /// The command ended with exit code 0: the environment is complete.
    bool succeeded() const { return m_succeeded; }
    QString logText() const;
    QString statusText() const;
    int step() const;

signals:
    /// The environment is ready (setup exited 0): the worker can be located again.
    void environmentReady();
    /// setup ended, whichever way.
    void finished(bool ok);

protected:
    void reject() override;

private:
    void readOutput();
    void onFinished(int exitCode, QProcess::ExitStatus status);
    /// Kills setup and everything it started (its process group).
    void killGroup();

    QString m_studio;
    QProcess* m_process;
    QLabel* m_status;
    QProgressBar* m_progress;
    QPlainTextEdit* m_log;
    QPushButton* m_button;
    QByteArray m_pending;
    QString m_lastError;
    bool m_succeeded = false;
    bool m_cancelled = false;
};

}  // namespace ps::ui
