#include "ui/report/ReportExport.h"

#include "share/HtmlReport.h"
#include "ui/common/NoticeBar.h"
#include "ui/editor/ScriptLocations.h"
#include "ui/run/RunDocument.h"

#include <QDir>
#include <QFileDialog>
#include <QFileInfo>
#include <QSaveFile>

#include <exception>

namespace ps::ui {

QString ReportExport::write(const RunDocument& run, const QString& path)
{
    std::string html;
    try {
        std::vector<std::optional<std::string>> code;
        for (const auto& bytes : run.artifacts)
            code.push_back(bytes.pythonCode);
        html = share::HtmlReport::forRun(run.report, run.scriptText, code);
    } catch (const std::exception& e) {
        return QObject::tr("the page could not be made: %1").arg(QString::fromUtf8(e.what()));
    }
    QSaveFile file(path);
    if (!file.open(QIODevice::WriteOnly))
        return QObject::tr("cannot write %1: %2").arg(path, file.errorString());
    file.write(html.data(), static_cast<qint64>(html.size()));
    if (!file.commit())
        return QObject::tr("cannot write %1: %2").arg(path, file.errorString());
    return {};
}

void ReportExport::exportRun(QWidget* parent, const std::shared_ptr<const RunDocument>& run, NoticeBar* notice)
{
    if (!run) {
        notice->showNotice(
            NoticeBar::Level::Info, QObject::tr("No run is shown: run a script or open one from the library first."));
        return;
    }
    const QString stem = QFileInfo(QString::fromStdString(run->report.script)).completeBaseName();
    const QString suggested
        = QDir(ScriptLocations::saveDir()).filePath((stem.isEmpty() ? QStringLiteral("run") : stem) + "-report.html");
    const QString path = QFileDialog::getSaveFileName(
        parent, QObject::tr("Export Report"), suggested, QObject::tr("HTML page (*.html);;All files (*)"));
    if (path.isEmpty())
        return;
    if (const QString error = write(*run, path); !error.isEmpty())
        notice->showNotice(NoticeBar::Level::Error, QObject::tr("Report not exported: %1").arg(error));
    else
        notice->showNotice(NoticeBar::Level::Info,
            QObject::tr("Wrote %1: one HTML file that opens in any browser, with nothing fetched.").arg(path));
}

}  // namespace ps::ui
