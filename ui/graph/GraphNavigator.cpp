#include "ui/graph/GraphNavigator.h"

#include "graph/GraphModel.h"
#include "graph/LayeredLayout.h"
#include "graph/VisibleGraph.h"

#include <algorithm>

namespace ps::ui {

namespace {

using Step = GraphNavigator::Step;

Step opposite(Step s)
{
    switch (s) {
    case Step::Input:
        return Step::User;
    case Step::User:
        return Step::Input;
    case Step::Previous:
        return Step::Next;
    case Step::Next:
        return Step::Previous;
    }
    return s;
}

}  // namespace

void GraphNavigator::reset(
    const graph::GraphModel* graph, const graph::VisibleGraph* visible, const graph::LayoutResult* layout)
{
    m_graph = graph;
    m_visible = visible;
    m_layout = layout;
    m_last = {};
}

std::vector<int> GraphNavigator::inputsOf(int item) const
{
    std::vector<int> out;
    if (!m_graph || !m_visible || item < 0 || item >= static_cast<int>(m_visible->items().size()))
        return out;
    const auto& it = m_visible->items()[static_cast<std::size_t>(item)];
    if (it.kind == graph::VisibleItem::Node) {
        // A node's own order (addmm: bias, input, weight), each input shown by its box.
        for (int n : m_graph->nodes()[static_cast<std::size_t>(it.id)].inputs) {
            const int from = m_visible->itemOfNode(n);
            if (from >= 0 && from != item && std::find(out.begin(), out.end(), from) == out.end())
                out.push_back(from);
        }
    } else {
        for (const auto& e : m_visible->edges())
            if (e.to == item)
                out.push_back(e.from);
    }
    return out;
}

std::vector<int> GraphNavigator::usersOf(int item) const
{
    std::vector<int> out;
    if (!m_graph || !m_visible || item < 0 || item >= static_cast<int>(m_visible->items().size()))
        return out;
    const auto& it = m_visible->items()[static_cast<std::size_t>(item)];
    if (it.kind == graph::VisibleItem::Node) {
        for (int n : m_graph->nodes()[static_cast<std::size_t>(it.id)].users) {
            const int to = m_visible->itemOfNode(n);
            if (to >= 0 && to != item && std::find(out.begin(), out.end(), to) == out.end())
                out.push_back(to);
        }
    } else {
        for (const auto& e : m_visible->edges())
            if (e.from == item)
                out.push_back(e.to);
    }
    return out;
}

int GraphNavigator::step(int from, Step s)
{
    if (s == Step::Previous || s == Step::Next) {
        m_last = {};
        return sibling(from, s == Step::Next);
    }
    const std::vector<int> list = s == Step::Input ? inputsOf(from) : usersOf(from);
    if (list.empty())
        return -1;
    // Back the way the last step came.
    if (m_last.to == from && s == opposite(m_last.step)
        && std::find(list.begin(), list.end(), m_last.from) != list.end())
        return m_last.from;
    // Again from where the last step started: on to the next one.
    int index = 0;
    if (m_last.from == from && m_last.step == s)
        index = (m_last.index + 1) % static_cast<int>(list.size());
    m_last = {from, list[static_cast<std::size_t>(index)], s, index};
    return m_last.to;
}

int GraphNavigator::sibling(int from, bool next) const
{
    if (!m_layout || from < 0 || from >= static_cast<int>(m_layout->boxes.size()))
        return -1;
    const auto& origin = m_layout->boxes[static_cast<std::size_t>(from)];
    int best = -1;
    for (std::size_t i = 0; i < m_layout->boxes.size(); ++i) {
        const auto& b = m_layout->boxes[i];
        if (b.layer != origin.layer || static_cast<int>(i) == from || (next ? b.x <= origin.x : b.x >= origin.x))
            continue;
        if (best < 0
            || (next ? b.x < m_layout->boxes[static_cast<std::size_t>(best)].x
                     : b.x > m_layout->boxes[static_cast<std::size_t>(best)].x))
            best = static_cast<int>(i);
    }
    return best;
}

}  // namespace ps::ui
