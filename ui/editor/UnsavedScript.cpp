#include "ui/editor/UnsavedScript.h"

#include "ui/editor/ScriptEditor.h"

#include <QCoreApplication>
#include <QDir>
#include <QFileInfo>
#include <QSaveFile>
#include <QTemporaryDir>

namespace ps::ui {

namespace {
constexpr const char* kFolderPrefix = "precompile-studio-unsaved-";

QString trUnsaved(const char* text)
{
    return QCoreApplication::translate("UnsavedScript", text);
}
}  // namespace

UnsavedScript::UnsavedScript() = default;
UnsavedScript::~UnsavedScript() = default;

void UnsavedScript::rename(const QString& name)
{
    const QString file = QFileInfo(name).fileName();
    const bool plain = file.endsWith(QLatin1String(".py")) && file.size() > 3 && !file.startsWith('.');
    m_name = plain ? file : QString::fromLatin1(kDefaultName);
    forget();
}

QString UnsavedScript::write(const QString& text, QString* error)
{
    auto dir = std::make_unique<QTemporaryDir>(QDir::tempPath() + "/" + kFolderPrefix + "XXXXXX");
    if (!dir->isValid()) {
        *error = trUnsaved("the unsaved script cannot be copied for the run: %1").arg(dir->errorString());
        return QString();
    }
    const QString file = dir->filePath(m_name);
    QSaveFile out(file);
    if (!out.open(QIODevice::WriteOnly) || out.write(text.toUtf8()) < 0 || !out.commit()) {
        *error = trUnsaved("the unsaved script cannot be copied for the run: %1: %2").arg(file, out.errorString());
        return QString();
    }
    m_dir = std::move(dir);  // the previous copy goes now
    return file;
}

QString UnsavedScript::path() const
{
    return m_dir ? m_dir->filePath(m_name) : QString();
}

void UnsavedScript::forget()
{
    m_dir.reset();
}

void UnsavedScript::show(ScriptEditor* editor, const QString& text)
{
    editor->newScript();
    editor->setText(text);
    editor->setModified(false);
}

bool UnsavedScript::isUnsavedCopy(const QString& scriptPath)
{
    const QFileInfo info(scriptPath);
    return info.fileName().endsWith(QLatin1String(".py"))
        && QFileInfo(info.path()).fileName().startsWith(QLatin1String(kFolderPrefix));
}

QString UnsavedScript::displayName(const QString& scriptPath)
{
    if (isUnsavedCopy(scriptPath))
        return trUnsaved("%1 (unsaved)").arg(QFileInfo(scriptPath).fileName());
    return QFileInfo(scriptPath).fileName();
}

}  // namespace ps::ui
