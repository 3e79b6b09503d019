#pragma once

#include <QObject>
#include <QPointF>
#include <QString>

#include <functional>

class QGraphicsItem;

namespace ps::ui {

class GraphBoxItem;
class GraphCanvas;
class GraphSession;
class GraphSidePanel;

/// Expanding and collapsing the Graph tab's modules, for GraphView: turns a module (by path, or
/// by ModuleTree id as the module tree's ticks give it) into a GraphSession request, as do
/// Expand all and Collapse all; keeps the box of the module's first node where it was in the
/// viewport across the layout the request starts (anchorOn, restoreAnchor); and ticks the
/// module tree beside the canvas as the newest request says, before its layout is shown, so
/// that two quick clicks both show. Each request is announced (expansionRequested).
///
/// Threads: GUI thread. The layout a request starts runs on GraphSession's pool thread;
/// GraphView calls restoreAnchor() and syncTree() once it is shown, syncTree() when it failed.
///
/// Failure policy: a request before the first layout is shown, for a module the tree does not
/// have, or to collapse the root asks for nothing and announces nothing. A layout that fails
/// leaves what is shown and its state (GraphSession); syncTree() then ticks the tree back to it.
class GraphExpansion : public QObject {
    Q_OBJECT
public:
    /// The box showing a node now (its module's when collapsed), or null.
    using BoxOfNode = std::function<GraphBoxItem*(int node)>;

    /// The session, panel and canvas are GraphView's and outlive this object.
    GraphExpansion(
        GraphSession* session, GraphSidePanel* side, GraphCanvas* canvas, BoxOfNode boxOfNode, QObject* parent);

    /// Whether the module at `modulePath` ("" is the root) is expanded in what is shown.
    bool isExpanded(const QString& modulePath) const;
    /// Expands or collapses the module at `modulePath`, keeping its first node in place.
    void request(const QString& modulePath, bool expand);
    /// The same for ModuleTree id `module` (the root, 0, is never collapsed or expanded here).
    void requestModule(int module, bool expand);
    /// The keys' way to what a double-click does, and back, for the selected box: expand (Enter,
    /// Space, +) opens a collapsed module; collapse (-) closes the module around a node, or the
    /// parent of a collapsed module. Returns the node to select once the layout is shown (the
    /// module's first node, whose box is the module's when closed), or -1 when nothing changes.
    int requestForBox(QGraphicsItem* item, bool expand);
    /// Expands or collapses every module; the view is not anchored.
    void requestAll(bool expand);

    /// Remembers where `node`'s box is in the viewport, to keep it there after the next layout
    /// (restoreAnchor); -1 forgets it.
    void anchorOn(int node);
    /// Scrolls the canvas so that the anchored node's box is where it was before the layout.
    void restoreAnchor();
    /// Ticks the module tree as the newest request says and unfolds what it expands: every
    /// expanded module with `whole` (a new graph), else those whose tick changed.
    void syncTree(bool whole);

signals:
    /// A module was expanded or collapsed by request() or requestModule(), or every module
    /// (`modulePath` empty) by requestAll().
    void expansionRequested(const QString& modulePath, bool expand);

private:
    GraphSession* m_session;
    GraphSidePanel* m_side;
    GraphCanvas* m_canvas;
    BoxOfNode m_boxOfNode;
    int m_anchorNode = -1;
    QPointF m_anchorView;  ///< where the anchored node's box was in the viewport
};

}  // namespace ps::ui
