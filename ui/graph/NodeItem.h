#pragma once

#include "ui/graph/GraphBoxItem.h"

#include <QString>

namespace ps::graph {
struct GraphNode;
}

namespace ps::ui {

/// One graph node's box: its name (or a placeholder's qualified name), op and shape, and a
/// badge saying what a placeholder is (parameter, buffer, input) or what an output is (result,
/// gradient). Holds a pointer into the GraphModel that GraphView keeps alive for as long as the
/// scene shows it. Backward nodes have a dashed border.
class NodeItem : public GraphBoxItem {
public:
    enum { Type = UserType + 1 };

    NodeItem(int item, int node, const graph::GraphNode* data, const QRectF& rect, const Colors& colors);

    int node() const { return m_node; }
    const graph::GraphNode* data() const { return m_data; }
    const QString& badge() const { return m_badge; }

    int type() const override { return Type; }

protected:
    void paintLabels(QPainter* painter, const QRectF& inner) override;
    QString shortTitle() const override;
    bool dashed() const override;

private:
    int m_node;
    const graph::GraphNode* m_data;
    QString m_badge;
};

}  // namespace ps::ui
