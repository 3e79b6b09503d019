#pragma once

#include "graph/GraphLens.h"
#include "graph/GraphSearch.h"

#include <QList>
#include <QWidget>

#include <memory>
#include <vector>

class QComboBox;
class QGraphicsItem;
class QGraphicsScene;
class QLabel;
class QLineEdit;
class QSpinBox;
class QStackedWidget;
class QTextBrowser;
class QTreeWidget;
class QTreeWidgetItem;

namespace ps::graph {
class CollapseState;
class GraphModel;
class LayoutCache;
class ModuleTree;
class VisibleGraph;
struct GraphNode;
struct LayoutResult;
}  // namespace ps::graph

namespace ps::ui {

class EdgesItem;
class GraphBoxItem;
class GraphCanvas;
class GraphMinimap;
struct GraphLayoutJob;

/// The Graph tab. The graph is shown collapsed by module (engine/graph's ModuleTree): a
/// collapsed module is one box, double-click expands it; the module tree beside the canvas
/// expands and collapses too. Search by name, op, module or shape walks the matches (opening
/// what hides them); lenses colour the boxes; selecting a node highlights what it reads and
/// feeds, n levels deep; a minimap shows where the view is; the visible graph exports to SVG
/// and PNG.
///
/// Threads: the module tree, the visible graph and its layout are computed on a pool thread
/// from immutable inputs (the GraphModel, a copy of the collapse state); the scene is built
/// on the GUI thread when they come back. A newer request (setGraph, clear, expand, ...)
/// makes a pending result be dropped, by a generation number. The layout cache, if set, is
/// called from the pool thread.
class GraphView : public QWidget {
    Q_OBJECT
public:
    explicit GraphView(QWidget* parent = nullptr);
    ~GraphView() override;

    void setGraph(std::shared_ptr<const graph::GraphModel> graph);
    /// No graph: shows `message` instead.
    void clear(const QString& message);
    /// Where laid-out graphs are kept between sessions (null: nowhere).
    void setLayoutCache(std::shared_ptr<graph::LayoutCache> cache);

    const std::shared_ptr<const graph::GraphModel>& graph() const { return m_graph; }
    const graph::ModuleTree* moduleTree() const { return m_tree.get(); }
    bool layoutPending() const { return m_pending; }
    /// Graph nodes selected: a selected module box stands for every node in it.
    QList<int> selectedNodes() const;
    /// Selects these nodes (and nothing else). With `reveal`, first expands the modules hiding
    /// them and scrolls the first into view; without, a hidden node's module box is selected.
    void selectNodes(const QList<int>& nodes, bool reveal);
    /// Scene position of the centre of the box showing a node (its module's when collapsed).
    QPointF nodeCenter(int node) const;
    GraphCanvas* canvas() const { return m_canvas; }
    GraphMinimap* minimap() const { return m_minimap; }
    QString detailsText() const;
    QString message() const;

    // Collapse and expand, by module path ("" is the root, always expanded).
    bool isExpanded(const QString& modulePath) const;
    void expandModule(const QString& modulePath);
    void collapseModule(const QString& modulePath);
    /// Boxes in the scene now (nodes and collapsed modules).
    int visibleItemCount() const;
    int visibleModuleCount() const;
    /// The box showing a node: a NodeItem, or the ModuleItem of the module hiding it.
    GraphBoxItem* boxOfNode(int node) const;

    // Search.
    void setSearch(const QString& text, graph::SearchField field = graph::SearchField::Any);
    int matchCount() const { return static_cast<int>(m_matches.size()); }
    /// Index into the matches of the one shown, or -1.
    int currentMatch() const { return m_matchIndex; }
    int currentMatchNode() const;

    // Lenses and neighbourhoods.
    void setLens(graph::Lens lens);
    graph::Lens lens() const { return m_lens; }
    /// The legend's entries, "category (count)", most common first.
    QStringList legend() const;
    void setNeighbourDepth(int depth);

    // Export of what is visible.
    bool exportSvg(const QString& path, QString* error) const;
    bool exportPng(const QString& path, QString* error) const;

public slots:
    void zoomIn();
    void zoomOut();
    void zoomToFit();
    void zoomReset();
    void findNext();
    void findPrevious();
    /// Puts the focus in the search box, its text selected.
    void focusSearch();
    void expandAll();
    void collapseAll();
    void exportInteractive();

signals:
    /// The selection changed, by a click or by selectNodes().
    void nodesSelected(const QList<int>& nodes);
    /// The scene shows the graph of the last request (setGraph, expand, collapse, ...).
    void graphShown();

private:
    void startLayout(std::unique_ptr<graph::CollapseState> state, int anchorNode, QPointF anchorView);
    void adopt(GraphLayoutJob& job, int anchorNode, QPointF anchorView);
    void buildScene();
    void applyLens();
    void applyPendingSelection();
    void relayoutTo(std::unique_ptr<graph::CollapseState> state, int anchorNode);
    void onSelectionChanged();
    void onItemActivated(QGraphicsItem* item);
    void onContextMenu(QGraphicsItem* item, const QPoint& globalPos);
    void showDetails(const QList<int>& nodes, const QList<int>& modules);
    void showMatch();
    void fillModuleTree();
    void syncModuleTree();
    void onModuleTreeChanged(QTreeWidgetItem* item, int column);
    QList<int> selectedModules() const;
    void updateSummary();

    std::shared_ptr<const graph::GraphModel> m_graph;
    std::shared_ptr<const graph::ModuleTree> m_tree;
    std::unique_ptr<graph::CollapseState> m_state;      ///< what is shown
    std::unique_ptr<graph::CollapseState> m_requested;  ///< the newest request, while it is laid out
    const graph::CollapseState& latestState() const { return m_requested ? *m_requested : *m_state; }
    std::shared_ptr<const graph::VisibleGraph> m_visible;
    std::unique_ptr<graph::LayoutResult> m_layout;
    std::shared_ptr<graph::LayoutCache> m_cache;
    std::vector<GraphBoxItem*> m_items;  ///< per visible item
    EdgesItem* m_edges = nullptr;
    QGraphicsScene* m_scene;
    GraphCanvas* m_canvas;
    GraphMinimap* m_minimap;
    QStackedWidget* m_stack;
    QLabel* m_message;
    QLabel* m_summary;
    QLabel* m_legend;
    QLineEdit* m_search;
    QComboBox* m_searchField;
    QLabel* m_matchLabel;
    QComboBox* m_lensBox;
    QSpinBox* m_depthBox;
    QTreeWidget* m_modules;
    std::vector<QTreeWidgetItem*> m_moduleItems;  ///< per module id
    QTextBrowser* m_details;
    graph::Lens m_lens = graph::Lens::Kind;
    int m_depth = 1;
    std::vector<int> m_matches;
    int m_matchIndex = -1;
    QList<int> m_pendingSelection;  ///< nodes to select once the pending layout is shown
    bool m_pendingReveal = false;
    quint64 m_generation = 0;
    bool m_pending = false;
    bool m_selecting = false;
    bool m_syncingTree = false;
    QStringList m_legendEntries;
};

}  // namespace ps::ui
