#pragma once

#include <QObject>
#include <QString>
#include <QStringList>

class QAction;

namespace ps::ui {

class ReportView;
class ScriptEditor;

/// Puts the shown run's findings where the user looks, and keeps them in step as runs and
/// captures change: every violation and warning at its script line in the editor (margin
/// icon, squiggle, hover text: EditorMarkers), the nodes of the shown capture's violations
/// and errors marked in the graph; a click on a violation selects its nodes and centres the
/// graph on them (the window moves the caret and highlights the line). "Colour by Script Line"
/// (lineColoursAction(), off by default) gives each script line that produced nodes one colour
/// (LineColours), shared by the editor line, its graph nodes and its python_code lines.
/// The editor is marked only while it shows the run's script. GUI thread only.
class RunMarkers : public QObject {
    Q_OBJECT
public:
    RunMarkers(ScriptEditor* editor, ReportView* report, QObject* parent = nullptr);

    QAction* lineColoursAction() const { return m_lineColours; }

public slots:
    /// Marks the run the report shows now (none: clears every mark).
    void refresh();
    /// A violation was clicked: shows its capture, selects its nodes and centres the graph on them.
    void revealViolation(const QString& capture, const QString& file, int line, const QStringList& nodes);

private:
    void markEditor();
    void markGraph();
    void applyLineColours();
    QList<int> nodesOf(const QString& file, int line, const QStringList& names) const;
    bool editorShowsRunScript() const;

    ScriptEditor* m_editor;
    ReportView* m_report;
    QAction* m_lineColours;
};

}  // namespace ps::ui
