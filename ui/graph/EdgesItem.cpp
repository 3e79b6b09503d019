#include "ui/graph/EdgesItem.h"

#include <algorithm>
#include <cmath>

#include <QFont>
#include <QPainter>
#include <QPainterPath>
#include <QStyleOptionGraphicsItem>

namespace ps::ui {

namespace {
constexpr qreal kCurveLod = 0.5;  // as the boxes: below, one-pixel lines
// Below this, edges (all but the selection's) are not drawn: at 6 % a 50k-node training step
// shows thousands of long edges (its output gathers every gradient) as one grey mass, and
// drawing them took most of a frame (13 ms at 3 %, measured by bench_graph's zoom_all).
constexpr qreal kHiddenLod = 0.06;
constexpr qreal kShortestLine = 4;   // device pixels: a shorter edge is not drawn below kCurveLod
constexpr qreal kShortestStep = 2;   // device pixels: a closer bend is skipped below kCurveLod
constexpr int kLabelPixels = 10;     // scene pixels of a count label's text
constexpr qreal kLabelLod = 0.8;     // below, a label would be under 8 device pixels
const QSizeF kLabelSize(44, 14);     // room a label takes right of and above its anchor
constexpr int kPieceSteps = 4;       // route segments per piece
constexpr qreal kBandHeight = 1024;  // scene pixels per band of the culling index
constexpr int kTallBands = 8;        // a piece meeting more bands is looked at every frame
constexpr qreal kSharedRun = 400;    // a vertical run at least this long is a side lane's

int bandOf(qreal y)
{
    return std::max(0, static_cast<int>(std::floor(y / kBandHeight)));
}

qreal widthFor(int count)
{
    return std::min<qreal>(1.0 + std::log2(static_cast<qreal>(std::max(1, count))), 6.0);
}

// Straight where a run is vertical, else an S-bend whose control points sit at half height:
// both ends leave vertically, and the curve stays inside the two points' rectangle.
QPainterPath path(const QPolygonF& route, int first, int last)
{
    QPainterPath p(route[first]);
    for (int i = first + 1; i <= last; ++i) {
        const QPointF a = route[i - 1], b = route[i];
        if (a.x() == b.x()) {
            p.lineTo(b);
            continue;
        }
        const qreal mid = (a.y() + b.y()) / 2;
        p.cubicTo(QPointF(a.x(), mid), QPointF(b.x(), mid), b);
    }
    return p;
}

QString countText(int count)
{
    return QStringLiteral("\u00d7%1").arg(count);
}
}  // namespace

QRectF EdgesItem::labelRect(const Edge& e)
{
    const QPointF a = e.route[e.route.size() - 2], b = e.route.back();
    // The last piece's S-bend at t = 3/4: B(t) = (1-t)^3 a + 3(1-t)^2 t c1 + 3(1-t) t^2 c2 + t^3 b.
    const qreal t = 0.75, s = 1 - t, mid = (a.y() + b.y()) / 2;
    const QPointF c1(a.x(), mid), c2(b.x(), mid);
    const QPointF on = s * s * s * a + 3 * s * s * t * c1 + 3 * s * t * t * c2 + t * t * t * b;
    const qreal left = a.x() > b.x() ? on.x() - 4 - kLabelSize.width() : on.x() + 4;
    return QRectF(QPointF(left, on.y() - 2 - kLabelSize.height()), kLabelSize);
}

EdgesItem::EdgesItem(std::vector<Edge> edges, QColor color, QColor highlight)
    : m_edges(std::move(edges)), m_color(color), m_highlight(highlight)
{
    setFlag(ItemUsesExtendedStyleOption);
    setZValue(0);
    m_pieces.reserve(m_edges.size());
    m_pieceBounds.reserve(m_edges.size());
    struct Run {
        qreal x, top, bottom;
    };
    std::vector<Run> runs;
    for (std::size_t i = 0; i < m_edges.size(); ++i) {
        auto& e = m_edges[i];
        if (e.route.size() < 2)
            e.route.resize(2);
        // A piece keeps to its points' rectangle; the widest pen it is drawn with (merged,
        // highlighted) reaches half its width beyond, and a count label sits up and right.
        const qreal pen = std::max<qreal>(2.5, widthFor(e.count)) / 2 + 1;
        const int last = static_cast<int>(e.route.size()) - 1;
        auto addPiece = [&](int first, int end, bool shared) {
            const Piece piece{static_cast<int>(i), first, end, shared};
            QRectF r = QPolygonF(e.route.mid(first, end - first + 1)).boundingRect().adjusted(-pen, -pen, pen, pen);
            if (e.count > 1 && end == last)
                r = r.united(labelRect(e));
            m_pieces.push_back(piece);
            m_pieceBounds.push_back(r);
            m_bounds = m_bounds.united(r);
        };
        // Up to kPieceSteps segments a piece; a long vertical run (a side lane's) alone, its
        // line also merged into the lane's shared runs below.
        int first = 0;
        for (int k = 1; k <= last; ++k) {
            const QPointF a = e.route[k - 1], b = e.route[k];
            if (a.x() == b.x() && std::abs(b.y() - a.y()) >= kSharedRun) {
                if (first < k - 1)
                    addPiece(first, k - 1, false);
                addPiece(k - 1, k, true);
                runs.push_back({a.x(), std::min(a.y(), b.y()), std::max(a.y(), b.y())});
                first = k;
            } else if (k - first == kPieceSteps || k == last) {
                addPiece(first, k, false);
                first = k;
            }
        }
    }
    // Side lanes are shared by edges whose spans overlap: each stretch of a lane is drawn once.
    std::sort(runs.begin(), runs.end(),
        [](const Run& a, const Run& b) { return a.x < b.x || (a.x == b.x && a.top < b.top); });
    for (const Run& r : runs) {
        if (!m_shared.empty() && m_shared.back().x1() == r.x && m_shared.back().y2() >= r.top) {
            m_shared.back().setP2(QPointF(r.x, std::max(m_shared.back().y2(), r.bottom)));
            continue;
        }
        m_shared.append(QLineF(r.x, r.top, r.x, r.bottom));
    }
    for (std::size_t i = 0; i < m_pieces.size(); ++i) {
        const int top = bandOf(m_pieceBounds[i].top()), bottom = bandOf(m_pieceBounds[i].bottom());
        if (bottom - top >= kTallBands) {
            m_tall.push_back(static_cast<int>(i));
            continue;
        }
        if (static_cast<int>(m_bands.size()) <= bottom)
            m_bands.resize(static_cast<std::size_t>(bottom) + 1);
        for (int b = top; b <= bottom; ++b)
            m_bands[static_cast<std::size_t>(b)].push_back(static_cast<int>(i));
    }
}

void EdgesItem::setHighlighted(const QList<int>& items)
{
    m_highlighted = std::unordered_set<int>(items.begin(), items.end());
    update();
}

void EdgesItem::paint(QPainter* painter, const QStyleOptionGraphicsItem* option, QWidget*)
{
    const QRectF exposed = option->exposedRect;
    const qreal lod = option->levelOfDetailFromTransform(painter->worldTransform());
    if (lod < kHiddenLod && m_highlighted.empty())
        return;
    const bool curves = lod >= kCurveLod;
    painter->setRenderHint(QPainter::Antialiasing, curves);
    painter->setBrush(Qt::NoBrush);
    QPen pen(m_color, 0);  // cosmetic: one pixel whatever the zoom
    painter->setPen(pen);
    QList<QLineF> lines;
    std::vector<std::size_t> hot, labelled;
    // Far out, straight lines through the bends a device pixel or two apart, and one line for a
    // run of bends in line (a long edge's virtual items, one per layer, stand in a column): the
    // raster engine's cost is per line as much as per pixel (gpt's whole graph zoomed out: most
    // of a frame).
    auto appendLines = [&](const Piece& piece, QList<QLineF>& out) {
        const QPolygonF& route = m_edges[static_cast<std::size_t>(piece.edge)].route;
        QPointF last = route[piece.first];
        QPointF end = last;
        bool open = false;  // a line from `last` to `end` not yet given
        for (int k = piece.first + 1; k <= piece.last; ++k) {
            const QPointF d = route[k] - end;
            if (k < piece.last && (std::abs(d.x()) + std::abs(d.y())) * lod < kShortestStep)
                continue;
            if (open) {
                // In line when `route[k]` is within half a device pixel of the line's extension.
                const QPointF run = end - last;
                const qreal length = std::hypot(run.x(), run.y());
                const qreal off = std::abs(run.x() * d.y() - run.y() * d.x()) / std::max<qreal>(length, 1e-9);
                const bool ahead = run.x() * d.x() + run.y() * d.y() > 0;
                if (ahead && off * lod < 0.5) {
                    end = route[k];
                    continue;
                }
                out.append(QLineF(last, end));
                last = end;
            }
            end = route[k];
            open = true;
        }
        if (open)
            out.append(QLineF(last, end));
    };
    auto endsLabel = [&](const Piece& piece) {
        const auto& e = m_edges[static_cast<std::size_t>(piece.edge)];
        return e.count > 1 && piece.last == e.route.size() - 1;
    };
    // The pieces in the bands the exposed area meets (each once: in the first band it shares
    // with the area), then the tall ones.
    const int firstBand = bandOf(exposed.top());
    const int lastBand = std::min(bandOf(exposed.bottom()), static_cast<int>(m_bands.size()) - 1);
    std::vector<int> candidates;
    for (int b = firstBand; b <= lastBand; ++b)
        for (int i : m_bands[static_cast<std::size_t>(b)])
            if (b == firstBand || bandOf(m_pieceBounds[static_cast<std::size_t>(i)].top()) == b)
                candidates.push_back(i);
    candidates.insert(candidates.end(), m_tall.begin(), m_tall.end());
    for (int index : candidates) {
        const auto i = static_cast<std::size_t>(index);
        if (!m_pieceBounds[i].intersects(exposed))
            continue;
        const Piece& piece = m_pieces[i];
        const auto& e = m_edges[static_cast<std::size_t>(piece.edge)];
        if (!m_highlighted.empty() && (m_highlighted.count(e.from) || m_highlighted.count(e.to))) {
            hot.push_back(i);
            continue;
        }
        if (lod < kHiddenLod || piece.shared)
            continue;  // far out, only the selection's edges show; lanes are drawn once below
        if (curves && e.count > 1) {
            painter->setPen(QPen(m_color, widthFor(e.count)));
            painter->drawPath(path(e.route, piece.first, piece.last));
            painter->setPen(pen);
            if (endsLabel(piece))
                labelled.push_back(static_cast<std::size_t>(piece.edge));
        } else if (curves) {
            painter->drawPath(path(e.route, piece.first, piece.last));
        } else {
            // Far out, an edge between neighbouring layers is a pixel or two, hidden by the
            // boxes it joins; drawing thousands of them is most of a frame. The long ones,
            // which show the graph's shape, stay.
            const QRectF& r = m_pieceBounds[i];
            if ((r.width() + r.height()) * lod >= kShortestLine)
                appendLines(piece, lines);
        }
    }
    if (lod >= kHiddenLod)
        for (const QLineF& run : m_shared)
            if (run.x1() >= exposed.left() - 1 && run.x1() <= exposed.right() + 1 && run.y2() >= exposed.top()
                && run.y1() <= exposed.bottom())
                lines.append(run);
    if (!lines.isEmpty())
        painter->drawLines(lines);
    for (std::size_t i : hot) {
        const Piece& piece = m_pieces[i];
        const auto& e = m_edges[static_cast<std::size_t>(piece.edge)];
        painter->setPen(QPen(m_highlight, curves ? std::max<qreal>(2.5, widthFor(e.count)) : 0));
        if (curves) {
            painter->drawPath(path(e.route, piece.first, piece.last));
            if (endsLabel(piece))
                labelled.push_back(static_cast<std::size_t>(piece.edge));
        } else {
            QList<QLineF> own;
            appendLines(piece, own);
            painter->drawLines(own);
        }
    }
    if (labelled.empty() || lod < kLabelLod)
        return;
    QFont font = painter->font();
    font.setPixelSize(kLabelPixels);
    painter->setFont(font);
    for (std::size_t i : labelled) {
        const auto& e = m_edges[i];
        const bool isHot = !m_highlighted.empty() && (m_highlighted.count(e.from) || m_highlighted.count(e.to));
        painter->setPen(isHot ? m_highlight : m_color);
        const QRectF rect = labelRect(e);
        const bool leftOfLine = rect.right() < e.route.back().x();
        painter->drawText(rect, (leftOfLine ? Qt::AlignRight : Qt::AlignLeft) | Qt::AlignBottom, countText(e.count));
    }
}

}  // namespace ps::ui
