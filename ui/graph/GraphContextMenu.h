#pragma once

class QGraphicsItem;
class QPoint;

namespace ps::ui {

class GraphView;

/// The Graph tab's right-click menu: expand the module box clicked, collapse the module the
/// box sits in or any above it, expand or collapse all, export. Calls GraphView's public API.
class GraphContextMenu {
public:
    /// Shows the menu for `item` (null: the background) at `globalPos` and does what is chosen.
    static void exec(GraphView& view, QGraphicsItem* item, const QPoint& globalPos);
};

}  // namespace ps::ui
