#pragma once

#include <QString>

namespace ps::ui {

/// Which Python environment of the user's (protocol::UserEnvironment) the window runs a script
/// with: one remembered per script folder, else a default, else none (the studio's packages
/// only). Kept in QSettings; a `--python-env` given on the command line overrides all of it for
/// the session (fixed()).
class PythonEnvironmentSetting {
public:
    explicit PythonEnvironmentSetting(const QString& commandLine = QString());

    /// The environment for a script at `scriptPath` ("" : none).
    QString forScript(const QString& scriptPath) const;
    /// Where forScript's answer comes from, in words ("the command line", "this folder's
    /// choice", "the default", "none chosen").
    QString originFor(const QString& scriptPath) const;

    /// "" forgets the folder's own choice (the default applies again).
    void setForFolder(const QString& folder, const QString& env);
    void setDefault(const QString& env);
    QString defaultEnvironment() const;
    QString forFolder(const QString& folder) const;

    /// Set from the command line: the settings are not consulted.
    bool fixed() const { return !m_commandLine.isEmpty(); }

    static QString folderOf(const QString& scriptPath);

private:
    QString m_commandLine;
};

}  // namespace ps::ui
