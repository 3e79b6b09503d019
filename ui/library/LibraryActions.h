#pragma once

#include <QList>
#include <QObject>
#include <QPointer>
#include <QString>

#include <functional>
#include <memory>

class QAction;
class QMenu;
class QWidget;

namespace ps::ui {

class CheckOnDialog;
class CompareView;
class LibraryView;
class MakeReproDialog;
struct RunDocument;

/// What the library dock does to runs, from its toolbar and its context menu: open a run,
/// open its script, show the script's folder, compare two runs (or a run and the one the window
/// shows) in a Compare window, export, check on other environments and hosts (CheckOnDialog),
/// import, trust and delete. The library's
/// own operations run through RunStore (as `precompile-studio library` runs them); each action
/// ends in one line for the dock (LibraryView::message()): what was done, or why not. Nothing
/// stored is lost: a delete is confirmed, and removes the run only (its blobs stay until gc).
///
/// Dialogs go through Prompts, so that tests can answer them.
class LibraryActions : public QObject {
    Q_OBJECT
public:
    struct Prompts {
        /// The folder to export into; "" : cancelled.
        std::function<QString(QWidget* parent)> exportFolder;
        /// The NAME.py to import; "" : cancelled.
        std::function<QString(QWidget* parent)> importFile;
        /// Asks a yes/no question; true: go ahead.
        std::function<bool(QWidget* parent, const QString& title, const QString& text)> confirm;
        /// Shows a folder in the desktop's file manager.
        std::function<bool(const QString& folder)> showFolder;
        /// Check On…'s Add Environment (null: a folder dialog).
        std::function<QString(QWidget* parent)> environmentFolder;
    };
    /// Opens a script in the editor: the file `path` when `text` is empty, else `text` as an
    /// unsaved copy named after `path`'s file, `note` saying where it came from ("run #8"),
    /// `untrusted` why it may not run now (the run is not trusted; asked again at each run).
    /// False when the user kept the editor's script (an unsaved change, say).
    using ScriptOpener = std::function<bool(
        const QString& path, const QString& text, const QString& note, std::function<QString()> untrusted)>;
    /// The run the window shows now (null when none), for "Compare with Current Run".
    using CurrentRun = std::function<std::shared_ptr<const RunDocument>()>;

    explicit LibraryActions(LibraryView* view);
    ~LibraryActions() override;

    void setPrompts(const Prompts& prompts) { m_prompts = prompts; }
    void setScriptOpener(ScriptOpener opener);
    void setCurrentRun(CurrentRun current);

    QAction* openAction() const { return m_open; }
    QAction* scriptAction() const { return m_script; }
    QAction* folderAction() const { return m_folder; }
    QAction* compareAction() const { return m_compare; }
    QAction* compareCurrentAction() const { return m_compareCurrent; }
    QAction* exportAction() const { return m_export; }
    /// Check On…: the run's pair loaded elsewhere (CheckOnDialog).
    QAction* checkOnAction() const { return m_checkOn; }
    /// Run > Check Current Run On…: the same for the run the window shows (stored in this library).
    QAction* checkCurrentAction() const { return m_checkCurrent; }
    /// Make Repro…: the smallest script reproducing the selected run's drift (MakeReproDialog).
    QAction* makeReproAction() const { return m_makeRepro; }
    QAction* importAction() const { return m_import; }
    QAction* trustAction() const { return m_trust; }
    QAction* deleteAction() const { return m_delete; }
    /// The context menu for the current selection: what acts on the selected runs.
    void fillMenu(QMenu* menu) const;
    /// Enables what the selection and the library allow (the tooltip says why not).
    void update();

    /// The operations behind the actions, once their dialogs are answered.
    bool exportRun(qint64 id, const QString& dir);
    qint64 importArtifact(const QString& pythonCodePath);
    bool trustRuns(const QList<qint64>& ids);
    bool removeRuns(const QList<qint64>& ids);
    bool openScript(qint64 id);
    /// Opens Check On… for stored run `id` (modeless, deleted when closed), its earlier checks
    /// shown; null, said in the dock, when the run is not in the list.
    CheckOnDialog* checkOn(qint64 id);
    /// Opens Make Repro… for stored run `id`, cut from `node` of `capture` ("" : its first drift
    /// start); null, said in the dock, when the run is not in the list.
    MakeReproDialog* makeRepro(qint64 id, const QString& capture = {}, const QString& node = {});
    /// The same for the run the window shows, when it is stored in this library (said in the
    /// dock when it is not).
    MakeReproDialog* makeReproOfCurrent(const QString& capture, const QString& node);
    /// Opens a Compare window of two stored runs (a: the older, shown on the left); null, said
    /// in the dock, when a run cannot be read.
    CompareView* compareRuns(qint64 a, qint64 b);
    /// Opens a Compare window of a stored run and the run the window shows now.
    CompareView* compareWithCurrent(qint64 id);
    /// The Compare windows still open, oldest first.
    QList<CompareView*> compareWindows() const;

signals:
    /// These runs were deleted from the library (by the Delete action).
    void runsDeleted(const QList<qint64>& ids);
    /// Check On… opened its dialog (shown, modeless, deleted when closed).
    void checkOnOpened(CheckOnDialog* dialog);
    /// Make Repro… opened its dialog (shown, modeless, deleted when closed).
    void makeReproOpened(MakeReproDialog* dialog);

private:
    void say(const QString& text, bool error = false);
    QString describe(const QList<qint64>& ids) const;

    LibraryView* m_view;
    Prompts m_prompts;
    ScriptOpener m_opener;
    CurrentRun m_current;
    QList<QPointer<CompareView>> m_windows;
    QAction* m_open;
    QAction* m_script;
    QAction* m_folder;
    QAction* m_compare;
    QAction* m_compareCurrent;
    QAction* m_export;
    QAction* m_checkOn;
    QAction* m_checkCurrent;
    QAction* m_makeRepro;
    QAction* m_import;
    QAction* m_trust;
    QAction* m_delete;
};

}  // namespace ps::ui
