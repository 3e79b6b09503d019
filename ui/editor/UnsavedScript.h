#pragma once

#include <QString>

#include <memory>

class QTemporaryDir;

namespace ps::ui {

class ScriptEditor;

/// The editor's text when it has no file of its own (the starter untitled.py, an example's
/// copy, a past run's script): Run writes it to a private folder under the copy's name,
/// $TMPDIR/precompile-studio-unsaved-XXXXXX/NAME.py (untitled.py, or the example's own name such
/// as mlp_inference.py, so that the run, its library row and Compare read that name), and runs
/// that, so that nothing asks for a file name first. Each run gets a fresh folder; the previous one is removed, as is
/// the last one with this object. The path of the last run's copy stays known (path()) so that its graph's lines still
/// lead to the editor.
class UnsavedScript {
public:
    static constexpr const char* kDefaultName = "untitled.py";

    UnsavedScript();
    ~UnsavedScript();
    UnsavedScript(const UnsavedScript&) = delete;
    UnsavedScript& operator=(const UnsavedScript&) = delete;

    /// The file name copies are written under from now on: `name`'s file name when it is a
    /// plain Python file name, else untitled.py. The last copy written is forgotten.
    void rename(const QString& name);
    QString name() const { return m_name; }

    /// Writes `text` to a fresh copy and returns its path; "" with `error` when it cannot.
    QString write(const QString& text, QString* error);
    /// The last copy written, while it exists; "" after forget().
    QString path() const;
    /// The editor's text is no longer what was run: the copy goes.
    void forget();

    /// Shows `text` in the editor as an untitled script, not modified (as New Script does).
    static void show(ScriptEditor* editor, const QString& text);
    /// True for a copy this class writes (by any window of any studio).
    static bool isUnsavedCopy(const QString& scriptPath);
    /// How a report names its script: "NAME.py (unsaved)" for a copy, else the file's name.
    static QString displayName(const QString& scriptPath);

private:
    std::unique_ptr<QTemporaryDir> m_dir;
    QString m_name = QString::fromLatin1(kDefaultName);
};

}  // namespace ps::ui
