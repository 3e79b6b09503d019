#pragma once

#include <QObject>
#include <QString>
#include <QStringList>

#include <functional>
#include <memory>

class QMainWindow;
class QMenu;

namespace ps::ui {

class NoticeBar;
class RunController;
class ScriptEditor;
class UnsavedScript;

/// The script in the window's editor as a document: New, Open (a script, or an exported
/// artifact, whose run the report shows), Save, Save As, the question before unsaved changes
/// are dropped, File > Open Recent, the window's title, and the untitled script's copy that
/// runs read (UnsavedScript). Refusals and failures go to the notice bar.
///
/// Thread contract: GUI thread only. It owns none of the widgets it drives.
class ScriptDocument : public QObject {
    Q_OBJECT
public:
    ScriptDocument(QMainWindow* window, ScriptEditor* editor, NoticeBar* notice, RunController* runs);
    ~ScriptDocument() override;

    /// A script, or an exported NAME.py with NAME.cache and NAME.json beside it. False (and the
    /// notice bar says why) when the file is refused.
    bool openPath(const QString& path);
    /// Asks for a file (after maybeSave) and opens it.
    void openDialog();
    /// An empty untitled script, once the editor's unsaved changes are saved or dropped.
    void newScript();
    bool save();
    bool saveAs();
    /// True when the editor's changes are saved, dropped, or there are none; false when the
    /// user keeps them (Cancel).
    bool maybeSave();
    /// maybeSave(), then openPath(); false when either says no.
    bool replaceWith(const QString& path);
    /// Shows `text` as a script with no file of its own (an example, a past run's script), once
    /// the editor's unsaved changes are saved or dropped; false when the user keeps them. It
    /// goes by `name` (mlp_inference.py; untitled.py when empty): the title, the copy runs
    /// read, the library row and Compare say it, and Save As offers it in the user's folder,
    /// never where the text came from. `note` says where it came from in the title ("example").
    /// `untrusted`, when given, says why the copy must not run now ("" when it may): the script
    /// of a stored run this user has not trusted is someone else's code, and scriptForRun()
    /// refuses it until the run is trusted or the script saved as the user's own file.
    using TrustCheck = std::function<QString()>;
    bool openScriptCopy(const QString& text, const QString& name = QString(), const QString& note = QString(),
        TrustCheck untrusted = {});
    /// An example (File > Examples): a copy as openScriptCopy makes, named after it; while it
    /// is unedited it runs from `path` itself, so that the run, its messages and its library row
    /// name the example's own file.
    bool openExample(const QString& path, const QString& text);
    /// The file a run of the editor's script reads: its file, an unedited example's own file,
    /// or the unsaved copy last run.
    QString runScriptPath() const;
    /// The file to run now: the editor's file (saved first when it has changes) or a fresh copy
    /// of an untitled script's text; "" when it cannot be had (the notice says why) or the
    /// user cancelled the save.
    QString scriptForRun();

    /// What the editor's script is called: its file's name, or its copy's (untitled.py, an
    /// example's own name).
    QString scriptName() const;

    QStringList recentFiles() const;
    /// File > Open Recent, rebuilt now and whenever the list changes.
    void setRecentMenu(QMenu* menu);
    /// The window's title: the script's name, [*] for unsaved changes, "(read-only)".
    void updateTitle();

private:
    /// The editor holds an example, unedited: runs read the example's own file.
    bool runsOrigin() const;
    void addRecent(const QString& path);
    void rebuildRecentMenu();

    QMainWindow* m_window;
    ScriptEditor* m_editor;
    NoticeBar* m_notice;
    RunController* m_runs;
    std::unique_ptr<UnsavedScript> m_unsaved;
    QMenu* m_recentMenu = nullptr;
    QString m_copyNote;      ///< where the copy in the editor came from, for the title
    QString m_origin;        ///< the example the copy in the editor is of ("" when none)
    bool m_ranCopy = false;  ///< the last run of the example read its copy (it was edited)
    TrustCheck m_untrusted;  ///< why the copy may not run (a stored run's, not trusted)
};

}  // namespace ps::ui
