#pragma once

#include "remote/RemoteTarget.h"

#include <QList>
#include <QString>

#include <optional>

namespace ps::ui {

/// Where the window runs a script (Run > Run On): this computer, or a host the user added (an
/// ssh destination with its studio folder, project folder and Python environment there).
/// Remembered per script folder, like the Python environment, in QSettings.
class RunHostSetting {
public:
    /// The hosts added, in the order added.
    QList<remote::RemoteTarget> hosts() const;
    /// Adds `host`, or replaces the one with the same destination.
    void addHost(const remote::RemoteTarget& host);
    void removeHost(const QString& destination);
    std::optional<remote::RemoteTarget> host(const QString& destination) const;

    /// The place for a script at `scriptPath`: its folder's choice (nullopt: this computer; a
    /// host since removed: this computer).
    std::optional<remote::RemoteTarget> forScript(const QString& scriptPath) const;
    /// "" : this computer.
    void setForFolder(const QString& folder, const QString& destination);
};

}  // namespace ps::ui
