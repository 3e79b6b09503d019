#pragma once

#include <QColor>
#include <QFontMetricsF>
#include <QGraphicsItem>
#include <QString>

class QPaintDevice;

namespace ps::ui {

/// What a node box and a module box share: a rectangle in the scene, its colours, and how it
/// is marked as related to the selection.
///
/// Semantic zoom: a box's label is never drawn smaller than kMinTextPx on screen. While the
/// view's font at the zoom is at least that, the box draws in full (frame, every line of its
/// label). Zoomed out below that, it draws as a plain rectangle with only its title, in
/// kTitlePx on screen, elided to the box, as long as the box is tall enough on screen to hold
/// it; smaller still, a plain rectangle (ModuleRegionsItem then names the modules around the
/// boxes), so a zoomed-out view of thousands stays cheap. Where the title does not fit in the
/// box (elided, or the box too short on screen) and the scene has free room to its right
/// (setRoomBeside: a narrow chain fitted to a short canvas has plenty), the whole title is
/// drawn beside the box instead, at kTitlePx: a fitted chain of modules reads, box by box.
class GraphBoxItem : public QGraphicsItem {
public:
    /// A dotted path cut to `width`: whole when it fits, else cut in the middle keeping the
    /// root and the last two parts ("model…bn2.weight"), then the last two ("…bn2.weight").
    static QString elidedPath(const QString& path, const QFontMetricsF& fm, qreal width);
    struct Colors {
        QColor fill;
        QColor border;
        QColor text;
        QColor highlight;
        QColor upstream;    ///< border of what the selection reads from
        QColor downstream;  ///< border of what the selection feeds
    };
    enum class Relation { None, Upstream, Downstream };
    enum class Detail { Full, Title, Plain };

    /// The smallest text drawn on a box, in pixels on screen.
    static constexpr qreal kMinTextPx = 8;
    /// The title's size, on screen, when the zoom is too small for the full label.
    static constexpr qreal kTitlePx = 9;
    /// A box shows its title only when it is at least this tall on screen.
    static constexpr qreal kTitleBoxPx = 13;
    /// A title goes beside its box only where at least this much room is free on screen.
    static constexpr qreal kBesideMinPx = 4 * kTitlePx;

    GraphBoxItem(int item, const QRectF& rect, const Colors& colors);

    /// The index of the VisibleGraph item this box shows.
    int item() const { return m_item; }
    const QRectF& rect() const { return m_rect; }
    void setColors(const Colors& colors);
    void setRelation(Relation relation);
    Relation relation() const { return m_relation; }
    /// Marked as where a violation is: a thick frame in the error colour, kept while selected
    /// elsewhere (GraphView::setMarkedNodes).
    void setMarked(bool marked);
    bool marked() const { return m_marked; }
    QColor fill() const { return m_colors.fill; }

    /// How a box `boxHeight` tall (scene units) draws at zoom `lod` with a font of `fontPx`.
    static Detail detailAt(qreal lod, qreal fontPx, qreal boxHeight);
    /// The size, in pixels on screen, of this box's title at zoom `lod` with a font of
    /// `fontPx`: 0 when it draws no text.
    qreal titlePixelsAt(qreal lod, qreal fontPx) const;
    /// Free scene room to the right of the box (to the next box of its row, or the scene's
    /// edge) and the height free around its middle (its row's pitch): where a title too long
    /// for the box is drawn beside it.
    void setRoomBeside(qreal right, qreal clearance);
    /// Whether, at zoom `lod` with a font of `fontPx`, the title is drawn beside the box.
    bool titleBesideAt(qreal lod, qreal fontPx) const;
    /// Where the title beside the box is drawn at zoom `lod` with a font of `fontPx`, in the
    /// scene: the whole title's line, up to the room beside the box; empty when it is not beside.
    QRectF titleBesideRectAt(qreal lod, qreal fontPx) const;
    /// `font`'s size in pixels on `device` (the canvas's viewport).
    static qreal fontPixels(const QFont& font, const QPaintDevice* device);

    QRectF boundingRect() const override;
    QPainterPath shape() const override;
    void paint(QPainter* painter, const QStyleOptionGraphicsItem* option, QWidget* widget) final;

protected:
    /// Draws the labels inside `inner` (the box less its padding), only when zoomed in enough.
    virtual void paintLabels(QPainter* painter, const QRectF& inner) = 0;
    /// The one line a box keeps when zoomed out: its name.
    virtual QString shortTitle() const = 0;
    /// The box's outline; a module box draws a stacked look.
    virtual void paintFrame(QPainter* painter, const QPen& pen);
    virtual bool dashed() const { return false; }
    const Colors& colors() const { return m_colors; }

private:
    void paintTitle(QPainter* painter, qreal lod, qreal fontPx, bool beside);
    /// The bold title font that is kTitlePx on screen at zoom `lod`.
    static QFont titleFont(const QFont& base, qreal lod, qreal fontPx);

    int m_item;
    QRectF m_rect;
    Colors m_colors;
    Relation m_relation = Relation::None;
    bool m_marked = false;
    // The title as last elided, and for which zoom: zooming re-elides, panning does not.
    QString m_elided;
    qreal m_elidedLod = -1;
    bool m_elidedBeside = false;
    QColor m_besideText;  ///< the canvas's text colour, for a title beside the box
    // Whether the title fits in the box at the zoom last asked (titleBesideAt).
    mutable bool m_titleFits = true;
    mutable qreal m_fitsLod = -1;
    qreal m_roomRight = 0;  ///< scene units free to the right of the box
    qreal m_clearance = 0;  ///< scene units free around its middle, top to bottom
};

}  // namespace ps::ui
