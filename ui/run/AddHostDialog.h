#pragma once

#include "remote/RemoteTarget.h"

#include <QDialog>

class QLabel;
class QLineEdit;
class QDialogButtonBox;

namespace ps::ui {

/// Run > Run On > Add Host…: an ssh destination (as `ssh` takes it: user@server, an alias of
/// ~/.ssh/config, ssh://user@server:2222) and, on that host, the studio's folder, the project's
/// folder and a Python environment (each optional). The destination is checked as it is typed.
class AddHostDialog : public QDialog {
    Q_OBJECT
public:
    explicit AddHostDialog(QWidget* parent = nullptr);
    remote::RemoteTarget target() const;
    /// Fills the fields (for tests and for editing a host).
    void setTarget(const remote::RemoteTarget& target);
    /// Why the destination cannot be used ("" when it can).
    QString problem() const;

private:
    void check();

    QLineEdit* m_host;
    QLineEdit* m_studio;
    QLineEdit* m_dir;
    QLineEdit* m_env;
    QLabel* m_verdict;
    QDialogButtonBox* m_buttons;
};

}  // namespace ps::ui
