#pragma once

#include <QString>

namespace ps::ui {

/// A script read from disk for the editor, with the checks that keep the window responsive:
/// a binary file is refused, a huge one (or one that is not UTF-8) is shown read-only in part.
/// Runs always use the file on disk, whatever the editor shows.
struct ScriptFile {
    enum class Status {
        Editable,  ///< the whole file, UTF-8
        ReadOnly,  ///< shown read-only: too large (a preview) or not valid UTF-8
        Refused,   ///< not shown: missing, a folder, unreadable or binary
    };

    /// Files larger than this open as a read-only preview of their first kPreviewBytes.
    static constexpr qint64 kEditLimitBytes = 8 * 1024 * 1024;
    static constexpr qint64 kPreviewBytes = 512 * 1024;

    Status status = Status::Refused;
    QString path;  ///< absolute
    QString text;
    QString message;  ///< why it is read-only or refused; empty when editable
    qint64 size = 0;

    static ScriptFile read(const QString& path);
};

}  // namespace ps::ui
