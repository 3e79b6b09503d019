#pragma once

#include <QSplitter>

class QTextBrowser;
class QTreeView;
class QUrl;

namespace ps::graph {
class CollapseState;
class GraphModel;
class ModuleTree;
}  // namespace ps::graph

namespace ps::ui {

class ModuleTreeModel;

/// The Graph tab's side panel: the module tree (a tick expands a module, a double-click goes
/// to it) above the details of the selection (every input, user, kernel and source line a
/// link). It sits in a splitter beside the canvas, hidden until the user asks for it; whether
/// it shows and its width are remembered (QSettings "graph/sidePanel", "graph/sidePanelWidth").
class GraphSidePanel : public QSplitter {
    Q_OBJECT
public:
    /// `model` is GraphView's; the panel only shows it.
    explicit GraphSidePanel(ModuleTreeModel* model, QWidget* parent = nullptr);

    /// Adds the panel to `split` (after the canvas), shown as last remembered.
    void placeIn(QSplitter* split);
    /// Shows or hides the panel beside the canvas; `remember`: as the user's choice.
    void setShown(bool shown, bool remember);
    /// The graph the details' links point into (null: none).
    void setGraph(const graph::GraphModel* graph);

    void setDetailsHtml(const QString& html);
    /// What the numeric lens measured on the selection (GraphMeasures::detailsHtml), shown above
    /// the details while there are any; "" none.
    void setMeasureHtml(const QString& html);
    void clearDetails();
    QString detailsText() const;
    /// Ticks the tree as `state` says and unfolds the modules it expands: every expanded
    /// module with `whole` (a new graph), else only those whose tick changed.
    void syncTree(const graph::ModuleTree& tree, const graph::CollapseState& state, bool whole);
    /// Fits the type and count columns to their text (once per graph: trees run to thousands).
    void fitColumns();

signals:
    /// A module's row was double-clicked: `module` is a ModuleTree id.
    void moduleActivated(int module);
    /// A link to nodes was clicked (an input, a user, every node of a kernel).
    void nodesActivated(const QList<int>& nodes);
    /// A source line was clicked: `line` of `file` (1-based).
    void locationActivated(const QString& file, int line);
    /// A frame of a node's stack was clicked: `line` of `file` (1-based; 0: unknown), which
    /// may be the user's script or any other file (a library's); `code`: the line's text when
    /// the run was made ("" unknown).
    void frameActivated(const QString& file, int line, const QString& code);

private:
    void onLink(const QUrl& url);

    const graph::GraphModel* m_graph = nullptr;
    QString m_detailsHtml;
    QString m_measureHtml;
    ModuleTreeModel* m_model;
    QTreeView* m_modules;
    QTextBrowser* m_details;
};

}  // namespace ps::ui
