#include "ui/editor/ScriptLocations.h"

#include "lessons/LessonCatalogue.h"

#include <QDir>
#include <QFileInfo>
#include <QSettings>
#include <QStandardPaths>

namespace ps::ui {

namespace {
const QString kLastDirKey = QStringLiteral("files/lastDir");
}

QString ScriptLocations::examplesDir()
{
    // resources/lessons and resources/examples are siblings wherever resources are.
    const QString lessons = QString::fromStdString(lessons::LessonCatalogue::defaultLessonsDir());
    return QDir::cleanPath(QFileInfo(lessons).path() + QStringLiteral("/examples"));
}

QString ScriptLocations::startDir()
{
    const QString last = QSettings().value(kLastDirKey).toString();
    if (!last.isEmpty() && QFileInfo(last).isDir())
        return last;
    if (const QString examples = examplesDir(); QFileInfo(examples).isDir())
        return examples;
    return QDir::homePath();
}

QString ScriptLocations::saveDir()
{
    const QString last = QSettings().value(kLastDirKey).toString();
    const QString lessons = QString::fromStdString(lessons::LessonCatalogue::defaultLessonsDir());
    const QString resources = QFileInfo(lessons).absolutePath();
    const QFileInfo info(last);
    const QString canonical = info.canonicalFilePath();
    const bool studios = !canonical.isEmpty()
        && (canonical == QFileInfo(resources).canonicalFilePath()
            || canonical.startsWith(QFileInfo(resources).canonicalFilePath() + '/'));
    if (!last.isEmpty() && info.isDir() && info.isWritable() && !studios)
        return last;
    const QString documents = QStandardPaths::writableLocation(QStandardPaths::DocumentsLocation);
    if (!documents.isEmpty() && QFileInfo(documents).isDir())
        return documents;
    return QDir::homePath();
}

void ScriptLocations::remember(const QString& filePath)
{
    if (filePath.isEmpty())
        return;
    QSettings().setValue(kLastDirKey, QFileInfo(filePath).absolutePath());
}

bool ScriptLocations::sameFile(const QString& a, const QString& b)
{
    if (a.isEmpty() || b.isEmpty())
        return false;
    if (a == b)
        return true;
    const QString ca = QFileInfo(a).canonicalFilePath();
    const QString cb = QFileInfo(b).canonicalFilePath();
    return !ca.isEmpty() && ca == cb;
}

}  // namespace ps::ui
