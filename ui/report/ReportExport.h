#pragma once

#include <QString>

#include <memory>

class QWidget;

namespace ps::ui {

class NoticeBar;
struct RunDocument;

/// File > Export Report…: the shown run as one self-contained HTML page (share::HtmlReport, the
/// same page as `run --html` and `library html`): the verdict, the findings with their source
/// lines, the verification, the graph, python_code by section, the cache, the timings. It opens
/// in any browser from disk and fetches nothing.
class ReportExport {
public:
    /// Writes the run's page to `path`; "" when written, else why not.
    static QString write(const RunDocument& run, const QString& path);
    /// Asks where (NAME-report.html), writes, and says what came of it on `notice`: no run
    /// shown, or a file that cannot be written.
    static void exportRun(QWidget* parent, const std::shared_ptr<const RunDocument>& run, NoticeBar* notice);
};

}  // namespace ps::ui
