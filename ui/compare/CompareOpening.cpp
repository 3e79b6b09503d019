#include "ui/compare/CompareOpening.h"

#include "graph/ModuleTree.h"
#include "ui/compare/CompareViewportSync.h"
#include "ui/graph/GraphCanvas.h"
#include "ui/graph/GraphView.h"

#include <functional>

namespace ps::ui {

namespace {

/// The most rounds of collapsing for readability (a level each).
constexpr int kReadableRounds = 6;

bool at(const std::vector<bool>& v, int i)
{
    return i >= 0 && i < static_cast<int>(v.size()) && v[static_cast<std::size_t>(i)];
}

}  // namespace

CompareOpening::CompareOpening(GraphView* a, GraphView* b, CompareViewportSync* sync, QObject* parent)
    : QObject(parent), m_views{a, b}, m_sync(sync)
{
    for (GraphView* v : m_views) {
        connect(v, &GraphView::graphShown, this, &CompareOpening::onShown);
        connect(v, &GraphView::layoutFailed, this, &CompareOpening::onShown);
    }
}

void CompareOpening::start(QStringList reveal)
{
    m_reveal = std::move(reveal);
    m_rounds = 0;
    m_stage = Stage::Opening;
    m_sync->setSuspended(true);
    onShown();  // nothing to wait for when neither side has a graph
}

void CompareOpening::onShown()
{
    if (m_stage == Stage::Idle)
        return;
    for (GraphView* v : m_views)
        if (v->graph() && (!v->moduleTree() || v->layoutPending()))
            return;  // both opened and settled first (a side without a graph has nothing to wait for)
    if (m_stage == Stage::Opening) {
        m_stage = Stage::Equalising;
        if (equalise())
            return;  // back here once laid out
    }
    m_stage = Stage::Reading;
    if (makeReadable())
        return;
    finish();
}

void CompareOpening::finish()
{
    m_stage = Stage::Idle;
    for (GraphView* v : m_views)
        if (v->moduleTree())
            v->zoomToFit();
    m_sync->setSuspended(false);
    emit finished();
}

std::vector<bool> CompareOpening::shownExpanded(int side) const
{
    const graph::ModuleTree* tree = m_views[side]->moduleTree();
    std::vector<bool> out(tree ? tree->modules().size() : 0, false);
    if (!tree)
        return out;
    std::function<void(int)> visit = [&](int m) {
        out[static_cast<std::size_t>(m)] = true;
        for (int c : tree->module(m).children)
            if (m_views[side]->isExpanded(QString::fromStdString(tree->module(c).path)))
                visit(c);
    };
    visit(graph::ModuleTree::root());
    return out;
}

std::vector<bool> CompareOpening::revealed(int side) const
{
    const graph::ModuleTree* tree = m_views[side]->moduleTree();
    std::vector<bool> out(tree ? tree->modules().size() : 0, false);
    for (const QString& path : m_reveal)
        if (const int m = tree ? tree->find(path.toStdString()) : -1; m >= 0)
            out[static_cast<std::size_t>(m)] = true;
    return out;
}

int CompareOpening::counterpart(int side, int module) const
{
    const graph::ModuleTree* own = m_views[side]->moduleTree();
    const graph::ModuleTree* other = m_views[1 - side]->moduleTree();
    if (!own || !other)
        return -1;
    if (module == graph::ModuleTree::root())
        return graph::ModuleTree::root();
    return other->find(CompareViewportSync::mapPath(m_sync->renames(side), own->module(module).path));
}

bool CompareOpening::equalise()
{
    std::vector<bool> shown[2] = {shownExpanded(0), shownExpanded(1)};
    std::vector<bool> reveal[2] = {revealed(0), revealed(1)};
    std::vector<bool> target[2];
    for (int k = 0; k < 2; ++k) {
        target[k].assign(shown[k].size(), false);
        for (int m = 0; m < static_cast<int>(shown[k].size()); ++m) {
            const bool wanted = at(shown[k], m) || at(reveal[k], m);
            const int twin = counterpart(k, m);
            // Expanded where both sides would have it; one side's own modules only to reveal.
            target[k][static_cast<std::size_t>(m)] = m == graph::ModuleTree::root() || at(reveal[k], m)
                || (twin >= 0 ? wanted && (at(shown[1 - k], twin) || at(reveal[1 - k], twin))
                              : !m_views[1 - k]->moduleTree() && wanted);
        }
    }
    bool asked = false;
    for (int k = 0; k < 2; ++k)
        asked = apply(k, target[k]) || asked;
    return asked;
}

bool CompareOpening::apply(int side, const std::vector<bool>& target)
{
    const graph::ModuleTree* tree = m_views[side]->moduleTree();
    if (!tree)
        return false;
    bool asked = false;
    std::function<void(int)> visit = [&](int m) {
        for (int c : tree->module(m).children) {
            const QString path = QString::fromStdString(tree->module(c).path);
            const bool expand = at(target, c);
            if (m_views[side]->isExpanded(path) != expand) {
                expand ? m_views[side]->expandModule(path) : m_views[side]->collapseModule(path);
                asked = true;
            }
            if (expand)
                visit(c);
        }
    };
    visit(graph::ModuleTree::root());
    return asked;
}

bool CompareOpening::readable(int side) const
{
    GraphView* v = m_views[side];
    return !v->moduleTree() || v->canvas()->fitZoom() >= v->opening().titleZoom;
}

bool CompareOpening::makeReadable()
{
    if (m_rounds >= kReadableRounds || (readable(0) && readable(1)))
        return false;
    ++m_rounds;
    std::vector<bool> shown[2] = {shownExpanded(0), shownExpanded(1)};
    std::vector<bool> reveal[2] = {revealed(0), revealed(1)};
    // The deepest expanded modules of an unreadable side that were not revealed: a level less.
    int deepest = 0;
    for (int k = 0; k < 2; ++k) {
        const graph::ModuleTree* tree = m_views[k]->moduleTree();
        for (int m = 1; !readable(k) && m < static_cast<int>(shown[k].size()); ++m)
            if (at(shown[k], m) && !at(reveal[k], m) && tree->module(m).role == graph::Module::Role::Model)
                deepest = std::max(deepest, tree->module(m).depth);
    }
    if (deepest == 0)
        return false;
    std::vector<bool> target[2] = {shown[0], shown[1]};
    for (int k = 0; k < 2; ++k) {
        const graph::ModuleTree* tree = m_views[k]->moduleTree();
        for (int m = 1; !readable(k) && m < static_cast<int>(shown[k].size()); ++m)
            if (at(shown[k], m) && !at(reveal[k], m) && tree->module(m).role == graph::Module::Role::Model
                && tree->module(m).depth == deepest) {
                target[k][static_cast<std::size_t>(m)] = false;
                if (const int twin = counterpart(k, m); twin >= 0 && twin < static_cast<int>(target[1 - k].size()))
                    target[1 - k][static_cast<std::size_t>(twin)] = false;
            }
    }
    bool asked = false;
    for (int k = 0; k < 2; ++k)
        asked = apply(k, target[k]) || asked;
    return asked;
}

}  // namespace ps::ui
