#include "ui/graph/BoxGrid.h"

#include <algorithm>
#include <cmath>
#include <utility>

namespace ps::ui {

namespace {
constexpr qreal kMinCell = 256;     // scene pixels: a box and its room fit one or two cells
constexpr qreal kCellsPerRect = 2;  // a grid this much bigger than its rectangles: most cells hold few
}  // namespace

BoxGrid::BoxGrid(std::vector<QRectF> rects) : m_bounds(std::move(rects))
{
    auto finite = [](const QRectF& r) {
        return std::isfinite(r.left()) && std::isfinite(r.top()) && std::isfinite(r.right())
            && std::isfinite(r.bottom());
    };
    for (const QRectF& r : m_bounds)
        if (finite(r))
            m_area = m_area.united(r);
    if (m_bounds.empty() || m_area.isEmpty())
        return;
    m_areaEdges = Edges::of(m_area);
    m_cell = std::max(
        kMinCell, std::sqrt(m_area.width() * m_area.height() / (kCellsPerRect * static_cast<qreal>(m_bounds.size()))));
    // However thin the scene: at most a few cells per rectangle.
    const qreal most = 4.0 * static_cast<qreal>(m_bounds.size()) + 16;
    while ((std::floor(m_area.width() / m_cell) + 1) * (std::floor(m_area.height() / m_cell) + 1) > most)
        m_cell *= 2;
    m_columns = static_cast<int>(std::floor(m_area.width() / m_cell)) + 1;
    m_rows = static_cast<int>(std::floor(m_area.height() / m_cell)) + 1;
    const auto cells = static_cast<std::size_t>(m_columns) * static_cast<std::size_t>(m_rows);
    // Counting sort of (cell, rectangle) pairs: two passes over the rectangles' cells. A
    // rectangle that is not finite meets nothing.
    std::vector<int> count(cells + 1, 0);
    auto forCells = [&](const QRectF& r, auto&& fn) {
        if (!finite(r) || Edges::of(r).empty())
            return;
        for (int y = row(r.top()); y <= row(r.bottom()); ++y)
            for (int x = column(r.left()); x <= column(r.right()); ++x)
                fn(static_cast<std::size_t>(y) * static_cast<std::size_t>(m_columns) + static_cast<std::size_t>(x));
    };
    for (const QRectF& r : m_bounds)
        forCells(r, [&](std::size_t c) { ++count[c + 1]; });
    for (std::size_t c = 1; c <= cells; ++c)
        count[c] += count[c - 1];
    m_start = count;
    m_members.resize(static_cast<std::size_t>(count[cells]));
    for (std::size_t i = 0; i < m_bounds.size(); ++i) {
        const Edges edges = Edges::of(m_bounds[i]);
        forCells(m_bounds[i], [&](std::size_t c) {
            m_members[static_cast<std::size_t>(count[c]++)] = {edges, static_cast<int>(i)};
        });
    }
    m_seen.assign(m_bounds.size(), 0);
}

int BoxGrid::column(qreal x) const
{
    // Clamped before the cast: a query far off the scene stays an int.
    return static_cast<int>(
        std::clamp(std::floor((x - m_area.left()) / m_cell), 0.0, static_cast<qreal>(std::max(0, m_columns - 1))));
}

int BoxGrid::row(qreal y) const
{
    return static_cast<int>(
        std::clamp(std::floor((y - m_area.top()) / m_cell), 0.0, static_cast<qreal>(std::max(0, m_rows - 1))));
}

std::vector<int> BoxGrid::near(const QRectF& sceneRect) const
{
    std::vector<int> out;
    visit(sceneRect, [&](int i) {
        out.push_back(i);
        return false;
    });
    return out;
}

}  // namespace ps::ui
