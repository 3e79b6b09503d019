#include "ui/run/PythonEnvironmentSetting.h"

#include "ui/run/FolderChoices.h"

#include <QDir>
#include <QFileInfo>
#include <QObject>
#include <QSettings>
#include <QVariantMap>

namespace ps::ui {

namespace {
const QString kEnvironmentByFolder = QStringLiteral("pythonEnvironment/byFolder");
const QString kDefault = QStringLiteral("pythonEnvironment/default");
}  // namespace

PythonEnvironmentSetting::PythonEnvironmentSetting(const QString& commandLine) : m_commandLine(commandLine)
{ }

QString PythonEnvironmentSetting::folderOf(const QString& scriptPath)
{
    if (scriptPath.isEmpty())
        return {};
    return QDir::cleanPath(QFileInfo(scriptPath).absolutePath());
}

QString PythonEnvironmentSetting::forFolder(const QString& folder) const
{
    return FolderChoices(kEnvironmentByFolder).value(folder);
}

QString PythonEnvironmentSetting::defaultEnvironment() const
{
    return QSettings().value(kDefault).toString();
}

QString PythonEnvironmentSetting::forScript(const QString& scriptPath) const
{
    if (fixed())
        return m_commandLine;
    const QString own = forFolder(folderOf(scriptPath));
    return own.isEmpty() ? defaultEnvironment() : own;
}

QString PythonEnvironmentSetting::originFor(const QString& scriptPath) const
{
    if (fixed())
        return QObject::tr("the command line");
    if (!forFolder(folderOf(scriptPath)).isEmpty())
        return QObject::tr("this folder's choice");
    if (!defaultEnvironment().isEmpty())
        return QObject::tr("the default");
    return QObject::tr("none chosen");
}

void PythonEnvironmentSetting::setForFolder(const QString& folder, const QString& env)
{
    FolderChoices(kEnvironmentByFolder).set(folder, env);
}

void PythonEnvironmentSetting::setDefault(const QString& env)
{
    QSettings s;
    if (env.isEmpty())
        s.remove(kDefault);
    else
        s.setValue(kDefault, env);
}

}  // namespace ps::ui
