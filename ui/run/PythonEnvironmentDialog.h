#pragma once

#include <QDialog>

class QLabel;
class QLineEdit;
class QRadioButton;

namespace ps::ui {

/// Run > Python Environment: names the user's own environment (a venv folder) whose packages
/// scripts import, for the script's folder or as the default; checks it as it is typed
/// (protocol::UserEnvironment), so a wrong folder is named before a run.
class PythonEnvironmentDialog : public QDialog {
    Q_OBJECT
public:
    PythonEnvironmentDialog(const QString& current, const QString& folder, bool folderScope, QWidget* parent = nullptr);

    QString environment() const;
    /// true: for scripts in the folder; false: the default for every script.
    bool forFolder() const;
    /// What the check said about the text ("" when it is empty); refused() when unusable.
    QString verdict() const;
    bool refused() const { return m_refused; }

private:
    void check();

    QLineEdit* m_path = nullptr;
    QLabel* m_verdict = nullptr;
    QRadioButton* m_folder = nullptr;
    QRadioButton* m_default = nullptr;
    bool m_refused = false;
};

}  // namespace ps::ui
