#pragma once

#include <QString>

namespace ps::ui {

/// A choice remembered per script folder in QSettings (a map under one key, folders cleaned):
/// the Python environment and Run On both keep theirs this way.
class FolderChoices {
public:
    explicit FolderChoices(QString key) : m_key(std::move(key)) { }
    /// The folder's choice, "" when it has none (or `folder` is empty).
    QString value(const QString& folder) const;
    /// "" forgets the folder's choice. Nothing happens for an empty folder.
    void set(const QString& folder, const QString& value) const;

private:
    QString m_key;
};

}  // namespace ps::ui
