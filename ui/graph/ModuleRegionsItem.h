#pragma once

#include "ui/graph/BoxGrid.h"

#include <QColor>
#include <QFont>
#include <QGraphicsItem>
#include <QString>

#include <vector>

class QPaintDevice;

namespace ps::graph {
class GraphModel;
class ModuleTree;
class VisibleGraph;
struct NodeBox;
}  // namespace ps::graph

namespace ps::ui {

class GraphBoxItem;

/// The expanded modules as named regions, drawn only when the view is zoomed out so far that
/// the boxes draw without text (GraphBoxItem::Detail::Plain): each region is the rectangle
/// around the boxes the module holds, framed, its name in a label of the canvas's font size
/// whatever the zoom. Where regions nest, the innermost that can hold its label is named first.
/// A label (a header) covers no other, no box and no box's title drawn beside it (a fitted
/// chain's names): it goes at the region's top, inside its top-left corner where its whole name
/// fits there, else just outside the frame on the left or the right (the margin a fitted chain
/// leaves), else above it, else inside cut to the region's width, else it is left out. One item
/// for every region: a zoomed-out frame costs one pass over the regions, not an item each.
class ModuleRegionsItem : public QGraphicsItem {
public:
    enum { Type = UserType + 4 };

    struct Region {
        QRectF rect;      ///< in the scene
        QString label;    ///< ModuleLabel::title: "forward", "h.3 · Block", "gradients (117)"
        int parent = -1;  ///< index of the enclosing region, or -1; parents come before children
    };

    /// The regions of `visible`'s expanded modules (not the root) around the boxes of what they
    /// compute (their parameters and inputs, laid out at the top, left out).
    static std::vector<Region> build(const graph::GraphModel& graph, const graph::ModuleTree& tree,
        const graph::VisibleGraph& visible, const std::vector<graph::NodeBox>& boxes);

    /// The widest a header is drawn, in pixels; a longer name is cut at its end.
    static constexpr qreal kLabelMaxPx = 260;

    /// `boxHeight`: the boxes' height in the scene (they turn plain at the same zoom).
    ModuleRegionsItem(std::vector<Region> regions, qreal boxHeight, const QColor& frame, const QColor& text,
        const QColor& background);

    const std::vector<Region>& regions() const { return m_regions; }
    /// Whether the regions are drawn at zoom `lod` (the boxes draw without text).
    bool shownAt(qreal lod) const;
    /// A region named on screen: where its label goes (screen coordinates) and what it says.
    struct Label {
        int region = -1;
        QRectF chip;
        QString text;
    };
    /// The labels drawn with the scene mapped to the screen by `toScreen`, on the screen area
    /// `area` of `device` (null: 96 dpi), in `font` (drawn bold), in the order they are placed.
    /// Empty when !shownAt().
    std::vector<Label> labelsAt(
        const QTransform& toScreen, const QRectF& area, const QFont& font, const QPaintDevice* device = nullptr) const;

    /// The boxes a header must not cover (the scene's, indexed once: a zoomed-out frame asks
    /// about them several times per region). Without it, the scene is asked.
    void setBoxes(std::vector<const GraphBoxItem*> boxes);

    /// The canvas's zoom now: the item's bounds take in the room its headers may take outside
    /// the regions at that zoom (so that a repaint there draws them).
    void setZoom(qreal lod);

    int type() const override { return Type; }
    QRectF boundingRect() const override;
    /// Empty: clicks and itemAt() go to the boxes under the regions.
    QPainterPath shape() const override;
    void paint(QPainter* painter, const QStyleOptionGraphicsItem* option, QWidget* widget) override;

private:
    /// Whether `chip` (on the screen `toScreen` maps the scene to) covers the title of a box of
    /// the scene drawn beside it at zoom `lod` with a font of `fontPx`, or with `boxesToo` a box.
    bool covers(const QRectF& chip, const QTransform& toScreen, qreal lod, qreal fontPx, bool boxesToo) const;

    /// Region `region`'s label cut at its end to at most `width` pixels in `font`, with an
    /// ellipsis ("" when not even one character fits).
    QString cut(std::size_t region, const QFont& font, qreal width) const;

    std::vector<Region> m_regions;
    std::vector<const GraphBoxItem*> m_boxes;
    BoxGrid m_grid;  ///< their bounding rectangles
    // Per region, its label as last elided and for which width: zooming re-elides, panning not.
    mutable std::vector<QString> m_elided;
    mutable std::vector<qreal> m_elidedWidth;
    mutable std::vector<QString> m_whole;     ///< per region, its name cut at kLabelMaxPx ("" until drawn)
    mutable std::vector<qreal> m_wholeWidth;  ///< and its chip's width
    mutable std::vector<std::vector<qreal>>
        m_cursorX;               ///< per region, x of each cursor position (-1: none; {kCutByQt}: a name Qt cuts)
    mutable QFont m_measuredIn;  ///< the font m_whole and m_elided were measured in
    QRectF m_bounds;
    qreal m_room = 0;  ///< the headers' room outside the regions, in the scene
    qreal m_boxHeight;
    QColor m_frame;
    QColor m_text;
    QColor m_background;
};

}  // namespace ps::ui
