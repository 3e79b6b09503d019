#pragma once

#include <QList>
#include <QObject>
#include <QString>

#include <memory>

namespace ps::graph {
class CollapseState;
class GraphModel;
class LayoutCache;
class ModuleTree;
class VisibleGraph;
struct LayoutResult;
}  // namespace ps::graph

namespace ps::ui {

struct GraphLayoutJob;

/// How a graph opens: modules are expanded while at most `budget` boxes show, and, when the
/// canvas is known, fewer if that is what it takes for the layout, fitted to the canvas, to
/// keep its labels readable: the largest opening state whose fitted zoom is at least
/// `readableZoom` (every line of every box readable), unless the largest at `titleZoom` (every
/// box's title readable, in it or beside it) shows more than twice its boxes (resnet18's
/// "x, model · ResNet, output" against its 13 top-level modules); else the largest at
/// `titleZoom`, else the smallest.
struct GraphOpening {
    int budget = 80;
    double width = 0;  ///< the canvas's viewport, in pixels; 0: the budget alone decides
    double height = 0;
    double margin = 0;  ///< the scene's margin around the layout
    double readableZoom = 0;
    double titleZoom = 0;
    /// The zoom that fits a layout `w` x `h` (plus the margins) in the canvas, never past 1:1,
    /// as GraphCanvas::fitScene computes it; 1 when the canvas is not known.
    double fittedZoom(double w, double h) const;
};

/// What the Graph tab shows, apart from its widgets: the graph, its module tree, the collapse
/// state shown and the one requested, the visible graph and its layout, and a selection that
/// waits for a layout. Every layout, the opening one included, goes through one launcher.
///
/// Threads: lives on the GUI thread. The module tree, the visible graph and the layout are
/// computed on a pool thread from immutable inputs (the GraphModel, the ModuleTree, a copy of
/// the state); the result comes back on the GUI thread. Each request (open, clear, expand, ...)
/// bumps a generation number, and a result of an older generation is dropped. The layout
/// cache, if set, is called from the pool thread.
class GraphSession : public QObject {
    Q_OBJECT
public:
    explicit GraphSession(QObject* parent = nullptr);
    ~GraphSession() override;

    /// Where laid-out graphs are kept between sessions (null: nowhere).
    void setLayoutCache(std::shared_ptr<graph::LayoutCache> cache);
    /// No graph; a layout on its way is dropped.
    void clear();
    /// Shows `graph`: its module tree and the opening state (see GraphOpening) are computed
    /// with the first layout.
    void open(std::shared_ptr<const graph::GraphModel> graph, const GraphOpening& opening);

    const std::shared_ptr<const graph::GraphModel>& graph() const { return m_graph; }
    const std::shared_ptr<const graph::ModuleTree>& tree() const { return m_tree; }
    /// What is shown: null until the first layout is.
    const graph::CollapseState* shownState() const { return m_state.get(); }
    /// The newest request, or what is shown when none is on its way. Only after the first layout.
    const graph::CollapseState& latestState() const;
    const std::shared_ptr<const graph::VisibleGraph>& visible() const { return m_visible; }
    const graph::LayoutResult* layout() const { return m_layout.get(); }
    bool pending() const { return m_pending; }

    // Requests, each built on latestState() so that two quick clicks both count. Expand,
    // collapse and the "all" forms drop a selection waiting for a layout: the user asked for
    // something else since. `module` is a ModuleTree id (collapse: not the root).
    void expand(int module);
    void collapse(int module);
    void expandAll();
    void collapseAll();
    /// Expands what hides these nodes; when that starts a layout, they are selected once it is
    /// shown (takePendingSelection) and true is returned.
    bool reveal(const QList<int>& nodes, bool scrollTo);

    /// Nodes to select once the pending layout is shown.
    void selectWhenShown(const QList<int>& nodes, bool scrollTo);
    /// The selection waiting for the layout just shown, and forgets it.
    QList<int> takePendingSelection(bool* scrollTo);

signals:
    /// A layout arrived: tree(), shownState(), visible() and layout() describe it now.
    /// `opened`: the first one of this graph.
    void layoutShown(bool opened);
    /// A layout could not be computed (out of memory, ...). What was shown stays, and its state.
    void layoutFailed(const QString& why);

private:
    void request(std::unique_ptr<graph::CollapseState> state);
    void launch(std::shared_ptr<graph::CollapseState> state, const GraphOpening& opening);
    void finish(GraphLayoutJob& job);

    std::shared_ptr<const graph::GraphModel> m_graph;
    std::shared_ptr<const graph::ModuleTree> m_tree;
    std::unique_ptr<graph::CollapseState> m_state;      ///< what is shown
    std::unique_ptr<graph::CollapseState> m_requested;  ///< the newest request, while it is laid out
    std::shared_ptr<const graph::VisibleGraph> m_visible;
    std::unique_ptr<graph::LayoutResult> m_layout;
    std::shared_ptr<graph::LayoutCache> m_cache;
    QList<int> m_pendingSelection;
    bool m_pendingScroll = false;
    quint64 m_generation = 0;
    bool m_pending = false;
};

}  // namespace ps::ui
