#include "ui/graph/ModuleRegionsItem.h"

#include "graph/GraphModel.h"
#include "graph/LayeredLayout.h"
#include "graph/ModuleRegions.h"
#include "graph/ModuleTree.h"
#include "graph/VisibleGraph.h"
#include "ui/graph/GraphBoxItem.h"
#include "ui/graph/ModuleLabel.h"

#include <QFontMetricsF>
#include <QGraphicsScene>
#include <QPaintDevice>
#include <QPainter>
#include <QPainterPath>
#include <QStyleOptionGraphicsItem>
#include <QTextLayout>
#include <QWidget>

#include <algorithm>
#include <cmath>
#include <unordered_map>

namespace ps::ui {

namespace {

constexpr qreal kCutByQt = -2;  // Measured::cursorX of a name whose positions do not grow

/// Screen cells of 64 px holding the labels placed so far: a new label is checked against
/// the labels near it only.
class LabelGrid {
public:
    bool overlaps(const QRectF& r) const
    {
        for (int cx = cell(r.left()); cx <= cell(r.right()); ++cx)
            for (int cy = cell(r.top()); cy <= cell(r.bottom()); ++cy)
                if (auto it = m_cells.find(key(cx, cy)); it != m_cells.end())
                    for (const QRectF& o : it->second)
                        if (o.intersects(r))
                            return true;
        return false;
    }
    void add(const QRectF& r)
    {
        for (int cx = cell(r.left()); cx <= cell(r.right()); ++cx)
            for (int cy = cell(r.top()); cy <= cell(r.bottom()); ++cy)
                m_cells[key(cx, cy)].push_back(r);
    }

private:
    static int cell(qreal v) { return static_cast<int>(std::floor(v / 64)); }
    static long long key(int x, int y) { return (static_cast<long long>(x) << 32) ^ static_cast<unsigned>(y); }
    std::unordered_map<long long, std::vector<QRectF>> m_cells;
};

}  // namespace

std::vector<ModuleRegionsItem::Region> ModuleRegionsItem::build(const graph::GraphModel& graph,
    const graph::ModuleTree& tree, const graph::VisibleGraph& visible, const std::vector<graph::NodeBox>& boxes)
{
    std::vector<Region> out;
    for (const auto& r : graph::ModuleRegions::build(graph, tree, visible, boxes))
        out.push_back({QRectF(r.x, r.y, r.w, r.h), ModuleLabel::title(tree, r.module), r.parent});
    return out;
}

ModuleRegionsItem::ModuleRegionsItem(
    std::vector<Region> regions, qreal boxHeight, const QColor& frame, const QColor& text, const QColor& background)
    : m_regions(std::move(regions)), m_boxHeight(boxHeight), m_frame(frame), m_text(text), m_background(background)
{
    for (const auto& r : m_regions)
        m_bounds = m_bounds.united(r.rect);
    m_measured.resize(m_regions.size());
    setZValue(3);  // above the boxes and the edges: the labels name what is below them
    setAcceptedMouseButtons(Qt::NoButton);
    setAcceptHoverEvents(false);
}

QRectF ModuleRegionsItem::boundingRect() const
{
    return m_bounds.adjusted(-m_room, -m_room, m_room, 0);
}

void ModuleRegionsItem::setZoom(qreal lod)
{
    // The room only grows while the regions are shown, and then to twice what this zoom needs:
    // a geometry change makes Qt walk every item of the scene, and a wheel would otherwise cause
    // one on every step (a fifth of a zoomed-out frame of the 50k-node graph).
    const qreal needed = shownAt(lod) && lod > 0 ? (kLabelMaxPx + 8) / lod : 0;
    const qreal room = needed == 0 ? 0 : needed <= m_room ? m_room : 2 * needed;
    if (room == m_room)
        return;
    prepareGeometryChange();
    m_room = room;
}

void ModuleRegionsItem::setBoxes(std::vector<const GraphBoxItem*> boxes)
{
    std::vector<QRectF> bounds;
    bounds.reserve(boxes.size());
    for (const GraphBoxItem* b : boxes)
        bounds.push_back(b->sceneBoundingRect());
    m_boxes = std::move(boxes);
    m_grid = BoxGrid(std::move(bounds));
}

QPainterPath ModuleRegionsItem::shape() const
{
    return {};
}

bool ModuleRegionsItem::shownAt(qreal lod) const
{
    return m_boxHeight * lod < GraphBoxItem::kTitleBoxPx;
}

bool ModuleRegionsItem::covers(const QRectF& inScene, qreal lod, qreal fontPx) const
{
    if (!scene() || !m_boxesDrawn)
        return false;  // in the overview's picture a box is a speck a header may cover
    // In the scene's coordinates: the view neither turns nor shears, so a chip meets a box on the
    // screen exactly when their scene rectangles meet (no mapping of every box near it per frame).
    // A box's bounding rectangle holds the room beside it: the boxes that may draw a title here.
    auto hits = [&](const GraphBoxItem* box) {
        if (!box->isVisible())
            return false;
        if (box->rect().intersects(inScene))
            return true;
        const QRectF title = box->titleBesideRectAt(lod, fontPx);
        return !title.isEmpty() && title.intersects(inScene);
    };
    if (!m_boxes.empty())
        return m_grid.anyNear(inScene, [&](int i) { return hits(m_boxes[static_cast<std::size_t>(i)]); });
    for (auto* item : scene()->items(inScene, Qt::IntersectsItemBoundingRect, Qt::AscendingOrder))
        if (const auto* box = dynamic_cast<const GraphBoxItem*>(item); box && hits(box))
            return true;
    return false;
}

QString ModuleRegionsItem::cut(std::size_t region, const QFont& font, qreal width, qreal* textWidth) const
{
    // The label shaped once (a zoom asks for a new width on every frame): where each cursor
    // position lies, then the longest start that leaves room for the ellipsis.
    auto& at = m_measured[region].cursorX;
    const QString& label = m_regions[region].label;
    if (at.empty()) {
        QTextLayout layout(label, font);
        QTextOption option(Qt::AlignLeft | Qt::AlignAbsolute);
        option.setTextDirection(Qt::LeftToRight);
        layout.setTextOption(option);
        layout.beginLayout();
        QTextLine line = layout.createLine();
        line.setLineWidth(1e9);
        layout.endLayout();
        at.assign(static_cast<std::size_t>(label.size()) + 1, -1);
        const qreal origin = line.cursorToX(0);
        for (int k = 0; k <= label.size(); ++k)
            if (layout.isValidCursorPosition(k))
                at[static_cast<std::size_t>(k)] = line.cursorToX(k) - origin;
        // Right-to-left runs do not grow with the position: such a name is cut as Qt cuts it.
        for (std::size_t k = 1; k < at.size(); ++k)
            if (at[k] >= 0 && at[k] < at[k - 1]) {
                at = {kCutByQt};
                break;
            }
    }
    if (at.front() == kCutByQt) {
        const QFontMetricsF fm(font);
        QString text = fm.elidedText(label, Qt::ElideRight, width);
        *textWidth = fm.horizontalAdvance(text);
        return text;
    }
    if (at.back() <= width) {
        *textWidth = at.back();
        return label;
    }
    const qreal room = width - m_ellipsisWidth;
    for (auto k = static_cast<qsizetype>(label.size()) - 1; k > 0; --k)
        if (at[static_cast<std::size_t>(k)] >= 0 && at[static_cast<std::size_t>(k)] <= room) {
            *textWidth = at[static_cast<std::size_t>(k)] + m_ellipsisWidth;
            return label.left(k) + QChar(0x2026);
        }
    *textWidth = 0;
    return {};
}

std::vector<ModuleRegionsItem::Label> ModuleRegionsItem::labelsAt(
    const QTransform& toScreen, const QRectF& area, const QFont& font, const QPaintDevice* device) const
{
    std::vector<Label> out;
    const qreal lod = std::sqrt(std::abs(toScreen.determinant()));
    if (!shownAt(lod))
        return out;
    const qreal fontPx = GraphBoxItem::fontPixels(font, device);
    QFont bold = font;
    bold.setBold(true);
    const QFontMetricsF fm(bold);
    if (bold != m_measuredIn) {  // what was measured in another font is measured again
        std::fill(m_measured.begin(), m_measured.end(), Measured());
        m_measuredIn = bold;
        m_minWidth = fm.horizontalAdvance(QStringLiteral("mmmm")) + 8;
        m_ellipsisWidth = fm.horizontalAdvance(QChar(0x2026));
    }
    const qreal chipHeight = std::ceil(fm.height()) + 4;
    const qreal minWidth = m_minWidth;  // a region narrower goes unnamed
    // Where a header may go: along an axis the scene fits in the viewport, the viewport (the view
    // cannot scroll that way); along one it does not, the scene. Never where a scroll is.
    QRectF room = area;
    if (scene()) {
        const QRectF sceneOnScreen = toScreen.mapRect(scene()->sceneRect());
        if (sceneOnScreen.width() > area.width() + 1)
            room.setLeft(sceneOnScreen.left()), room.setRight(sceneOnScreen.right());
        if (sceneOnScreen.height() > area.height() + 1)
            room.setTop(sceneOnScreen.top()), room.setBottom(sceneOnScreen.bottom());
    }
    const QTransform toScene = toScreen.inverted();
    LabelGrid placed;
    // Innermost first: children come after their parents.
    for (int i = static_cast<int>(m_regions.size()) - 1; i >= 0; --i) {
        const QRectF& rect = m_regions[static_cast<std::size_t>(i)].rect;
        if (rect.height() * lod < chipHeight + 4 || rect.width() * lod < minWidth)
            continue;  // too small to name, known without mapping it (thousands are, zoomed out)
        const QRectF screen = toScreen.mapRect(rect);
        if (screen.height() < chipHeight + 4 || screen.width() < minWidth
            || !screen.adjusted(-kLabelMaxPx - 4, -chipHeight - 4, kLabelMaxPx + 4, 0).intersects(area))
            continue;
        // The whole name wherever there is room for it (up to kLabelMaxPx), else cut at its end:
        // the name leads, the type follows. Both measured once, not on every frame (shaping the
        // text was most of a zoomed-out frame of the 50k-node graph).
        const auto r = static_cast<std::size_t>(i);
        Measured& m = m_measured[r];
        if (m.whole.isEmpty()) {
            // From the same cursor positions a cut takes: the name shaped once, not three times.
            qreal textWidth = 0;
            m.whole = cut(r, bold, kLabelMaxPx - 8, &textWidth);
            m.wholeWidth = textWidth + 8;
        }
        const QString& whole = m.whole;
        const qreal wholeWidth = m.wholeWidth;
        // A header never covers a box, a box's title or another header. Its places, in order, all
        // at the region's top: inside its top-left corner when the whole name fits there; just
        // outside its frame on the left, then on the right (the margin a fitted chain leaves);
        // above it; inside again, cut to the region's width. Where the viewport is does not
        // choose the place (a label moved by a scroll would leave its old pixels behind), only
        // whether it is drawn.
        auto free = [&](const QRectF& chip) {
            return room.contains(chip) && !placed.overlaps(chip.adjusted(-1, -1, 1, 1))
                && !covers(toScene.mapRect(chip), lod, fontPx);
        };
        auto place = [&](const QRectF& chip, const QString& text) {
            if (!free(chip))
                return false;
            placed.add(chip);
            if (chip.intersects(area))
                out.push_back({i, chip, text});
            return true;
        };
        // Inside, a chip is the whole name or one cut with an ellipsis: where the narrower of those
        // is refused (by a box, a title, a header), so is either there. Asked once, it spares the
        // two tries and the cut on every frame for each region of a crowded graph.
        const bool inside
            = free(QRectF(screen.left() + 2, screen.top() + 2, std::min(wholeWidth, m_ellipsisWidth + 8), chipHeight));
        if (inside && wholeWidth <= screen.width() - 4
            && place(QRectF(screen.left() + 2, screen.top() + 2, wholeWidth, chipHeight), whole))
            continue;
        if (place(QRectF(screen.left() - 2 - wholeWidth, screen.top() + 2, wholeWidth, chipHeight), whole)
            || place(QRectF(screen.right() + 2, screen.top() + 2, wholeWidth, chipHeight), whole)
            || place(QRectF(screen.left() + 2, screen.top() - 1 - chipHeight, wholeWidth, chipHeight), whole)
            || !inside)
            continue;
        // Cut to the width inside: elided again only when that width changed (a zoom).
        const qreal insideWidth = screen.width() - 8;
        if (std::abs(m.elidedFor - insideWidth) > 0.5) {
            qreal textWidth = 0;
            QString elided = cut(r, bold, std::min(insideWidth, kLabelMaxPx - 8), &textWidth);
            if (elided.size() < 4)
                elided.clear();  // "h…" names nothing
            if (elided != m.elided) {
                m.elided = std::move(elided);
                m.elidedWidth = textWidth + 8;
                m.elidedText = QStaticText();
            }
            m.elidedFor = insideWidth;
        }
        if (!m.elided.isEmpty() && m.elided != whole)
            place(QRectF(screen.left() + 2, screen.top() + 2, m.elidedWidth, chipHeight), m.elided);
    }
    return out;
}

void ModuleRegionsItem::paint(QPainter* painter, const QStyleOptionGraphicsItem* option, QWidget* widget)
{
    const QTransform toScreen = painter->worldTransform();
    if (!shownAt(option->levelOfDetailFromTransform(toScreen)))
        return;
    const QRectF area
        = widget ? QRectF(widget->rect()) : QRectF(0, 0, painter->device()->width(), painter->device()->height());
    const QFont font = painter->font();
    const auto labels = labelsAt(toScreen, area, font, painter->device());
    if (labels.empty())
        return;
    painter->save();
    painter->resetTransform();
    painter->setRenderHint(QPainter::Antialiasing, false);
    QFont bold = font;
    bold.setBold(true);
    painter->setFont(bold);
    painter->setPen(QPen(m_frame, 1));
    painter->setBrush(Qt::NoBrush);
    for (const auto& l : labels)
        painter->drawRect(toScreen.mapRect(m_regions[static_cast<std::size_t>(l.region)].rect));
    for (const auto& l : labels) {
        painter->setPen(m_frame);
        painter->setBrush(m_background);
        painter->drawRect(l.chip);
        painter->setPen(m_text);
        // Shaped once per name and cut (QStaticText), not on every frame as drawText would.
        Measured& m = m_measured[static_cast<std::size_t>(l.region)];
        QStaticText& text = l.text == m.whole ? m.wholeText : m.elidedText;
        if (text.text() != l.text) {
            text = QStaticText(l.text);
            text.setTextFormat(Qt::PlainText);
            text.setPerformanceHint(QStaticText::AggressiveCaching);
            text.prepare(QTransform(), bold);
        }
        const QSizeF size = text.size();
        painter->drawStaticText(
            QPointF(l.chip.center().x() - size.width() / 2, l.chip.center().y() - size.height() / 2), text);
    }
    painter->restore();
}

}  // namespace ps::ui
