#pragma once

// Support for the window's tests: waiting on the event loop, temporary folders, fixtures, a
// window wired to a fresh library, and a run waited for to its end.

#include "ui/window/MainWindow.h"

#include "ui/run/RunDocument.h"

#include <QString>
#include <QTemporaryDir>
#include <nlohmann/json.hpp>

#include <functional>
#include <memory>
#include <utility>

class QWidget;

namespace ps::uitest {

/// Processes events until `done` holds or `timeoutMs` pass; returns done().
bool waitFor(const std::function<bool()>& done, int timeoutMs);

/// Processes events until `read()` gives the same value on three passes of the event loop in a
/// row (what a resize, a show or a tab switch posted, relayouts and refits, is done) or
/// `timeoutMs` pass; returns whether it settled. `read` returns anything with ==. For a value
/// that must not change, wait first for what could change it (a layout, a resize) to be done.
template <typename Read> bool waitForSettled(Read read, int timeoutMs)
{
    auto last = read();
    int same = -1;  // the first check reads before any event is processed
    return waitFor(
        [&]() {
            auto now = read();
            same = now == last ? same + 1 : 0;
            last = std::move(now);
            return same >= 3;
        },
        timeoutMs);
}

/// Saves a picture of `widget` (for PS_SHOT_DIR) once what it paints has settled: the same
/// image on three passes of the event loop (a resize's relayout, a show, a late update done).
void savePicture(QWidget& widget, const QString& file);

QString sourcePath(const QString& relative);
QString fixtureScript(const QString& name);
QString example(const QString& name);

/// A temporary folder, removed with the object.
class TempDir {
public:
    TempDir();
    QString path() const { return m_dir.path(); }
    QString file(const QString& name) const { return m_dir.filePath(name); }
    /// Writes `content` to `name` and returns its path.
    QString write(const QString& name, const QByteArray& content) const;

private:
    QTemporaryDir m_dir;
};

/// Options for a test window: a library in `dir`, nothing restored from settings.
ui::MainWindowOptions windowOptions(const TempDir& dir, bool prewarm = true);

/// Triggers Run and waits for the run to end; null on timeout.
std::shared_ptr<const ui::RunDocument> runAndWait(
    ui::MainWindow& window, int timeoutMs = 600000, QAction* trigger = nullptr);

/// A script that precompiles quickly on the eager backend.
QByteArray tinyScript();

/// A chain-like graph object as the worker reports it ("graph" of a capture): each node reads
/// one to three recent nodes and now and then a farther one; every tenth is a parameter.
/// Source lines cycle over 1..lines of `file`.
nlohmann::json syntheticGraph(int nodes, const std::string& file, int lines);

/// A whole run for RunStore::insert: one eager capture with `graph`, a small python_code whose
/// line i + 10 computes node i (lowering.node_lines), an empty cache envelope.
ps::ui::RunDocument syntheticRun(const std::string& script, const nlohmann::json& graph,
    const std::string& status = "ok", const std::string& name = "synthetic");

/// A six-line script whose fn is x @ w, relu, sum (lines 4, 5, 6), and its graph as a capture
/// of `file` would report it: two inputs, mm, relu, sum_1 at those lines, the output.
extern const char* const kMatmulReluScript;
nlohmann::json matmulReluGraph(const std::string& file);

}  // namespace ps::uitest
