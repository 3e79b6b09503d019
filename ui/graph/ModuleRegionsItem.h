#pragma once

#include "ui/graph/BoxGrid.h"

#include <QColor>
#include <QFont>
#include <QGraphicsItem>
#include <QStaticText>
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
    /// Whether the boxes are drawn as themselves (not in the overview's picture, where a box is
    /// a speck the headers may cover, as they always have).
    void setBoxesDrawn(bool drawn) { m_boxesDrawn = drawn; }

    /// The canvas's zoom now: the item's bounds take in the room its headers may take outside
    /// the regions at that zoom (so that a repaint there draws them).
    void setZoom(qreal lod);

    int type() const override { return Type; }
    QRectF boundingRect() const override;
    /// Empty: clicks and itemAt() go to the boxes under the regions.
    QPainterPath shape() const override;
    void paint(QPainter* painter, const QStyleOptionGraphicsItem* option, QWidget* widget) override;

private:
    /// Whether a chip (`inScene`: its place in the scene) covers a box of the scene or the title
    /// of one drawn beside it at zoom `lod` with a font of `fontPx`.
    bool covers(const QRectF& inScene, qreal lod, qreal fontPx) const;

    /// Region `region`'s label cut at its end to at most `width` pixels in `font`, with an
    /// ellipsis ("" when not even one character fits); its width in `*textWidth`, from the
    /// positions measured once (no text shaped on a zoom).
    QString cut(std::size_t region, const QFont& font, qreal width, qreal* textWidth) const;

    std::vector<Region> m_regions;
    std::vector<const GraphBoxItem*> m_boxes;
    bool m_boxesDrawn = true;
    BoxGrid m_grid;  ///< their bounding rectangles
    /// A region's label as measured and shaped, in m_measuredIn: a zoom asks for every header
    /// on every frame, and shaping text was most of a zoomed-out frame of the 50k-node graph.
    struct Measured {
        QString whole;                      ///< the name cut at kLabelMaxPx ("" until drawn)
        qreal wholeWidth = 0;               ///< its chip's width
        QString elided;                     ///< the name as last cut to a region's width
        qreal elidedFor = -1;               ///< that width: zooming cuts again, panning not
        qreal elidedWidth = 0;              ///< its chip's width
        std::vector<qreal> cursorX;         ///< x of each cursor position (-1: none; {kCutByQt}: a name Qt cuts)
        QStaticText wholeText, elidedText;  ///< shaped for drawing
    };
    mutable std::vector<Measured> m_measured;
    mutable QFont m_measuredIn;
    mutable qreal m_minWidth = 0;       ///< in m_measuredIn: a header's least width
    mutable qreal m_ellipsisWidth = 0;  ///< and the ellipsis's
    QRectF m_bounds;
    qreal m_room = 0;  ///< the headers' room outside the regions, in the scene
    qreal m_boxHeight;
    QColor m_frame;
    QColor m_text;
    QColor m_background;
};

}  // namespace ps::ui
