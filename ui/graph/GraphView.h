#pragma once

#include "graph/CollapseState.h"
#include "graph/GraphLens.h"
#include "graph/GraphSearch.h"
#include "ui/graph/GraphMeasures.h"
#include "ui/graph/GraphSession.h"

#include <QColor>
#include <QList>
#include <QPointF>
#include <QWidget>

#include <map>
#include <memory>
#include <vector>

class QGraphicsItem;
class QLabel;
class QSplitter;
class QStackedWidget;

namespace ps::graph {
class GraphModel;
class LayoutCache;
class ModuleTree;
class VisibleGraph;
struct LayoutResult;
}  // namespace ps::graph

namespace ps::model {
struct Capture;
}

namespace ps::ui {

class GraphBoxItem;
class GraphCanvas;
class GraphExpansion;
class GraphMinimap;
class GraphScene;
class GraphSelection;
class GraphSidePanel;
class GraphToolBar;
class ModuleRegionsItem;
class TopNodesPanel;
class ModuleTreeModel;

/// The Graph tab. The graph is shown collapsed by module (engine/graph's ModuleTree): a
/// collapsed module is one box, double-click expands it; the module tree beside the canvas
/// expands and collapses too. Search by name, op, module, shape or source walks the matches (opening
/// what hides them); lenses colour the boxes; selecting a node highlights what it reads and
/// feeds, n levels deep; the arrow keys move the selection to an input, a user or a box beside
/// it; the details pane links every input, user, kernel and source line; a minimap shows where
/// the view is; the visible graph exports to SVG and PNG.
///
/// Space and zoom: the canvas takes the width; the module tree and the details are a side
/// panel shown on request. A graph opens fitted to the canvas, in the largest opening state
/// whose fitted labels are readable (GraphOpening); zoomed out further, boxes keep their titles
/// and then the expanded modules are drawn as named regions (GraphBoxItem, ModuleRegionsItem).
///
/// The widgets and their wiring live here; the graph, its collapse state and layouts in
/// GraphSession (layouts run on a pool thread, tagged with a generation number: see there),
/// the requests that expand and collapse modules in GraphExpansion, the selection, the arrow
/// keys and the search's matches in GraphSelection, the module tree in
/// ModuleTreeModel, the pane's text in GraphDetailsFormatter, the rows above the canvas in
/// GraphToolBar, the panel in GraphSidePanel.
class GraphView : public QWidget {
    Q_OBJECT
public:
    /// The most boxes shown when a graph opens (CollapseState::initial's budget; fewer when
    /// the canvas is too small to show them readable); the bench measures the layout of this
    /// opening view.
    static constexpr int kOpeningBudget = graph::CollapseState::kOpeningBudget;

    explicit GraphView(QWidget* parent = nullptr);
    ~GraphView() override;

    /// `capture`: what was measured on it (its kernel profile, the drift localised to its
    /// nodes) for the numeric lenses; null: memory only.
    void setGraph(std::shared_ptr<const graph::GraphModel> graph, const model::Capture* capture = nullptr);
    /// No graph: shows `message` instead.
    void clear(const QString& message);
    /// Where laid-out graphs are kept between sessions (null: nowhere).
    void setLayoutCache(std::shared_ptr<graph::LayoutCache> cache) { m_session->setLayoutCache(std::move(cache)); }

    const std::shared_ptr<const graph::GraphModel>& graph() const { return m_session->graph(); }
    const graph::ModuleTree* moduleTree() const { return m_session->tree().get(); }
    /// The name of the capture whose graph is shown ("" : none given).
    const QString& captureName() const { return m_captureName; }
    bool layoutPending() const { return m_session->pending(); }
    /// Graph nodes selected: a selected module box stands for every node in it.
    QList<int> selectedNodes() const;
    /// Selects these nodes (and nothing else). With `reveal`, first expands the modules hiding
    /// them and scrolls the first into view; without, a hidden node's module box is selected.
    void selectNodes(const QList<int>& nodes, bool reveal);
    /// Selects these nodes, opening the modules hiding them, and centres the first, readable.
    void goToNodes(const QList<int>& nodes);
    /// Scene position of the centre of the box showing a node (its module's when collapsed).
    QPointF nodeCenter(int node) const;
    GraphCanvas* canvas() const { return m_canvas; }
    GraphMinimap* minimap() const { return m_minimap; }
    /// The regions naming the expanded modules when zoomed out (null when nothing is shown).
    ModuleRegionsItem* regions() const;
    /// The module tree and details beside the canvas (hidden by default; the toolbar toggles it).
    void setSidePanelShown(bool shown);
    bool sidePanelShown() const;
    /// Without the panel (Compare's narrow panes): hides it and its toolbar toggle.
    void setSidePanelAvailable(bool available);
    /// How the next graph would open in this view as it is sized now.
    GraphOpening opening() const;
    QString detailsText() const;
    QString message() const;
    /// The module tree beside the canvas: a tick expands a module.
    ModuleTreeModel* moduleTreeModel() const { return m_moduleModel; }

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
    int matchCount() const;
    /// Index into the matches of the one shown, or -1.
    int currentMatch() const;
    int currentMatchNode() const;

