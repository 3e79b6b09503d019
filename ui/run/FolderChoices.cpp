#include "ui/run/FolderChoices.h"

#include <QDir>
#include <QSettings>
#include <QVariantMap>

namespace ps::ui {

QString FolderChoices::value(const QString& folder) const
{
    if (folder.isEmpty())
        return {};
    return QSettings().value(m_key).toMap().value(QDir::cleanPath(folder)).toString();
}

void FolderChoices::set(const QString& folder, const QString& value) const
{
    if (folder.isEmpty())
        return;
    QSettings s;
    QVariantMap map = s.value(m_key).toMap();
    if (value.isEmpty())
        map.remove(QDir::cleanPath(folder));
    else
        map.insert(QDir::cleanPath(folder), value);
    s.setValue(m_key, map);
}

}  // namespace ps::ui
