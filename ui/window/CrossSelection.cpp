#include "ui/window/CrossSelection.h"

#include "graph/GraphModel.h"
#include "ui/common/NoticeBar.h"
#include "ui/editor/EditorTabs.h"
#include "ui/editor/ScriptEditor.h"
#include "ui/editor/SourceViewerTab.h"
#include "ui/editor/UnsavedScript.h"
#include "ui/graph/GraphView.h"
#include "ui/report/ReportView.h"
#include "ui/report/SourceView.h"
#include "ui/report/VerifyView.h"
#include "ui/report/ViolationsView.h"
#include "ui/run/RunDocument.h"
#include "ui/window/RunController.h"
#include "ui/window/ScriptDocument.h"

#include "ui/editor/ScriptLocations.h"
#include <QFileInfo>

namespace ps::ui {

namespace { }  // namespace

CrossSelection::CrossSelection(ScriptEditor* editor, EditorTabs* tabs, NoticeBar* notice, ReportView* report,
    RunController* runs, ScriptDocument* document, QObject* parent)
    : QObject(parent),
      m_editor(editor),
      m_tabs(tabs),
      m_notice(notice),
      m_report(report),
      m_runs(runs),
      m_document(document)
{
    connect(m_editor, &ScriptEditor::lineClicked, this, &CrossSelection::onScriptLineClicked);
    connect(m_report->graphView(), &GraphView::nodesSelected, this, &CrossSelection::onNodesSelected);
    connect(m_report->graphView(), &GraphView::locationActivated, this, &CrossSelection::onLocation);
    connect(m_report->graphView(), &GraphView::frameActivated, this, &CrossSelection::onFrame);
    connect(m_report->sourceView(), &SourceView::nodesActivated, this, &CrossSelection::onSourceNodes);
    connect(m_report->verifyView(), &VerifyView::nodesActivated, this, &CrossSelection::onShowNodes);
    connect(m_report->violationsView(), &ViolationsView::locationActivated, this, &CrossSelection::onLocation);
    connect(m_report, &ReportView::captureChanged, this, [this]() { m_editor->highlightLines({}); });
}

void CrossSelection::onNodesSelected(const QList<int>& nodes)
{
    const auto graph = m_report->currentGraph();
    if (!graph)
        return;
    QStringList names;
    QList<int> lines;
    const bool sameScript = m_runs->scriptMatchesRun();
    for (int i : nodes) {
        const auto& n = graph->nodes()[i];
        names << QString::fromStdString(n.name);
        if (sameScript && n.sourceLine > 0
            && ScriptLocations::sameFile(QString::fromStdString(n.sourceFile), m_document->runScriptPath()))
            lines << n.sourceLine;
    }
    m_syncing = true;
    m_editor->highlightLines(lines);
    m_report->sourceView()->highlightNodes(names);
    m_syncing = false;
}

void CrossSelection::onScriptLineClicked(int line)
{
    if (m_syncing)
        return;
    const auto graph = m_report->currentGraph();
    if (!graph || !m_runs->scriptMatchesRun())
        return;
    const auto nodes = graph->nodesAtLine(m_report->run()->report.script, line);
    m_report->graphView()->selectNodes(QList<int>(nodes.begin(), nodes.end()), /*reveal=*/true);
}

QList<int> CrossSelection::nodesNamed(const QStringList& names) const
{
    QList<int> nodes;
    if (const auto graph = m_report->currentGraph())
        for (const QString& n : names)
            if (const int i = graph->indexOf(n.toStdString()); i >= 0)
                nodes << i;
    return nodes;
}

void CrossSelection::onSourceNodes(const QStringList& names)
{
    if (!m_report->currentGraph() || m_syncing)
        return;
    m_report->graphView()->selectNodes(nodesNamed(names), /*reveal=*/true);
}

void CrossSelection::onShowNodes(const QStringList& names)
{
    const QList<int> nodes = m_syncing ? QList<int>() : nodesNamed(names);
    if (nodes.isEmpty())
        return;
    m_report->tabs()->setCurrentWidget(m_report->graphView());
    m_report->graphView()->goToNodes(nodes);
}

void CrossSelection::onLocation(const QString& file, int line)
{
    if (!ScriptLocations::sameFile(file, m_document->runScriptPath())) {
        if (!QFileInfo(file).isFile() || UnsavedScript::isUnsavedCopy(file) || !m_document->replaceWith(file))
            return;
    }
    m_tabs->showScript();
    m_editor->goToLine(line);
    m_editor->highlightLines({line});
}

void CrossSelection::onFrame(const QString& file, int line, const QString& code)
{
    if (ScriptLocations::sameFile(file, m_document->runScriptPath())) {
        onLocation(file, line);
        return;
    }
    QString error;
    const SourceViewerTab* viewer = m_tabs->openSource(file, line, &error);
    if (!viewer) {
        m_notice->showNotice(NoticeBar::Level::Warning,
            tr("%1 cannot be opened: %2 (the stack was recorded where the run ran)").arg(file, error));
        return;
    }
    // The file on disk is today's: a package upgraded since the run has other lines.
    const QString now = line > 0 ? viewer->text(line - 1).trimmed() : QString();
    if (!code.isEmpty() && now != code)
        m_notice->showNotice(NoticeBar::Level::Warning,
            tr("%1 has changed since this run: line %2 now reads \u201c%3\u201d; the run's node came from "
               "\u201c%4\u201d.")
                .arg(QFileInfo(file).fileName())
                .arg(line)
                .arg(now, code));
}

}  // namespace ps::ui
