#pragma once

#include "graph/GraphSearch.h"
#include "ui/graph/GraphNavigator.h"

#include <QList>
#include <QObject>
#include <QString>

#include <functional>

namespace ps::graph {
class VisibleGraph;
struct LayoutResult;
}  // namespace ps::graph

namespace ps::ui {

class GraphBoxItem;
class GraphCanvas;
class GraphExpansion;
class GraphScene;
class GraphSession;
class GraphSidePanel;
class GraphToolBar;

/// The Graph tab's selection and search, the part of GraphView that follows the user's eye:
/// selecting nodes (revealing what hides them), what the selection reads from and feeds
/// (marked `depth` levels deep, its edges highlighted, its details in the side panel), the
/// arrow keys walking from box to box (GraphNavigator), and the search's matches, each selected
/// and shown readable, centred. Holds no widget of its own: it works GraphView's parts, which
/// outlive it. GUI thread.
class GraphSelection : public QObject {
    Q_OBJECT
public:
    /// GraphView's parts this works on.
    struct Parts {
        GraphSession* session = nullptr;
        GraphScene* scene = nullptr;
        GraphCanvas* canvas = nullptr;
        GraphToolBar* toolBar = nullptr;
        GraphSidePanel* side = nullptr;
        GraphExpansion* expansion = nullptr;
    };
    /// `boxOfNode`: the box showing a node now (its module's when collapsed), or null.
    GraphSelection(const Parts& parts, std::function<GraphBoxItem*(int)> boxOfNode, QObject* parent = nullptr);

    /// While one lives, the scene's selection changes are the view's own (the scene rebuilt or
    /// cleared), not the user's: nothing is marked, highlighted or said.
    class Quiet {
    public:
        explicit Quiet(GraphSelection* selection) : m_selection(selection) { m_selection->m_selecting = true; }
        ~Quiet() { m_selection->m_selecting = false; }
        Quiet(const Quiet&) = delete;
        Quiet& operator=(const Quiet&) = delete;

    private:
        GraphSelection* m_selection;
    };

    /// What the scene is drawn from now (null: nothing); the arrow keys start afresh.
    void setShown(const graph::VisibleGraph* visible, const graph::LayoutResult* layout);

    /// Graph nodes selected: a selected module box stands for every node in it.
    QList<int> selectedNodes() const;
    /// Selects these nodes (and nothing else). With `reveal`, first expands the modules hiding
    /// them and scrolls the first into view; without, a hidden node's module box is selected.
    void selectNodes(const QList<int>& nodes, bool reveal);
    /// Once a layout is shown: the selection asked for while it was on its way.
    void applyPendingSelection();
    /// Once a layout is shown (and fitted, where asked): goes to the match it opened.
    void goToSelectionIfAsked();
    /// Centres the selection, at 1:1 when the zoom is too small to read it.
    void goToSelection();
    /// Selects these nodes (opening the modules hiding them) and centres the first, readable.
    void goToNodes(const QList<int>& nodes);
    /// How many levels of what the selection reads and feeds are marked.
    void setNeighbourDepth(int depth);

    // Search.
    void setSearch(const QString& text, graph::SearchField field);
    void findNext();
    void findPrevious();

signals:
    /// The selection changed, by a click or by selectNodes().
    void nodesSelected(const QList<int>& nodes);

private:
    void onSelectionChanged();
    void onStep(GraphNavigator::Step step);
    /// Selects one box, as a click does, and scrolls it into view.
    void selectItem(int item);
    /// The selected box the arrow keys move from, or -1.
    int currentItem() const;

    Parts m_parts;
    std::function<GraphBoxItem*(int)> m_boxOfNode;
    /// What the scene is drawn from (null when nothing is).
    const graph::VisibleGraph* m_visible = nullptr;
    GraphNavigator m_navigator;
    int m_current = -1;  ///< the box the arrow keys last moved to
    int m_depth = 1;
    bool m_selecting = false;
    bool m_stepping = false;
    bool m_goToSelection = false;  ///< go to the selection once the requested layout is shown
};

}  // namespace ps::ui
