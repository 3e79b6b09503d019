#include "ui/run/RunHostSetting.h"

#include "ui/run/FolderChoices.h"
#include "ui/run/PythonEnvironmentSetting.h"

#include <QSettings>
#include <QVariantMap>

namespace ps::ui {

namespace {
const QString kHosts = QStringLiteral("runOn/hosts");
const QString kRunOnByFolder = QStringLiteral("runOn/byFolder");

QVariantMap toMap(const remote::RemoteTarget& t)
{
    return {{QStringLiteral("host"), QString::fromStdString(t.host)},
        {QStringLiteral("studio"), QString::fromStdString(t.remoteStudio)},
        {QStringLiteral("dir"), QString::fromStdString(t.remoteDir)},
        {QStringLiteral("env"), QString::fromStdString(t.pythonEnv)}};
}

remote::RemoteTarget fromMap(const QVariantMap& m)
{
    return {m.value(QStringLiteral("host")).toString().toStdString(),
        m.value(QStringLiteral("studio")).toString().toStdString(),
        m.value(QStringLiteral("dir")).toString().toStdString(),
        m.value(QStringLiteral("env")).toString().toStdString()};
}
}  // namespace

QList<remote::RemoteTarget> RunHostSetting::hosts() const
{
    QList<remote::RemoteTarget> out;
    for (const QVariant& v : QSettings().value(kHosts).toList()) {
        auto t = fromMap(v.toMap());
        if (!t.host.empty())
            out.push_back(std::move(t));
    }
    return out;
}

void RunHostSetting::addHost(const remote::RemoteTarget& host)
{
    QVariantList list;
    bool replaced = false;
    for (const auto& t : hosts()) {
        if (t.host == host.host) {
            list.push_back(toMap(host));
            replaced = true;
        } else {
            list.push_back(toMap(t));
        }
    }
    if (!replaced)
        list.push_back(toMap(host));
    QSettings().setValue(kHosts, list);
}

void RunHostSetting::removeHost(const QString& destination)
{
    QVariantList list;
    for (const auto& t : hosts())
        if (QString::fromStdString(t.host) != destination)
            list.push_back(toMap(t));
    QSettings().setValue(kHosts, list);
}

std::optional<remote::RemoteTarget> RunHostSetting::host(const QString& destination) const
{
    for (const auto& t : hosts())
        if (QString::fromStdString(t.host) == destination)
            return t;
    return std::nullopt;
}

std::optional<remote::RemoteTarget> RunHostSetting::forScript(const QString& scriptPath) const
{
    const QString folder = PythonEnvironmentSetting::folderOf(scriptPath);
    if (folder.isEmpty())
        return std::nullopt;
    const QString destination = FolderChoices(kRunOnByFolder).value(folder);
    return destination.isEmpty() ? std::nullopt : host(destination);
}

void RunHostSetting::setForFolder(const QString& folder, const QString& destination)
{
    FolderChoices(kRunOnByFolder).set(folder, destination);
}

}  // namespace ps::ui
