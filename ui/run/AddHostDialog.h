#pragma once

#include "model/StartFailure.h"
#include "remote/RemoteTarget.h"

#include <QDialog>

#include <memory>
#include <optional>

class QLabel;
class QLineEdit;
class QDialogButtonBox;
class QProgressBar;
class QPushButton;

namespace ps::remote {
class HostCheck;
}

namespace ps::ui {

/// Run > Run On > Add Host…: an ssh destination (as `ssh` takes it: user@server, an alias of
/// ~/.ssh/config, ssh://user@server:2222) and, on that host, the studio's folder, the project's
/// folder and a Python environment (each optional). The destination is checked as it is typed.
///
/// Check Host reaches the host as a run would, as `precompile-studio remote check HOST` does
/// (remote::HostCheck: ssh, the studio there, its worker with torch imported), on a pool thread:
/// the dialog shows it busy, then one line: what a run there would have ("gpu-box · torch 2.14.1
/// · 1x NVIDIA H200") or why not, named (unreachable, login refused, no studio, another
/// version). Editing a field, closing or deleting the dialog cancels a check in progress (it
/// kills ssh); the check's thread never touches the dialog.
class AddHostDialog : public QDialog {
    Q_OBJECT
public:
    explicit AddHostDialog(QWidget* parent = nullptr);
    ~AddHostDialog() override;
    remote::RemoteTarget target() const;
    /// Fills the fields (for tests and for editing a host).
    void setTarget(const remote::RemoteTarget& target);
    /// Why the destination cannot be used ("" when it can).
    QString problem() const;

    /// Starts Check Host (the button does this); nothing when the destination cannot be used.
    void checkHost();
    /// A check is in progress.
    bool checking() const { return m_check != nullptr; }
    /// The check's line: "" before any, else what it found or why not.
    QString checkText() const;
    /// The last check found the host ready.
    bool checkPassed() const { return m_checkPassed; }
    /// Why the last check failed, typed (nullopt: it passed, or none ran, or it was cancelled).
    std::optional<model::StartFailure> checkFailure() const { return m_checkFailure; }

    void done(int result) override;

signals:
    /// A check ended (passed, failed or was cancelled by an edit).
    void checkFinished();

private:
    void check();
    void cancelCheck();
    void showCheck(bool busy);

    QLineEdit* m_host;
    QLineEdit* m_studio;
    QLineEdit* m_dir;
    QLineEdit* m_env;
    QLabel* m_verdict;
    QPushButton* m_checkButton;
    QProgressBar* m_busy;
    QLabel* m_checkLine;
    QDialogButtonBox* m_buttons;
    std::shared_ptr<remote::HostCheck> m_check;  ///< the check in progress (shared with its thread)
    bool m_checkPassed = false;
    std::optional<model::StartFailure> m_checkFailure;
};

}  // namespace ps::ui
