#pragma once

#include "graph/GraphLens.h"

#include <QList>
#include <QWidget>

class QLabel;
class QTableWidget;

namespace ps::graph {
class GraphModel;
class MeasuredLens;
}  // namespace ps::graph

namespace ps::ui {

/// "Top nodes" beside the graph ([overlays]): under a numeric lens, the nodes with a value, the
/// largest first (node, value in its unit, module, source line); under Time, the kernels instead,
/// the slowest first (kernel, time, the nodes it computes, their module, a source line), since a
/// fused kernel's time belongs to its group, not to each node. Any column sorts by a click on its
/// header; clicking a row selects its node or the kernel's nodes in the graph (nodesActivated).
class TopNodesPanel : public QWidget {
    Q_OBJECT
public:
    /// Rows shown at most (the largest values).
    static constexpr int kMaxRows = 500;
    /// The widest the name column opens (a long kernel name is cut in the middle).
    static constexpr int kNameWidth = 220;

    explicit TopNodesPanel(QWidget* parent = nullptr);

    /// The nodes of `values` on `graph`; `note` is a line above the table (the memory's peak).
    void show(const graph::GraphModel& graph, const graph::MeasuredLens& values, const QString& note);
    void clear();
    QTableWidget* table() const { return m_table; }
    /// The graph node of a row as the table is sorted now (-1: none); a kernel's row: its first.
    int nodeAt(int row) const;
    /// The graph nodes of a row: a node's own, or every node of a kernel's group.
    QList<int> nodesAt(int row) const;
    /// True while the rows are kernels (the time lens).
    bool showsKernels() const { return m_kernels; }

signals:
    void nodesActivated(const QList<int>& nodes);

protected:
    void resizeEvent(QResizeEvent* event) override;

private:
    /// The name column no wider than leaves the value in view (and kNameWidth at most).
    void fitNames();
    void showNodes(const graph::GraphModel& graph, const graph::MeasuredLens& values);
    void showKernels(const graph::GraphModel& graph, const graph::MeasuredLens& values);

    QLabel* m_title;
    QLabel* m_note;
    QTableWidget* m_table;
    bool m_kernels = false;
    int m_nameWidth = 0;  ///< the name column's width for its contents, measured once per show()
};

}  // namespace ps::ui
