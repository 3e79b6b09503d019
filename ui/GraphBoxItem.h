#pragma once

#include <QColor>
#include <QGraphicsItem>

namespace ps::ui {

/// What a node box and a module box share: a rectangle in the scene, its colours, and how it
/// is marked as related to the selection. Below half size a box draws as a plain
/// rectangle (no text, no antialiasing), so a zoomed-out view of thousands stays cheap.
class GraphBoxItem : public QGraphicsItem {
public:
    struct Colors {
        QColor fill;
        QColor border;
        QColor text;
        QColor highlight;
        QColor upstream;    ///< border of what the selection reads from
        QColor downstream;  ///< border of what the selection feeds
    };
    enum class Relation { None, Upstream, Downstream };

    GraphBoxItem(int item, const QRectF& rect, const Colors& colors);

    /// The index of the VisibleGraph item this box shows.
    int item() const { return m_item; }
    const QRectF& rect() const { return m_rect; }
    void setColors(const Colors& colors);
    void setRelation(Relation relation);
    Relation relation() const { return m_relation; }

    QRectF boundingRect() const override;
    QPainterPath shape() const override;
    void paint(QPainter* painter, const QStyleOptionGraphicsItem* option, QWidget* widget) final;

protected:
    /// Draws the labels inside `inner` (the box less its padding), only when zoomed in enough.
    virtual void paintLabels(QPainter* painter, const QRectF& inner) = 0;
    /// The box's outline; a module box draws a stacked look.
    virtual void paintFrame(QPainter* painter, const QPen& pen);
    virtual bool dashed() const { return false; }
    const Colors& colors() const { return m_colors; }

private:
    int m_item;
    QRectF m_rect;
    Colors m_colors;
    Relation m_relation = Relation::None;
};

}  // namespace ps::ui
