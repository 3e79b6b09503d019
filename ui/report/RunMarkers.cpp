#include "ui/report/RunMarkers.h"

#include "graph/GraphModel.h"
#include "ui/editor/EditorMarkers.h"
#include "ui/editor/LineColours.h"
#include "ui/editor/ScriptEditor.h"
#include "ui/graph/GraphCanvas.h"
#include "ui/graph/GraphView.h"
#include "ui/report/ReportView.h"
#include "ui/report/SourceView.h"
#include "ui/report/ViolationsView.h"
#include "ui/run/RunDocument.h"

#include "ui/editor/ScriptLocations.h"
#include <QAction>
#include <QFileInfo>

namespace ps::ui {

namespace { }  // namespace

RunMarkers::RunMarkers(ScriptEditor* editor, ReportView* report, QObject* parent)
    : QObject(parent), m_editor(editor), m_report(report)
{
    m_lineColours = new QAction(tr("Colour by Script &Line"), this);
    m_lineColours->setCheckable(true);
    m_lineColours->setToolTip(tr("Give each script line that produced graph nodes one colour, shared by the line, "
                                 "its nodes in the graph and its lines of python_code"));
    connect(m_lineColours, &QAction::toggled, this, &RunMarkers::applyLineColours);
    connect(report, &ReportView::captureChanged, this, &RunMarkers::refresh);
    connect(report->violationsView(), &ViolationsView::violationActivated, this, &RunMarkers::revealViolation);
    connect(report->violationsView(), &ViolationsView::showInGraphRequested, this,
        [this](const QString& capture, const QString& file, int line, const QStringList& nodes) {
            m_report->tabs()->setCurrentWidget(m_report->graphView());
            revealViolation(capture, file, line, nodes);
        });
    // Another file in the editor loses the marks (ScriptEditor drops them); the run's script,
    // opened again, gets them back.
    connect(editor, &ScriptEditor::filePathChanged, this, &RunMarkers::refresh);
}

bool RunMarkers::editorShowsRunScript() const
{
    const auto& run = m_report->run();
    return run && ScriptLocations::sameFile(QString::fromStdString(run->report.script), m_editor->filePath());
}

void RunMarkers::refresh()
{
    markEditor();
    markGraph();
    applyLineColours();
}

void RunMarkers::markEditor()
{
    std::vector<EditorMarkers::Diagnostic> marks;
    if (m_report->run())
        for (const auto& e : m_report->violationsView()->entries()) {
            if (e.line <= 0 || !ScriptLocations::sameFile(e.file, m_editor->filePath()))
                continue;
            EditorMarkers::Diagnostic d;
            d.line = e.line;
            d.severity = e.severity;
            d.invariant = e.invariant;
            d.rule = e.rule;
            d.summary = (e.summary.isEmpty() ? e.message : e.summary).section('\n', 0, 0);
            d.fix = e.fix;
            d.capture = e.capture;
            d.guard = e.guard;
            marks.push_back(d);
        }
    m_editor->markers()->setDiagnostics(std::move(marks));
}

QList<int> RunMarkers::nodesOf(const QString& file, int line, const QStringList& names) const
{
    QList<int> out;
    const auto graph = m_report->currentGraph();
    if (!graph)
        return out;
    for (const QString& name : names)
        if (const int i = graph->indexOf(name.toStdString()); i >= 0 && !out.contains(i))
            out << i;
    if (out.isEmpty() && line > 0)
        for (int i : graph->nodesAtLine(file.toStdString(), line))
            out << i;
    return out;
}

void RunMarkers::markGraph()
{
    QList<int> marked;
    const auto& run = m_report->run();
    const int capture = m_report->currentCapture();
    if (run && capture >= 0 && capture < static_cast<int>(run->report.captures.size())) {
        const QString name = QString::fromStdString(run->report.captures[capture].name);
        for (const auto& e : m_report->violationsView()->entries())
            if (model::isProblem(e.severity) && e.capture == name)
                for (int n : nodesOf(e.file, e.line, e.nodes))
                    if (!marked.contains(n))
                        marked << n;
    }
    m_report->graphView()->setMarkedNodes(marked);
}

void RunMarkers::applyLineColours()
{
    const auto& run = m_report->run();
    const auto graph = m_report->currentGraph();
    std::map<int, int> lines;
    std::map<int, QColor> fills;
    std::map<QString, int> byName;
    if (m_lineColours->isChecked() && run && graph) {
        const std::string& script = run->report.script;
        lines = LineColours::ofScript(*graph, script);
        const QPalette palette = m_report->graphView()->palette();
        for (std::size_t i = 0; i < graph->nodes().size(); ++i) {
            const auto& n = graph->nodes()[i];
            if (n.sourceFile != script)
                continue;
            if (auto it = lines.find(n.sourceLine); it != lines.end()) {
                fills.emplace(static_cast<int>(i), LineColours::colour(it->second, palette));
                byName.emplace(QString::fromStdString(n.name), it->second);
            }
        }
    }
    LineColours::paint(m_editor, editorShowsRunScript() ? lines : std::map<int, int>());
    m_report->graphView()->setNodeFills(fills);
    m_report->sourceView()->setNodeColours(byName);
}

void RunMarkers::revealViolation(const QString& capture, const QString& file, int line, const QStringList& nodes)
{
    const auto& run = m_report->run();
    if (!run)
        return;
    if (!capture.isEmpty())
        for (std::size_t i = 0; i < run->report.captures.size(); ++i)
            if (QString::fromStdString(run->report.captures[i].name) == capture) {
                m_report->setCurrentCapture(static_cast<int>(i));
                break;
            }
    const QList<int> shown = nodesOf(file, line, nodes);
    if (shown.isEmpty())
        return;
    GraphView* view = m_report->graphView();
    view->selectNodes(shown, /*reveal=*/true);
    // Centre on the first once its box is where the (maybe new) layout puts it.
    auto centre = [view, node = shown.front()]() { view->canvas()->centerOn(view->nodeCenter(node)); };
    if (!view->layoutPending()) {
        centre();
        return;
    }
    auto once = std::make_shared<QMetaObject::Connection>();
    *once = connect(view, &GraphView::graphShown, this, [once, centre]() {
        QObject::disconnect(*once);
        centre();
    });
}

}  // namespace ps::ui
