#pragma once

#include <QString>

#include <memory>

class QWidget;

namespace ps::ui {

class NoticeBar;
struct RunDocument;

/// File > Export Compile Trace…: the shown run's compile-time events as a Chrome trace
/// (model::ChromeTrace) in a JSON file that Perfetto (ui.perfetto.dev) and chrome://tracing open.
class CompileTraceExport {
public:
    /// Writes the run's trace to `path`; "" when written, else why not.
    static QString write(const RunDocument& run, const QString& path);
    /// Asks where (NAME-compile-trace.json), writes, and says what came of it on `notice`: no run
    /// shown, a run without compile profiles (an older studio's), a file that cannot be written.
    static void exportRun(QWidget* parent, const std::shared_ptr<const RunDocument>& run, NoticeBar* notice);
};

}  // namespace ps::ui
