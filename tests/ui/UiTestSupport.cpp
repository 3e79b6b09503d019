#include "UiTestSupport.h"

#include "ui/run/RunDocument.h"

#include <QAction>
#include <QCoreApplication>
#include <QElapsedTimer>
#include <QFile>
#include <QImage>
#include <QPixmap>
#include <QProcess>
#include <QTemporaryDir>
#include <QThread>
#include <QWidget>

#ifdef PS_TEST_PYTHON
#include <gtest/gtest.h>
#endif

namespace ps::uitest {

bool waitFor(const std::function<bool()>& done, int timeoutMs)
{
    QElapsedTimer clock;
    clock.start();
    while (!done()) {
        if (clock.elapsed() > timeoutMs)
            return done();
        QCoreApplication::processEvents(QEventLoop::AllEvents, 20);
        QThread::msleep(5);
    }
    return true;
}

void savePicture(QWidget& widget, const QString& file)
{
    waitForSettled([&] { return widget.grab().toImage(); }, 5000);
    widget.grab().save(file);
}

QString sourcePath(const QString& relative)
{
    return QStringLiteral(PS_TEST_SOURCE_DIR "/") + relative;
}

QString fixtureScript(const QString& name)
{
    return sourcePath(QStringLiteral("tests/fixtures/scripts/") + name);
}

QString example(const QString& name)
{
    return sourcePath(QStringLiteral("resources/examples/") + name);
}

TempDir::TempDir() : m_dir(QDir::tempPath() + QStringLiteral("/ps-ui-test-XXXXXX"))
{ }

QString TempDir::write(const QString& name, const QByteArray& content) const
{
    QFile f(file(name));
    if (f.open(QIODevice::WriteOnly))
        f.write(content);
    return f.fileName();
}

ui::MainWindowOptions windowOptions(const TempDir& dir, bool prewarm)
{
    ui::MainWindowOptions o;
    o.libraryPath = dir.file(QStringLiteral("library.sqlite3"));
    o.prewarm = prewarm;
    o.restoreState = false;
    return o;
}

std::shared_ptr<const ui::RunDocument> runAndWait(ui::MainWindow& window, int timeoutMs, QAction* trigger)
{
    std::shared_ptr<const ui::RunDocument> result;
    auto connection = QObject::connect(&window, &ui::MainWindow::runFinished,
        [&](const std::shared_ptr<const ui::RunDocument>& run) { result = run; });
    (trigger ? trigger : window.runAction())->trigger();
    waitFor([&]() { return result != nullptr; }, timeoutMs);
    QObject::disconnect(connection);
#ifdef PS_TEST_PYTHON  // the ui tests (not the window benchmark, which shares this file)
    if (result) {
        // Every report the window makes follows docs/report.schema.json, as the CLI's do.
        QTemporaryDir dir;
        const QString file = dir.filePath(QStringLiteral("report.json"));
        QFile out(file);
        if (out.open(QIODevice::WriteOnly))
            out.write(QByteArray::fromStdString(result->report.toJson().dump()));
        out.close();
        QProcess check;
        check.start(QStringLiteral(PS_TEST_PYTHON),
            {QStringLiteral(PS_TEST_SOURCE_DIR "/tests/support/validate_report.py"), file});
        check.waitForFinished(60000);
        EXPECT_EQ(check.exitCode(), 0) << "the window's report does not follow docs/report.schema.json:\n"
                                       << check.readAllStandardOutput().toStdString()
                                       << check.readAllStandardError().toStdString();
    }
#endif
    return result;
}

QByteArray tinyScript()
{
    return "import torch\n"
           "\n"
           "def fn(x):\n"
           "    y = x * 2\n"
           "    return y + 1\n"
           "\n"
           "example_inputs = (torch.ones(3),)\n"
           "backend = 'eager'\n";
}

nlohmann::json syntheticGraph(int n, const std::string& file, int lines)
{
    nlohmann::json list = nlohmann::json::array();
    unsigned seed = 12345;
    auto next = [&seed]() { return seed = seed * 1103515245u + 12345u, (seed >> 16) & 0x7fff; };
    std::vector<std::string> names;
    for (int i = 0; i < n; ++i) {
        nlohmann::json node;
        const bool param = i < 2 || i % 10 == 0;
        std::string name = param ? "p" + std::to_string(i) : "op" + std::to_string(i);
        node["name"] = name;
        node["shape"] = {8, 32};
        node["dtype"] = "float32";
        node["stride"] = {32, 1};
        node["device"] = "cpu";
        nlohmann::json inputs = nlohmann::json::array();
        if (param) {
            node["op"] = "placeholder";
            node["target"] = name;
            node["kind"] = i == 1 ? "input" : "parameter";
            node["qualname"] = "model." + std::to_string(i) + ".weight";
            node["source"] = nullptr;
            node["module"] = nullptr;
        } else {
            node["op"] = "call_function";
            node["target"]
                = (i % 3 == 0) ? "aten.addmm.default" : (i % 3 == 1 ? "aten.relu.default" : "aten.mul.Tensor");
            node["kind"] = "compute";
            const int k = 1 + static_cast<int>(next() % 3);
            for (int j = 1; j <= k && i - j >= 0; ++j)
                inputs.push_back(names[i - j]);
            if (next() % 10 < 3 && i > 20)
                inputs.push_back(names[i - 10 - static_cast<int>(next() % 10)]);
            node["source"] = {{"file", file}, {"line", 1 + i % std::max(1, lines)}};
            node["module"] = {{"path", "model.layers." + std::to_string(i / 50)}, {"type", "Block"}};
            node["phase"] = "forward";
        }
        node["inputs"] = inputs;
        names.push_back(name);
        list.push_back(node);
    }
    if (n > 0) {
        nlohmann::json out = {{"name", "output"}, {"op", "output"}, {"target", "output"}, {"kind", "output"},
            {"inputs", {names.back()}}, {"source", nullptr}, {"module", nullptr}};
        list.push_back(out);
    }
    return {{"nodes", list.size()}, {"inputs", 0}, {"outputs", 1}, {"ops", nlohmann::json::object()},
        {"complete", true}, {"node_list", list}};
}

ps::ui::RunDocument syntheticRun(
    const std::string& script, const nlohmann::json& graph, const std::string& status, const std::string& name)
{
    std::string code = "# synthetic python_code\n";
    for (int i = 2; i <= 9; ++i)
        code += "# header line " + std::to_string(i) + "\n";
    nlohmann::json nodeLines = nlohmann::json::array();
    int line = 10;
    for (const auto& node : graph["node_list"]) {
        code += "    " + node["name"].get<std::string>() + " = step()\n";
        nodeLines.push_back({line++, node["name"]});
    }
    nlohmann::json capture
        = {{"name", name}, {"backend", "eager"}, {"tracer", "make_fx"}, {"status", status == "ok" ? "ok" : "violation"},
            {"violation", nullptr}, {"warnings", nlohmann::json::array()}, {"artifact", nullptr}, {"graph", graph},
            {"lowering",
                {{"backend", "eager"},
                    {"sections",
                        {{{"kind", "header"}, {"title", "Header"}, {"start", 1}, {"end", 9}, {"parent", nullptr}},
                            {{"kind", "graph_function"}, {"title", "Captured graph"}, {"start", 10}, {"end", line - 1},
                                {"parent", nullptr}}}},
                    {"node_lines", nodeLines}}},
            {"cache",
                {{"format", "torch.compiler.precompile"}, {"version", 1}, {"backend", "eager"}, {"code_hash", nullptr},
                    {"entries", nlohmann::json::array()}}},
            {"verify", nullptr}, {"timings_s", {{"script", 0.1}, {"precompile", 1.0}}}};
    if (status != "ok")
        capture["violation"] = {{"invariant", 1}, {"rule", "synthetic-rule"}, {"kind", "PrecompileError"},
            {"message", "a synthetic violation"}, {"explanation", "because"}, {"fix", "do not"},
            {"location", {{"file", script}, {"line", 2}}}};
    nlohmann::json report = {{"schema", 1}, {"script", script}, {"status", status},
        {"message", status + " (synthetic)"}, {"captures", {capture}}};
    ps::ui::RunDocument doc;
    doc.report = ps::model::Report::fromJson(report);
    doc.artifacts.resize(1);
    if (status == "ok") {
        doc.artifacts[0].pythonCode = code;
        doc.artifacts[0].cache = std::string("synthetic cache bytes");
    }
    doc.origin = ps::ui::RunDocument::Origin::Run;
    return doc;
}

const char* const kMatmulReluScript = "import torch\n"           // 1
                                      "\n"                       // 2
                                      "def fn(x, w):\n"          // 3
                                      "    y = x @ w\n"          // 4
                                      "    z = torch.relu(y)\n"  // 5
                                      "    return z.sum()\n"     // 6
                                      "\n"                       // 7
                                      "example_inputs = (torch.ones(2, 2), torch.ones(2, 2))\n";

nlohmann::json matmulReluGraph(const std::string& file)
{
    auto node = [&](const char* name, const char* op, const char* target, const char* kind,
                    std::vector<std::string> inputs, int line) {
        nlohmann::json n = {{"name", name}, {"op", op}, {"target", target}, {"kind", kind}, {"inputs", inputs},
            {"shape", {2, 2}}, {"dtype", "float32"}, {"stride", {2, 1}}, {"device", "cpu"}};
        n["source"] = line ? nlohmann::json{{"file", file}, {"line", line}} : nlohmann::json();
        n["module"] = nullptr;
        return n;
    };
    nlohmann::json list = {node("x", "placeholder", "x", "input", {}, 0), node("w", "placeholder", "w", "input", {}, 0),
        node("mm", "call_function", "aten.mm.default", "compute", {"x", "w"}, 4),
        node("relu", "call_function", "aten.relu.default", "compute", {"mm"}, 5),
        node("sum_1", "call_function", "aten.sum.default", "compute", {"relu"}, 6),
        node("output", "output", "output", "output", {"sum_1"}, 0)};
    return {{"nodes", 6}, {"complete", true}, {"node_list", list}};
}

}  // namespace ps::uitest
