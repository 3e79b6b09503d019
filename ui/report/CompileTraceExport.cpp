#include "ui/report/CompileTraceExport.h"

#include "model/ChromeTrace.h"
#include "ui/common/NoticeBar.h"
#include "ui/editor/ScriptLocations.h"
#include "ui/run/RunDocument.h"

#include <QDir>
#include <QFileDialog>
#include <QFileInfo>
#include <QSaveFile>

namespace ps::ui {

QString CompileTraceExport::write(const RunDocument& run, const QString& path)
{
    if (!model::ChromeTrace::available(run.report))
        return QObject::tr("this run has no compile-time profile (it was made by an older studio)");
    const std::string json
        = model::ChromeTrace::fromReport(run.report).dump(-1, ' ', false, nlohmann::json::error_handler_t::replace);
    QSaveFile file(path);
    if (!file.open(QIODevice::WriteOnly))
        return QObject::tr("cannot write %1: %2").arg(path, file.errorString());
    file.write(json.data(), static_cast<qint64>(json.size()));
    file.write("\n");
    if (!file.commit())
        return QObject::tr("cannot write %1: %2").arg(path, file.errorString());
    return {};
}

void CompileTraceExport::exportRun(QWidget* parent, const std::shared_ptr<const RunDocument>& run, NoticeBar* notice)
{
    if (!run) {
        notice->showNotice(
            NoticeBar::Level::Info, QObject::tr("No run is shown: run a script or open one from the library first."));
        return;
    }
    if (!model::ChromeTrace::available(run->report)) {
        notice->showNotice(NoticeBar::Level::Info,
            QObject::tr("This run has no compile-time profile to export (it was made by an older studio)."));
        return;
    }
    const QString stem = QFileInfo(QString::fromStdString(run->report.script)).completeBaseName();
    const QString suggested = QDir(ScriptLocations::saveDir())
                                  .filePath((stem.isEmpty() ? QStringLiteral("run") : stem) + "-compile-trace.json");
    const QString path = QFileDialog::getSaveFileName(
        parent, QObject::tr("Export Compile Trace"), suggested, QObject::tr("Chrome trace (*.json);;All files (*)"));
    if (path.isEmpty())
        return;
    if (const QString error = write(*run, path); !error.isEmpty())
        notice->showNotice(NoticeBar::Level::Error, QObject::tr("Compile trace not exported: %1").arg(error));
    else
        notice->showNotice(NoticeBar::Level::Info,
            QObject::tr("Wrote %1: open it in Perfetto (ui.perfetto.dev) or chrome://tracing.").arg(path));
}

}  // namespace ps::ui
