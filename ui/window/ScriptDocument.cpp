#include "ui/window/ScriptDocument.h"

#include "ui/common/NoticeBar.h"
#include "ui/editor/ScriptEditor.h"
#include "ui/editor/ScriptFile.h"
#include "ui/editor/ScriptLocations.h"
#include "ui/editor/UnsavedScript.h"
#include "ui/library/RunStore.h"
#include "ui/run/RunDocument.h"
#include "ui/window/RunController.h"

#include <QAction>
#include <QFileDialog>
#include <QFileInfo>
#include <QMainWindow>
#include <QMenu>
#include <QMessageBox>
#include <QSettings>
#include <QStatusBar>

namespace ps::ui {

namespace {

constexpr int kMaxRecent = 10;

}  // namespace

ScriptDocument::ScriptDocument(QMainWindow* window, ScriptEditor* editor, NoticeBar* notice, RunController* runs)
    : QObject(window),
      m_window(window),
      m_editor(editor),
      m_notice(notice),
      m_runs(runs),
      m_unsaved(std::make_unique<UnsavedScript>())
{
    connect(m_editor, &ScriptEditor::modificationChanged, this, &ScriptDocument::updateTitle);
    connect(m_editor, &ScriptEditor::filePathChanged, this, &ScriptDocument::updateTitle);
    connect(m_editor, &ScriptEditor::fileDropped, this, [this](const QString& path) { openPath(path); });
}

ScriptDocument::~ScriptDocument() = default;

bool ScriptDocument::openPath(const QString& path)
{
    if (RunStore::looksLikeExport(path)) {
        QString error;
        if (auto doc = RunStore::readExport(path, &error)) {
            m_runs->showRun(doc);
            m_notice->showNotice(NoticeBar::Level::Info,
                tr("Opened the exported artifact %1 (not stored, not trusted: python_code and the cache "
                   "are executable).")
                    .arg(QFileInfo(path).fileName()));
            const QString script = QString::fromStdString(doc->report.script);
            if (QFileInfo(script).isFile() && !m_editor->isModified())
                m_editor->open(script);
            addRecent(QFileInfo(path).absoluteFilePath());
            return true;
        }
        m_notice->showNotice(NoticeBar::Level::Warning,
            tr("%1 looks like an exported artifact but cannot be read as one (%2); it is opened as a script.")
                .arg(QFileInfo(path).fileName(), error));
    }
    const ScriptFile file = m_editor->open(path);
    switch (file.status) {
    case ScriptFile::Status::Refused:
        m_notice->showNotice(NoticeBar::Level::Error, file.message);
        return false;
    case ScriptFile::Status::ReadOnly:
        m_notice->showNotice(NoticeBar::Level::Warning, file.message);
        break;
    case ScriptFile::Status::Editable:
        if (m_notice->level() != NoticeBar::Level::Error)
            m_notice->dismiss();
        break;
    }
    addRecent(file.path);
    m_runs->scriptOpened(file.path);
    m_window->statusBar()->showMessage(tr("Opened %1").arg(file.path), 4000);
    return true;
}

void ScriptDocument::openDialog()
{
    if (!maybeSave())
        return;
    const QString path = QFileDialog::getOpenFileName(m_window, tr("Open a Script or an Exported Artifact"),
        ScriptLocations::startDir(), tr("Python scripts (*.py);;All files (*)"));
    if (!path.isEmpty() && openPath(path))
        ScriptLocations::remember(path);
}

void ScriptDocument::newScript()
{
    if (maybeSave()) {
        m_unsaved->rename(QString());
        m_copyNote.clear();
        m_origin.clear();
        m_untrusted = {};
        m_editor->newScript();
        updateTitle();
    }
}

bool ScriptDocument::save()
{
    if (m_editor->filePath().isEmpty())
        return saveAs();
    QString error;
    if (!m_editor->save(&error)) {
        m_notice->showNotice(NoticeBar::Level::Error, tr("Not saved: %1").arg(error));
        return false;
    }
    m_window->statusBar()->showMessage(tr("Saved %1").arg(m_editor->filePath()), 3000);
    return true;
}

bool ScriptDocument::saveAs()
{
    const QString path = QFileDialog::getSaveFileName(m_window, tr("Save the Script"),
        m_editor->filePath().isEmpty() ? ScriptLocations::saveDir() + "/" + m_unsaved->name() : m_editor->filePath(),
        tr("Python scripts (*.py)"));
    if (path.isEmpty())
        return false;
    QString error;
    if (!m_editor->saveAs(path, &error)) {
        m_notice->showNotice(NoticeBar::Level::Error, tr("Not saved: %1").arg(error));
        return false;
    }
    addRecent(m_editor->filePath());
    ScriptLocations::remember(m_editor->filePath());
    return true;
}

bool ScriptDocument::maybeSave()
{
    if (!m_editor->isModified() || m_editor->isPreview())
        return true;
    const auto answer = QMessageBox::question(m_window, tr("Unsaved Changes"),
        tr("The script has changes that are not saved. Save them?"),
        QMessageBox::Save | QMessageBox::Discard | QMessageBox::Cancel);
    if (answer == QMessageBox::Save)
        return save();
    return answer == QMessageBox::Discard;
}

bool ScriptDocument::replaceWith(const QString& path)
{
    return maybeSave() && openPath(path);
}

bool ScriptDocument::openScriptCopy(const QString& text, const QString& name, const QString& note, TrustCheck untrusted)
{
    if (!maybeSave())
        return false;
    m_unsaved->rename(name);
    m_copyNote = note;
    m_origin.clear();
    m_ranCopy = false;
    m_untrusted = std::move(untrusted);
    UnsavedScript::show(m_editor, text);
    updateTitle();
    return true;
}

bool ScriptDocument::openExample(const QString& path, const QString& text)
{
    if (!openScriptCopy(text, QFileInfo(path).fileName(), tr("example")))
        return false;
    m_origin = QFileInfo(path).absoluteFilePath();
    return true;
}

bool ScriptDocument::runsOrigin() const
{
    return m_editor->filePath().isEmpty() && !m_origin.isEmpty() && !m_editor->isModified()
        && QFileInfo(m_origin).isFile();
}

QString ScriptDocument::runScriptPath() const
{
    if (!m_editor->filePath().isEmpty())
        return m_editor->filePath();
    if (!m_origin.isEmpty() && !m_ranCopy)
        return m_origin;
    return m_unsaved->path();
}

QString ScriptDocument::scriptForRun()
{
    // An untitled script runs from a copy of the editor's text: no Save dialog first.
    QString script = m_editor->filePath();
    if (script.isEmpty() && m_untrusted) {
        if (const QString why = m_untrusted(); !why.isEmpty()) {
            m_notice->showNotice(NoticeBar::Level::Error,
                tr("Not run: this is the %1, which you have not trusted (%2). Trust the run in the library first, "
                   "or save the script as your own.")
                    .arg(m_copyNote, why));
            return QString();
        }
    }
    if (script.isEmpty() && runsOrigin()) {
        m_ranCopy = false;
        return m_origin;
    }
    if (script.isEmpty()) {
        m_ranCopy = true;
        QString error;
        script = m_unsaved->write(m_editor->text(), &error);
        if (script.isEmpty())
            m_notice->showNotice(NoticeBar::Level::Error, tr("Not run: %1").arg(error));
        return script;
    }
    if (m_editor->isModified() && !m_editor->isPreview() && !save())
        return QString();
    return script;
}

QString ScriptDocument::scriptName() const
{
    const QString path = m_editor->filePath();
    return path.isEmpty() ? m_unsaved->name() : QFileInfo(path).fileName();
}

void ScriptDocument::updateTitle()
{
    const QString path = m_editor->filePath();
    const QString name = scriptName();
    QString note;
    if (m_editor->isPreview())
        note = tr(" (read-only)");
    else if (path.isEmpty() && !m_copyNote.isEmpty())
        note = QStringLiteral(" (%1)").arg(m_copyNote);
    m_window->setWindowTitle(QStringLiteral("%1[*]%2 — Precompile Studio").arg(name, note));
    m_window->setWindowModified(m_editor->isModified());
    m_window->setWindowFilePath(path);
}

// ---- recent files ------------------------------------------------------------------------------

QStringList ScriptDocument::recentFiles() const
{
    return QSettings().value(QStringLiteral("recentFiles")).toStringList();
}

void ScriptDocument::setRecentMenu(QMenu* menu)
{
    m_recentMenu = menu;
    rebuildRecentMenu();
}

void ScriptDocument::addRecent(const QString& path)
{
    QSettings s;
    QStringList files = s.value(QStringLiteral("recentFiles")).toStringList();
    files.removeAll(path);
    files.prepend(path);
    while (files.size() > kMaxRecent)
        files.removeLast();
    s.setValue(QStringLiteral("recentFiles"), files);
    rebuildRecentMenu();
}

void ScriptDocument::rebuildRecentMenu()
{
    if (!m_recentMenu)
        return;
    m_recentMenu->clear();
    const QStringList files = recentFiles();
    for (int i = 0; i < files.size(); ++i) {
        const QString path = files[i];
        auto* a = m_recentMenu->addAction(QStringLiteral("&%1 %2").arg((i + 1) % 10).arg(QFileInfo(path).fileName()));
        a->setToolTip(path);
        a->setStatusTip(path);
        connect(a, &QAction::triggered, this, [this, path]() { replaceWith(path); });
    }
    if (files.isEmpty())
        m_recentMenu->addAction(tr("(none yet)"))->setEnabled(false);
    else {
        m_recentMenu->addSeparator();
        m_recentMenu->addAction(tr("&Clear the List"), this, [this]() {
            QSettings().remove(QStringLiteral("recentFiles"));
            rebuildRecentMenu();
        });
    }
}

}  // namespace ps::ui
