#pragma once

#include <QList>
#include <QObject>
#include <QString>
#include <QStringList>

namespace ps::ui {

class EditorTabs;
class NoticeBar;
class ReportView;
class RunController;
class ScriptDocument;
class ScriptEditor;

/// Keeps the editor, the graph, Source and Violations pointing at the same thing: selecting
/// graph nodes marks their script lines (when the report is a run of the editor's script) and
/// their kernels in Source; clicking a script line, a kernel or a drift start in Verify selects
/// its nodes; a location
/// (a violation, a node's line) opens its script if need be and goes to the line; a frame of a
/// node's stack goes to the script's line when it is the run's script, else opens its file
/// read-only in a viewer tab beside the editor (EditorTabs) at the line.
///
/// Thread contract: GUI thread only. It owns none of the widgets it connects.
class CrossSelection : public QObject {
    Q_OBJECT
public:
    CrossSelection(ScriptEditor* editor, EditorTabs* tabs, NoticeBar* notice, ReportView* report, RunController* runs,
        ScriptDocument* document, QObject* parent = nullptr);

private:
    void onNodesSelected(const QList<int>& nodes);
    void onScriptLineClicked(int line);
    /// The current graph's nodes of these names (those it has).
    QList<int> nodesNamed(const QStringList& names) const;
    void onSourceNodes(const QStringList& names);
    /// A node named elsewhere (a drift start in Verify): the Graph tab, the node selected and centred.
    void onShowNodes(const QStringList& names);
    void onLocation(const QString& file, int line);
    void onFrame(const QString& file, int line, const QString& code);

    ScriptEditor* m_editor;
    EditorTabs* m_tabs;
    NoticeBar* m_notice;
    ReportView* m_report;
    RunController* m_runs;
    ScriptDocument* m_document;
    bool m_syncing = false;  ///< set while this class moves the others: their echoes are not acted on
};

}  // namespace ps::ui
