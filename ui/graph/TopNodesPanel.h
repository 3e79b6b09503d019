#pragma once

#include "graph/GraphLens.h"

#include <QWidget>

class QLabel;
class QTableWidget;

namespace ps::graph {
class GraphModel;
class MeasuredLens;
}  // namespace ps::graph

namespace ps::ui {

/// "Top nodes" beside the graph ([overlays]): under a numeric lens, the nodes with a value, the
/// largest first (node, value in its unit, module, source line); any column sorts by a click on
/// its header; clicking a row selects that node in the graph (nodeActivated), and so its source
/// line and kernel as a selection in the graph does.
class TopNodesPanel : public QWidget {
    Q_OBJECT
public:
    /// Rows shown at most (the largest values).
    static constexpr int kMaxRows = 500;

    explicit TopNodesPanel(QWidget* parent = nullptr);

    /// The nodes of `values` on `graph`; `note` is a line above the table (the memory's peak).
    void show(const graph::GraphModel& graph, const graph::MeasuredLens& values, const QString& note);
    void clear();
    QTableWidget* table() const { return m_table; }
    /// The graph node of a row as the table is sorted now (-1: none).
    int nodeAt(int row) const;

signals:
    void nodeActivated(int node);

private:
    QLabel* m_note;
    QTableWidget* m_table;
};

}  // namespace ps::ui
