#include "ui/library/LibraryActions.h"

#include "ui/common/QtText.h"
#include "ui/library/CheckOnDialog.h"
#include "ui/library/MakeReproDialog.h"

#include "ui/compare/CompareView.h"
#include "ui/editor/ScriptFile.h"
#include "ui/editor/ScriptLocations.h"
#include "ui/editor/UnsavedScript.h"
#include "ui/library/LibraryView.h"
#include "ui/library/RunStore.h"
#include "ui/run/RunDocument.h"

#include <QAction>
#include <QApplication>
#include <QDesktopServices>
#include <QFileDialog>
#include <QFileInfo>
#include <QMenu>
#include <QMessageBox>
#include <QPointer>
#include <QSettings>
#include <QStyle>
#include <QTreeView>
#include <QUrl>

#include <algorithm>

namespace ps::ui {

namespace {
/// Library errors are one line already; a stray newline must not make them two.
QString oneLine(const QString& text)
{
    return text.section('\n', 0, 0).trimmed();
}

const QString kArtifactDirKey = QStringLiteral("library/artifactDir");

/// Where Export and Import start: the folder last exported to or imported from, else the
/// user's folder (ScriptLocations::saveDir), never the studio's examples.
QString artifactDir()
{
    const QString last = QSettings().value(kArtifactDirKey).toString();
    return !last.isEmpty() && QFileInfo(last).isDir() ? last : ScriptLocations::saveDir();
}

LibraryActions::Prompts defaultPrompts()
{
    LibraryActions::Prompts p;
    p.exportFolder = [](QWidget* parent) {
        return QFileDialog::getExistingDirectory(parent,
            QObject::tr("Export the Run's Artifacts (NAME.py, NAME.cache, NAME.json) to a Folder"), artifactDir());
    };
    p.importFile = [](QWidget* parent) {
        return QFileDialog::getOpenFileName(parent, QObject::tr("Import an Exported Artifact"), artifactDir(),
            QObject::tr("Exported artifacts: NAME.py with NAME.cache and NAME.json beside it (*.py)"));
    };
    p.confirm = [](QWidget* parent, const QString& title, const QString& text) {
        // The question names runs (their names are anyone's text): never read as markup.
        return QMessageBox::question(
                   parent, title, plainTip(text), QMessageBox::Yes | QMessageBox::Cancel, QMessageBox::Cancel)
            == QMessageBox::Yes;
    };
    p.showFolder = [](const QString& folder) { return QDesktopServices::openUrl(QUrl::fromLocalFile(folder)); };
    return p;
}
}  // namespace

LibraryActions::LibraryActions(LibraryView* view) : QObject(view), m_view(view), m_prompts(defaultPrompts())
{
    const auto make = [this](const QString& text, QStyle::StandardPixmap icon, const QString& tip) {
        auto* a = new QAction(m_view->style()->standardIcon(icon), text, this);
        a->setToolTip(tip);
        a->setStatusTip(tip);
        a->setShortcutContext(Qt::WidgetWithChildrenShortcut);
        a->setProperty("tip", tip);
        return a;
    };
    m_open = make(tr("&Open Run"), QStyle::SP_DialogOpenButton, tr("Show this run's report (or double-click it)"));
    m_script = make(tr("Open &Script in Editor"), QStyle::SP_FileIcon,
        tr("Open the script this run ran; as an unsaved copy when its file has changed or is gone"));
    m_folder = make(tr("Show Script &Folder"), QStyle::SP_DirIcon, tr("Show the folder of this run's script"));
    m_compare = make(tr("&Compare Two Runs"), QStyle::SP_FileDialogContentsView,
        tr("Compare the two selected runs side by side: graphs, python_code, cache, and why they differ"));
    m_compareCurrent = make(tr("Compare with &Current Run"), QStyle::SP_FileDialogDetailedView,
        tr("Compare the selected run with the run the window shows now"));
    m_export = make(tr("&Export…"), QStyle::SP_ArrowUp,  // out of the library; Import is the arrow in
        tr("Write NAME.py, NAME.cache and NAME.json per capture into a folder (as `library export`)"));
    m_checkOn = make(tr("Check &On…"), QStyle::SP_ComputerIcon,
        tr("Will it load there? Load the run's pair in other environments or on hosts as a server would, and "
           "compare with eager there (as `library check`)"));
    m_checkCurrent = make(tr("Check Current Run &On…"), QStyle::SP_ComputerIcon,
        tr("Will the run the window shows load there? Its stored pair loaded in other environments or on hosts "
           "as a server would, compared with eager there (as `library check`)"));
    m_makeRepro = make(tr("Make &Repro…"), QStyle::SP_FileDialogNewFolder,
        tr("The smallest script that shows the run's drift in plain torch: its graph cut around where the drift "
           "starts, shrunk while it still reproduces (as `library repro`)"));
    m_import = make(tr("&Import…"), QStyle::SP_ArrowDown,
        tr("Import NAME.py with the NAME.cache and NAME.json beside it, as an untrusted run"));
    m_trust = make(tr("&Trust"), QStyle::SP_DialogApplyButton,
        tr("Trust an imported run, or someone else's, to run here (its python_code and cache are executable)"));
    m_delete = make(tr("&Delete…"), QStyle::SP_TrashIcon,
        tr("Remove the selected runs from the library (their bytes go at the library's gc)"));
    m_delete->setShortcut(QKeySequence::Delete);
    m_delete->setShortcutContext(Qt::WidgetShortcut);  // in the list only: the search box keeps its Delete
    m_view->view()->addAction(m_delete);

    connect(m_open, &QAction::triggered, this, [this]() {
        const auto ids = m_view->selectedRuns();
        if (ids.size() == 1)
            emit m_view->runActivated(ids.front());
    });
    connect(m_script, &QAction::triggered, this, [this]() {
        const auto ids = m_view->selectedRuns();
        if (ids.size() == 1)
            openScript(ids.front());
    });
    connect(m_folder, &QAction::triggered, this, [this]() {
        const auto ids = m_view->selectedRuns();
        const StoredRun* run = ids.size() == 1 ? m_view->run(ids.front()) : nullptr;
        if (!run)
            return;
        const QString folder = QFileInfo(run->scriptPath).absolutePath();
        if (!m_prompts.showFolder(folder))
            say(tr("%1 cannot be shown: no file manager answered.").arg(folder), true);
    });
    connect(m_compare, &QAction::triggered, this, [this]() {
        QList<qint64> ids = m_view->selectedRuns();
        if (ids.size() != 2)
            return;
        std::sort(ids.begin(), ids.end());  // the older run on the left
        compareRuns(ids[0], ids[1]);
    });
    connect(m_compareCurrent, &QAction::triggered, this, [this]() {
        const auto ids = m_view->selectedRuns();
        if (ids.size() == 1)
            compareWithCurrent(ids.front());
    });
    connect(m_export, &QAction::triggered, this, [this]() {
        const auto ids = m_view->selectedRuns();
        if (ids.size() != 1)
            return;
        const QString dir = m_prompts.exportFolder(m_view);
        if (!dir.isEmpty())
            exportRun(ids.front(), dir);
    });
    connect(m_checkOn, &QAction::triggered, this, [this]() {
        const auto ids = m_view->selectedRuns();
        if (ids.size() == 1)
            checkOn(ids.front());
    });
    connect(m_checkCurrent, &QAction::triggered, this, [this]() {
        const std::shared_ptr<const RunDocument> current = m_current ? m_current() : nullptr;
        if (current && current->report.runId)
            checkOn(*current->report.runId);
    });
    connect(m_makeRepro, &QAction::triggered, this, [this]() {
        const auto ids = m_view->selectedRuns();
        if (ids.size() == 1)
            makeRepro(ids.front());
    });
    connect(m_import, &QAction::triggered, this, [this]() {
        const QString path = m_prompts.importFile(m_view);
        if (!path.isEmpty())
            importArtifact(path);
    });
    connect(m_trust, &QAction::triggered, this, [this]() {
        QList<qint64> untrusted;
        for (qint64 id : m_view->selectedRuns())
            if (const StoredRun* r = m_view->run(id); r && !r->trusted)
                untrusted << id;
        if (untrusted.isEmpty())
            return;
        if (m_prompts.confirm(m_view, tr("Trust Runs"),
                tr("Trust %1?\n\nIts python_code and cache are executable code: trust it only if you trust where "
                   "it came from (who stored it, or where the imported files came from). Someone else's run is "
                   "trusted for you alone, in your own list.")
                    .arg(describe(untrusted))))
            trustRuns(untrusted);
    });
    connect(m_delete, &QAction::triggered, this, [this]() {
        const auto ids = m_view->selectedRuns();
        if (ids.isEmpty() || !m_delete->isEnabled())
            return;
        if (m_prompts.confirm(m_view, tr("Delete Runs"),
                tr("Delete %1 from the library?\n\nThe report and the artifacts go; their bytes stay in the file "
                   "until `precompile-studio library gc`.")
                    .arg(describe(ids))))
            removeRuns(ids);
    });
    update();
}

LibraryActions::~LibraryActions()
{
    // The Compare windows are top-level: they go with the library they were opened from.
    for (const QPointer<CompareView>& w : m_windows)
        delete w.data();
}

void LibraryActions::setCurrentRun(CurrentRun current)
{
    m_current = std::move(current);
    update();
}

void LibraryActions::setScriptOpener(ScriptOpener opener)
{
    m_opener = std::move(opener);
    update();
}

void LibraryActions::fillMenu(QMenu* menu) const
{
    menu->addAction(m_open);
    menu->addAction(m_script);
    menu->addAction(m_folder);
    menu->addSeparator();
    menu->addAction(m_compare);
    menu->addAction(m_compareCurrent);
    menu->addSeparator();
    menu->addAction(m_export);  // Import is not about the rows: the toolbar has it
    menu->addAction(m_checkOn);
    menu->addAction(m_makeRepro);
    menu->addAction(m_trust);
    menu->addSeparator();
    menu->addAction(m_delete);
}

void LibraryActions::update()
{
    const RunStore* store = m_view->store();
    const bool open = store && store->isOpen();
    const QString readOnly = open ? store->readOnlyReason() : QString();
    const bool writable = open && readOnly.isEmpty();
    const auto ids = m_view->selectedRuns();
    const StoredRun* one = ids.size() == 1 ? m_view->run(ids.front()) : nullptr;
    // Someone else's run is trusted in this user's own file, so a library that may only be read
    // does not stop it; one's own import is trusted in the library.
    bool anyUntrusted = false, untrustedImportHere = false;
    for (qint64 id : ids)
        if (const StoredRun* r = m_view->run(id)) {
            anyUntrusted |= !r->trusted;
            untrustedImportHere |= !r->trusted && !r->byOthers;
        }
    const bool scriptOnDisk
        = one && !UnsavedScript::isUnsavedCopy(one->scriptPath) && QFileInfo(one->scriptPath).isFile();

    const auto set = [&](QAction* a, bool enabled, const QString& whyNot) {
        a->setEnabled(enabled);
        const QString tip = a->property("tip").toString();
        a->setToolTip(enabled || whyNot.isEmpty() ? tip : tip + "\n" + whyNot);
    };
    const QString pickOne = tr("Select one run.");
    const QString cannotWrite = readOnly.isEmpty() ? tr("The library cannot be used.")
                                                   : tr("The library is read-only: %1").arg(oneLine(readOnly));
    set(m_open, one, pickOne);
    set(m_script, one && m_opener, pickOne);
    set(m_folder, scriptOnDisk, one ? tr("The script's file is no longer there.") : pickOne);
    set(m_compare, open && ids.size() == 2, tr("Select two runs (Ctrl+click the second)."));
    const std::shared_ptr<const RunDocument> current = m_current ? m_current() : nullptr;
    const bool itself = one && current && current->report.runId && *current->report.runId == one->id;
    set(m_compareCurrent, open && one && current && !itself,
        !one           ? pickOne
            : !current ? tr("The window shows no run yet: run the script, or open a run from the library.")
                       : tr("This is the run the window shows."));
    set(m_export, open && one, pickOne);
    set(m_checkOn, open && one, pickOne);
    // Whether it drifted is the worker's to say again (a run that matches is told so in the dialog).
    set(m_makeRepro, open && one, pickOne);
    // The same run, not one of the same number in another library.
    const bool currentHere = open && current && current->report.runId && m_view->run(*current->report.runId)
        && !current->library.isEmpty() && current->library == store->path();
    set(m_checkCurrent, open && currentHere,
        !current ? tr("The window shows no run yet: run the script, or open a run from the library.")
                 : tr("The run the window shows is not stored in this library."));
    set(m_import, writable, cannotWrite);
    set(m_trust, anyUntrusted && (writable || !untrustedImportHere),
        anyUntrusted || !writable ? cannotWrite : tr("The selected runs are trusted: they may run here."));
    set(m_delete, writable && !ids.isEmpty(), !writable ? cannotWrite : tr("Select the runs to delete."));
}

CheckOnDialog* LibraryActions::checkOn(qint64 id)
{
    const StoredRun* run = m_view->run(id);
    if (!run || !m_view->store()) {
        say(tr("Run #%1 is not in this library's list: it cannot be checked from here.").arg(id), true);
        return nullptr;
    }
    // Modeless, the dock's child: the window stays usable while a check runs.
    auto* dialog = new CheckOnDialog(
        m_view->store()->path(), run->id, run->name, run->trusted ? QString() : run->untrustedBecause, m_view);
    dialog->setAttribute(Qt::WA_DeleteOnClose);
    if (m_prompts.environmentFolder)
        dialog->setFolderPrompt(m_prompts.environmentFolder);
    dialog->showEarlier(run->checks);
    // The list says where each run was checked: read it again once a check is kept.
    connect(dialog, &CheckOnDialog::checksKept, m_view, [view = m_view]() { view->reload(); });
    dialog->show();
    emit checkOnOpened(dialog);
    return dialog;
}

MakeReproDialog* LibraryActions::makeRepro(qint64 id, const QString& capture, const QString& node)
{
    const StoredRun* run = m_view->run(id);
    if (!run || !m_view->store()) {
        say(tr("Run #%1 is not in this library's list: no repro can be made of it from here.").arg(id), true);
        return nullptr;
    }
    auto* dialog = new MakeReproDialog(m_view->store()->path(), run->id, run->name,
        run->trusted ? QString() : run->untrustedBecause, capture, node, m_view);
    dialog->setAttribute(Qt::WA_DeleteOnClose);
    dialog->show();
    emit makeReproOpened(dialog);
    return dialog;
}

MakeReproDialog* LibraryActions::makeReproOfCurrent(const QString& capture, const QString& node)
{
    const std::shared_ptr<const RunDocument> current = m_current ? m_current() : nullptr;
    const RunStore* store = m_view->store();
    // The same run, not one of the same number in another library.
    if (!current || !current->report.runId || !store || !store->isOpen() || current->library.isEmpty()
        || current->library != store->path() || !m_view->run(*current->report.runId)) {
        say(tr("A repro is made from a stored run: this run is not stored in the open library (run it with the "
               "library open, or open it from the library)."),
            true);
        return nullptr;
    }
    return makeRepro(*current->report.runId, capture, node);
}

bool LibraryActions::exportRun(qint64 id, const QString& dir)
{
    QString error;
    const QStringList files = m_view->store() ? m_view->store()->exportRun(id, dir, &error) : QStringList();
    if (files.isEmpty()) {
        say(tr("Run #%1 was not exported: %2").arg(id).arg(oneLine(error)), true);
        return false;
    }
    QStringList names;
    for (const QString& f : files)
        names << QFileInfo(f).fileName();
    QSettings().setValue(kArtifactDirKey, QFileInfo(dir).absoluteFilePath());
    say(tr("Exported run #%1 to %2: %3").arg(id).arg(dir, names.join(QStringLiteral(", "))));
    return true;
}

qint64 LibraryActions::importArtifact(const QString& pythonCodePath)
{
    QString error;
    const qint64 id = m_view->store() ? m_view->store()->importArtifact(pythonCodePath, &error) : -1;
    if (id < 0) {
        say(tr("%1 was not imported: %2").arg(QFileInfo(pythonCodePath).fileName(), oneLine(error)), true);
        return -1;
    }
    QSettings().setValue(kArtifactDirKey, QFileInfo(pythonCodePath).absolutePath());
    m_view->reload();
    m_view->selectRun(id);
    say(tr("Imported %1 as run #%2, untrusted until you trust it.").arg(QFileInfo(pythonCodePath).fileName()).arg(id));
    return id;
}

bool LibraryActions::trustRuns(const QList<qint64>& ids)
{
    QStringList done;
    for (qint64 id : ids) {
        QString error;
        if (!m_view->store() || !m_view->store()->trust(id, &error)) {
            m_view->reload();
            say(tr("Run #%1 was not trusted: %2").arg(id).arg(oneLine(error)), true);
            return false;
        }
        done << QStringLiteral("#%1").arg(id);
    }
    m_view->reload();
    if (ids.size() == 1)
        m_view->selectRun(ids.front());
    say(tr("Trusted run %1.").arg(done.join(QStringLiteral(", "))));
    return true;
}

bool LibraryActions::removeRuns(const QList<qint64>& ids)
{
    QStringList done;
    QList<qint64> deleted;
    for (qint64 id : ids) {
        QString error;
        if (!m_view->store() || !m_view->store()->remove(id, &error)) {
            m_view->reload();
            if (!deleted.isEmpty())
                emit runsDeleted(deleted);
            say(tr("Run #%1 was not deleted: %2").arg(id).arg(oneLine(error))
                    + (done.isEmpty() ? QString() : tr(" (deleted before it: %1)").arg(done.join(", "))),
                true);
            return false;
        }
        done << QStringLiteral("#%1").arg(id);
        deleted << id;
    }
    m_view->reload();
    emit runsDeleted(deleted);
    say(tr("Deleted run %1 (its bytes go at the library's gc).").arg(done.join(QStringLiteral(", "))));
    return true;
}

bool LibraryActions::openScript(qint64 id)
{
    const StoredRun* run = m_view->run(id);
    if (!run || !m_opener || !m_view->store())
        return false;
    StoredRunDetails details;
    QString error;
    if (!m_view->store()->details(id, &details, &error)) {
        say(tr("The script of run #%1 cannot be read: %2").arg(id).arg(oneLine(error)), true);
        return false;
    }
    const QString path = run->scriptPath;
    const bool copy = UnsavedScript::isUnsavedCopy(path);
    const bool onDisk = !copy && QFileInfo(path).isFile();
    if (onDisk) {
        const ScriptFile file = ScriptFile::read(path);
        if (details.scriptText.isEmpty()
            || (file.status == ScriptFile::Status::Editable && file.text == details.scriptText)) {
            if (!m_opener(path, QString(), QString(), {}))
                return false;
            say(tr("Opened %1, the script of run #%2.").arg(path).arg(id));
            return true;
        }
    }
    if (details.scriptText.isEmpty()) {
        say(tr("Run #%1 kept no script text, and %2 is gone.").arg(id).arg(path), true);
        return false;
    }
    // Someone else's (or an imported) run's script is their code: the copy runs once the run is
    // trusted, asked again at each run.
    const QString whyNot = run->trusted ? QString() : run->untrustedBecause;
    std::function<QString()> untrusted;
    if (!run->trusted)
        untrusted = [view = QPointer<LibraryView>(m_view), store = m_view->store(), id, whyNot]() {
            const StoredRun* now = view && view->store() == store ? view->run(id) : nullptr;
            return now ? (now->trusted ? QString() : now->untrustedBecause) : whyNot;
        };
    if (!m_opener(path, details.scriptText, tr("script of run #%1").arg(id), untrusted))
        return false;
    say(copy ? tr("Opened the script of run #%1 (it was run unsaved) as an unsaved copy.").arg(id)
            : onDisk
            ? tr("Opened the script of run #%1 as it ran, as an unsaved copy: %2 has changed since.").arg(id).arg(path)
            : tr("Opened the script of run #%1 as an unsaved copy: %2 is gone.").arg(id).arg(path));
    return true;
}

CompareView* LibraryActions::compareRuns(qint64 a, qint64 b)
{
    compare::RunSide sides[2];
    const qint64 ids[2] = {a, b};
    for (int k = 0; k < 2; ++k) {
        QString error;
        if (!m_view->store() || !m_view->store()->compareSide(ids[k], &sides[k], &error)) {
            say(tr("Runs #%1 and #%2 were not compared: run #%3 cannot be read: %4")
                    .arg(a)
                    .arg(b)
                    .arg(ids[k])
                    .arg(oneLine(error.isEmpty() ? tr("no library is open") : error)),
                true);
            return nullptr;
        }
    }
    QApplication::setOverrideCursor(Qt::WaitCursor);
    auto* window = new CompareView(std::move(sides[0]), std::move(sides[1]));
    QApplication::restoreOverrideCursor();
    m_windows.removeIf([](const QPointer<CompareView>& w) { return w.isNull(); });
    m_windows << window;
    window->showAndRaise();
    say(tr("Compared run #%1 and run #%2: %3")
            .arg(a)
            .arg(b)
            .arg(window->diff().equivalent() ? tr("equivalent") : tr("they differ")));
    return window;
}

CompareView* LibraryActions::compareWithCurrent(qint64 id)
{
    const std::shared_ptr<const RunDocument> current = m_current ? m_current() : nullptr;
    if (!current) {
        say(tr("Run #%1 was not compared: the window shows no run.").arg(id), true);
        return nullptr;
    }
    compare::RunSide stored;
    QString error;
    if (!m_view->store() || !m_view->store()->compareSide(id, &stored, &error)) {
        say(tr("Run #%1 cannot be read: %2").arg(id).arg(oneLine(error)), true);
        return nullptr;
    }
    const QString label
        = current->report.runId ? tr("run #%1 (shown)").arg(*current->report.runId) : tr("the current run");
    QApplication::setOverrideCursor(Qt::WaitCursor);
    auto* window = new CompareView(std::move(stored), CompareView::sideOf(*current, label));
    QApplication::restoreOverrideCursor();
    m_windows.removeIf([](const QPointer<CompareView>& w) { return w.isNull(); });
    m_windows << window;
    window->showAndRaise();
    say(tr("Compared run #%1 and %2: %3")
            .arg(id)
            .arg(label, window->diff().equivalent() ? tr("equivalent") : tr("they differ")));
    return window;
}

QList<CompareView*> LibraryActions::compareWindows() const
{
    QList<CompareView*> out;
    for (const QPointer<CompareView>& w : m_windows)
        if (w)
            out << w.data();
    return out;
}

void LibraryActions::say(const QString& text, bool error)
{
    m_view->showMessage(text, error);
}

QString LibraryActions::describe(const QList<qint64>& ids) const
{
    if (ids.size() == 1) {
        const StoredRun* r = m_view->run(ids.front());
        return r ? tr("run #%1 (%2)").arg(ids.front()).arg(r->name) : tr("run #%1").arg(ids.front());
    }
    return tr("%1 runs").arg(ids.size());
}

}  // namespace ps::ui
