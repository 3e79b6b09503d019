#pragma once

#include <QColor>
#include <QGraphicsItem>

namespace ps::ui {

struct GraphNode;

/// One node box of the graph scene. Holds a pointer into the GraphModel that GraphView keeps
/// alive for as long as the scene shows it. Below a zoom of about a third it draws a plain box
/// (no text, no antialiasing): a zoomed-out view of thousands of nodes stays cheap.
class NodeItem : public QGraphicsItem {
public:
    enum { Type = UserType + 1 };

    struct Colors {
        QColor fill;
        QColor border;
        QColor text;
        QColor highlight;
    };

    NodeItem(int index, const GraphNode* node, const QRectF& rect, const Colors& colors);

    int index() const { return m_index; }
    const GraphNode* node() const { return m_node; }
    /// Drawn with a second border: an input or a user of the selected nodes.
    void setRelated(bool related);

    int type() const override { return Type; }
    QRectF boundingRect() const override;
    QPainterPath shape() const override;
    void paint(QPainter* painter, const QStyleOptionGraphicsItem* option, QWidget* widget) override;

private:
    int m_index;
    const GraphNode* m_node;
    QRectF m_rect;
    Colors m_colors;
    bool m_related = false;
};

} // namespace ps::ui