    // Lenses and neighbourhoods.
    void setLens(graph::Lens lens);
    graph::Lens lens() const { return m_lens; }
    /// Why the graph shown has no data for a numeric lens ("" when it has).
    QString lensUnavailable(graph::Lens lens) const { return m_measures.unavailable(lens); }
    /// The source lens's scope: "" the innermost line of the user's code that made each node,
    /// else of that package's ("torchvision"). False when the graph's stacks have no such package.
    bool setSourceScope(const QString& scope);
    QString sourceScope() const { return QString::fromStdString(m_sourceScope); }
    /// The legend's entries, "category (count)", most common first (a numeric lens: its tooltip).
    QStringList legend() const;
    /// What the numeric lenses paint on the graph shown, and why one is off.
    const GraphMeasures& measures() const { return m_measures; }
    /// The "top nodes" table beside the canvas, shown under a numeric lens with data.
    TopNodesPanel* topNodes() const { return m_topNodes; }
    GraphToolBar* toolBar() const { return m_toolBar; }
    void setNeighbourDepth(int depth);

    // Marks and colours from the window (RunMarkers); a new graph drops both.
    /// Marks the boxes showing these nodes (a violation's) until other marks are set.
    void setMarkedNodes(const QList<int>& nodes);
    const QList<int>& markedNodes() const { return m_marked; }
    /// Fills node boxes with these colours instead of the lens's (a module box: the colour most
    /// of its nodes have); the legend is hidden meanwhile. Empty: the lens colours again.
    void setNodeFills(const std::map<int, QColor>& fills);
    /// The fill of the box showing a node now (invalid when none shows it).
    QColor boxFill(int node) const;

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
    /// The last request could not be laid out; what was shown stays.
    void layoutFailed();
    /// A module was expanded or collapsed by expandModule/collapseModule (the module tree, a
    /// double-click), or every module (`modulePath` empty) by expandAll/collapseAll.
    void expansionRequested(const QString& modulePath, bool expand);
    /// A source line in the details pane was clicked: `line` of `file` (1-based).
    void locationActivated(const QString& file, int line);
    /// A frame of a node's stack in the details pane was clicked (GraphSidePanel::frameActivated).
    void frameActivated(const QString& file, int line, const QString& code);
    /// A node's Make Repro From Here… (the graph's right-click menu): the smallest script
    /// reproducing capture `capture`'s drift, cut from `node`.
    void reproRequested(const QString& capture, const QString& node);

private:
    /// Shows the top nodes beside the canvas, or under it when the canvas would be narrower
    /// than kBesideMinCanvas.
    void placeTopNodes();
    void onLayoutShown(bool opened);
    void onLayoutFailed(const QString& why);
    void buildScene();
    void applyLens();
    /// The numeric lens's values of the selection, above its details.
    void showMeasured();
    void onExpandRequested(QGraphicsItem* item, bool expand);
    void onItemActivated(QGraphicsItem* item);
    void updateSummary();
    /// Whether there is a graph shown to export; else says so in `error` (when not null).
    bool exportable(QString* error) const;
    QString exportTitle() const;

    GraphSession* m_session;
    /// What the scene is drawn from: the session's, set by buildScene (null when nothing is).
    const graph::VisibleGraph* m_visible = nullptr;
    const graph::LayoutResult* m_layout = nullptr;
    ModuleTreeModel* m_moduleModel;
    GraphExpansion* m_expansion;
    GraphSelection* m_selection;
    GraphScene* m_scene;
    GraphCanvas* m_canvas;
    GraphMinimap* m_minimap;
    QStackedWidget* m_stack;
    QLabel* m_message;
    GraphToolBar* m_toolBar;
    GraphSidePanel* m_side;
    QSplitter* m_split;
    QSplitter* m_column;  ///< the canvas, and the top nodes under it when the view is narrow
    /// The canvas is kept at least this wide when the top nodes go beside it; else they go under.
    static constexpr int kBesideMinCanvas = 640;
    static constexpr int kTopNodesWidth = 340;  ///< the most the top nodes take beside the canvas
    graph::Lens m_lens = graph::Lens::Kind;
    std::string m_sourceScope;  ///< the source lens's: "" the user's code, else a package
    QList<int> m_marked;
    bool m_fitNext = false;  ///< fit once the requested layout is shown (Collapse all)
    std::map<int, QColor> m_nodeFills;
    GraphMeasures m_measures;
    TopNodesPanel* m_topNodes;
    QString m_captureName;  ///< the capture whose graph is shown
};

}  // namespace ps::ui
