#include "ui/editor/ScriptFile.h"

#include <QCoreApplication>
#include <QFile>
#include <QFileInfo>
#include <QLocale>
#include <QStringDecoder>

namespace ps::ui {

namespace {
QString trScriptFile(const char* text)
{
    return QCoreApplication::translate("ScriptFile", text);
}
}  // namespace

ScriptFile ScriptFile::read(const QString& path)
{
    ScriptFile f;
    const QFileInfo info(path);
    f.path = info.absoluteFilePath();
    if (!info.exists()) {
        f.message = trScriptFile("%1 does not exist.").arg(f.path);
        return f;
    }
    if (!info.isFile()) {
        f.message = trScriptFile("%1 is not a regular file.").arg(f.path);
        return f;
    }
    f.size = info.size();
    QFile file(f.path);
    if (!file.open(QIODevice::ReadOnly)) {
        f.message = trScriptFile("%1 cannot be read: %2").arg(f.path, file.errorString());
        return f;
    }
    const bool preview = f.size > kEditLimitBytes;
    QByteArray bytes = file.read(preview ? kPreviewBytes : kEditLimitBytes);
    if (bytes.contains('\0')) {
        f.message = trScriptFile("%1 is a binary file (it contains NUL bytes), not a Python script; it was not opened.")
                        .arg(f.path);
        return f;
    }
    if (preview) {
        // Cut at a line end so the preview does not end in half a line (or half a character).
        if (const auto nl = bytes.lastIndexOf('\n'); nl > 0)
            bytes.truncate(nl + 1);
    }
    QStringDecoder decoder(QStringDecoder::Utf8);
    f.text = decoder.decode(bytes);
    const bool badUtf8 = decoder.hasError();
    if (preview) {
        f.status = Status::ReadOnly;
        const QLocale locale;
        f.message = trScriptFile("%1 is %2, more than the editor opens (%3): it is shown read-only, only its first %4. "
                                 "Run still runs the whole file.")
                        .arg(f.path, locale.formattedDataSize(f.size), locale.formattedDataSize(kEditLimitBytes),
                            locale.formattedDataSize(bytes.size()));
        f.text += trScriptFile("\n# [Precompile Studio: the rest of this file is not shown]\n");
    } else if (badUtf8) {
        f.status = Status::ReadOnly;
        f.message = trScriptFile("%1 is not valid UTF-8: it is shown read-only (invalid bytes as �) so that saving "
                                 "cannot damage it.")
                        .arg(f.path);
    } else {
        f.status = Status::Editable;
    }
    return f;
}

}  // namespace ps::ui
