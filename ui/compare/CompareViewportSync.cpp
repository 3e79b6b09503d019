#include "ui/compare/CompareViewportSync.h"

#include "graph/GraphModel.h"
#include "ui/graph/GraphBoxItem.h"
#include "ui/graph/GraphCanvas.h"
#include "ui/graph/GraphView.h"

#include <QScrollBar>

#include <algorithm>
#include <cmath>
#include <limits>
#include <set>
#include <utility>

namespace ps::ui {

namespace {

qreal median(std::vector<qreal> v)
{
    std::nth_element(v.begin(), v.begin() + static_cast<std::ptrdiff_t>(v.size() / 2), v.end());
    return v[v.size() / 2];
}

}  // namespace

CompareViewportSync::CompareViewportSync(GraphView* a, GraphView* b, QObject* parent) : QObject(parent), m_views{a, b}
{
    for (int k = 0; k < 2; ++k) {
        GraphCanvas* canvas = m_views[k]->canvas();
        connect(canvas->horizontalScrollBar(), &QScrollBar::valueChanged, this, [this, k]() { onMoved(k); });
        connect(canvas->verticalScrollBar(), &QScrollBar::valueChanged, this, [this, k]() { onMoved(k); });
        connect(canvas, &GraphCanvas::zoomChanged, this, [this, k]() { onMoved(k); });
        connect(m_views[k], &GraphView::graphShown, this, [this, k]() { onShown(k); });
        connect(m_views[k], &GraphView::layoutFailed, this, [this, k]() { m_relayout[k] = false; });
        connect(m_views[k], &GraphView::expansionRequested, this,
            [this, k](const QString& path, bool expand) { onExpansion(k, path, expand); });
    }
}

void CompareViewportSync::setMatches(std::vector<int> match, std::map<std::string, std::string> renames)
{
    m_match = std::move(match);
    m_renames[1].clear();
    for (const auto& [from, to] : renames)
        m_renames[1].emplace(to, from);
    m_renames[0] = std::move(renames);
    rebuild();
}

void CompareViewportSync::setEnabled(bool enabled)
{
    m_enabled = enabled;
    shareFit();
}

void CompareViewportSync::shareFit()
{
    if (m_following || m_suspended)
        return;
    const bool together = m_enabled && m_views[0]->graph() && m_views[1]->graph();
    qreal common = std::numeric_limits<qreal>::infinity();
    if (together)
        for (GraphView* view : m_views)
            common = std::min(common, std::min(view->canvas()->fitZoom(), 1.0));
    m_following = true;
    for (GraphView* view : m_views) {
        GraphCanvas* canvas = view->canvas();
        canvas->setFitCap(common);
        if (canvas->keepsFitted())
            canvas->fitScene(0);
    }
    m_following = false;
}

qreal CompareViewportSync::Row::offsetAt(qreal x) const
{
    // dx is sorted by x: the box nearest x.
    auto it = std::lower_bound(dx.begin(), dx.end(), std::make_pair(x, qreal(-1e300)));
    if (it == dx.end())
        return dx.back().second;
    if (it != dx.begin() && x - std::prev(it)->first < it->first - x)
        --it;
    return it->second;
}

void CompareViewportSync::rebuild()
{
    for (auto& rows : m_rows)
        rows.clear();
    if (!m_views[0]->graph() || !m_views[1]->graph())
        return;
    // One anchor per pair of boxes (a collapsed module stands for many nodes).
    std::set<std::pair<const GraphBoxItem*, const GraphBoxItem*>> seen;
    std::vector<std::pair<QPointF, QPointF>> anchors;
    for (std::size_t n = 0; n < m_match.size(); ++n) {
        const GraphBoxItem* a = m_match[n] >= 0 ? m_views[0]->boxOfNode(static_cast<int>(n)) : nullptr;
        const GraphBoxItem* b = a ? m_views[1]->boxOfNode(m_match[n]) : nullptr;
        if (b && seen.emplace(a, b).second)
            anchors.emplace_back(a->sceneBoundingRect().center(), b->sceneBoundingRect().center());
    }
    for (int k = 0; k < 2; ++k) {
        // Rows of side k, by y; each with the median y of its matches.
        std::map<qint64, std::vector<std::pair<QPointF, QPointF>>> byRow;
        for (const auto& [pa, pb] : anchors) {
            const QPointF& own = k == 0 ? pa : pb;
            byRow[std::llround(own.y() * 2)].emplace_back(own, k == 0 ? pb : pa);
        }
        std::vector<Row> rows;
        for (const auto& [key, members] : byRow) {
            Row row;
            row.y = members.front().first.y();
            std::vector<qreal> ys;
            for (const auto& [own, other] : members) {
                ys.push_back(other.y());
                row.dx.emplace_back(own.x(), other.x() - own.x());
            }
            row.otherY = median(std::move(ys));
            std::sort(row.dx.begin(), row.dx.end());
            rows.push_back(std::move(row));
        }
        // The longest chain of rows whose matches go down as they do (patience sorting on otherY,
        // strictly increasing so that the map between two rows never divides by zero).
        std::vector<int> tails;  // index of the last row of the best chain of each length
        std::vector<int> prev(rows.size(), -1);
        for (int i = 0; i < static_cast<int>(rows.size()); ++i) {
            auto pos = std::lower_bound(tails.begin(), tails.end(), rows[static_cast<std::size_t>(i)].otherY,
                [&rows](int t, qreal y) { return rows[static_cast<std::size_t>(t)].otherY < y; });
            if (pos != tails.begin())
                prev[static_cast<std::size_t>(i)] = *std::prev(pos);
            if (pos == tails.end())
                tails.push_back(i);
            else
                *pos = i;
        }
        std::vector<Row> chain;
        for (int i = tails.empty() ? -1 : tails.back(); i >= 0; i = prev[static_cast<std::size_t>(i)])
            chain.push_back(std::move(rows[static_cast<std::size_t>(i)]));
        std::reverse(chain.begin(), chain.end());
        m_rows[k] = std::move(chain);
    }
}

QPointF CompareViewportSync::map(int side, const QPointF& point) const
{
    const std::vector<Row>& rows = m_rows[side];
    if (rows.empty())
        return point;
    auto next
        = std::upper_bound(rows.begin(), rows.end(), point.y(), [](qreal y, const Row& row) { return y < row.y; });
    if (next == rows.begin() || next == rows.end()) {
        // Above the first matched row or below the last: that row's offset.
        const Row& row = next == rows.begin() ? rows.front() : rows.back();
        return {point.x() + row.offsetAt(point.x()), point.y() + row.otherY - row.y};
    }
    const Row& lo = *std::prev(next);
    const Row& hi = *next;
    const qreal t = (point.y() - lo.y) / (hi.y - lo.y);
    const qreal dx = lo.offsetAt(point.x()) * (1 - t) + hi.offsetAt(point.x()) * t;
    return {point.x() + dx, lo.otherY + (hi.otherY - lo.otherY) * t};
}

void CompareViewportSync::follow(int side)
{
    const int other = 1 - side;
    GraphCanvas* from = m_views[side]->canvas();
    GraphCanvas* to = m_views[other]->canvas();
    if (!m_views[other]->graph())
        return;
    m_following = true;
    if (std::abs(to->zoom() - from->zoom()) > 1e-9)
        to->setZoom(from->zoom());
    to->setKeepFitted(false);
    to->centerOn(map(side, from->mapToScene(from->viewport()->rect().center())));
    m_following = false;
}

void CompareViewportSync::onMoved(int side)
{
    // Only a side the user has moved leads (both open fitted, each to its own pane), and not
    // while an expansion on either side is being laid out (its scene moves under the view).
    if (!m_enabled || m_suspended || m_following || m_relayout[0] || m_relayout[1])
        return;
    if (m_views[side]->canvas()->keepsFitted()) {  // fitted (Fit, or a resize of a fitted side): both
        m_views[1 - side]->canvas()->setKeepFitted(true);
        shareFit();
        return;
    }
    m_leader = side;
    follow(side);
}

void CompareViewportSync::onShown(int side)
{
    m_relayout[side] = false;
    rebuild();
    if (m_relayout[1 - side])
        return;
    // Both sides laid out: the side the user moved or expanded leads.
    const int leader = m_leader >= 0 ? m_leader : side;
    if (m_enabled && !m_suspended && !m_views[leader]->canvas()->keepsFitted())
        follow(leader);
    else
        shareFit();
}

void CompareViewportSync::onExpansion(int side, const QString& path, bool expand)
{
    if (!m_enabled || m_suspended || m_following)
        return;
    GraphView* other = m_views[1 - side];
    m_leader = side;
    m_relayout[side] = m_views[side]->layoutPending();
    m_following = true;
    if (path.isEmpty())
        expand ? other->expandAll() : other->collapseAll();
    else if (expand)
        other->expandModule(mapPath(side, path));
    else
        other->collapseModule(mapPath(side, path));
    m_relayout[1 - side] = other->layoutPending();
    m_following = false;
}

QString CompareViewportSync::mapPath(int side, const QString& path) const
{
    return QString::fromStdString(mapPath(m_renames[side], path.toStdString()));
}

std::string CompareViewportSync::mapPath(const std::map<std::string, std::string>& renames, const std::string& path)
{
    // The phase prefix stays ("forward:", "backward:"); the groups and bundles keep their path.
    std::string prefix;
    for (const char* p : {"forward:", "backward:"})
        if (path.rfind(p, 0) == 0)
            prefix = p;
    const std::string p = path.substr(prefix.size());
    if (p.empty() || p.front() == '[')
        return path;
    for (std::string head = p;;) {
        if (auto it = renames.find(head); it != renames.end())
            return prefix + it->second + p.substr(head.size());
        const auto dot = head.rfind('.');
        if (dot == std::string::npos)
            return path;
        head.resize(dot);
    }
}

}  // namespace ps::ui
