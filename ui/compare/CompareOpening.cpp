#include "ui/compare/CompareOpening.h"

#include "graph/ModuleTree.h"
#include "ui/compare/CompareViewportSync.h"
#include "ui/graph/GraphCanvas.h"
#include "ui/graph/GraphView.h"

#include <algorithm>
#include <functional>

namespace ps::ui {

namespace {

/// The most rounds of collapsing for readability (a level each).
constexpr int kReadableRounds = 6;
/// Reveals that would open more than half of a side's modules that hold others, when it has flagAt
/// least this many, are dropped: the two graphs differ everywhere (two unrelated models).
constexpr int kSweepingFrom = 4;

bool flagAt(const std::vector<bool>& v, int i)
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
        dropSweepingReveals();
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
    m_sync->shareFit();
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
        if (const int m = tree ? tree->find(path.toStdString()) : -1; m >= 0) {
            out[static_cast<std::size_t>(m)] = true;
            // A training step's model path names its forward copy: the backward one opens too.
            if (const int twin = tree->twin(m); twin >= 0)
                out[static_cast<std::size_t>(twin)] = true;
        }
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
    const graph::Module& m = own->module(module);
    if (own->phased() && !other->phased()) {
        // A training step against an inference graph: each phase's copy of the model stands for
        // the one model of the other side ("forward:", "backward:" for its root,
        // "backward:model.0" for "model.0"); the gradient and outside bundles have no match.
        if (m.role == graph::Module::Role::PhaseGroup)
            return graph::ModuleTree::root();
        if (m.role != graph::Module::Role::Model)
            return -1;
        return other->find(CompareViewportSync::mapPath(m_sync->renames(side), m.modelPath));
    }
    // "forward:model.0" of a training step is found by its model path ("model.0").
    return other->find(CompareViewportSync::mapPath(m_sync->renames(side), m.path));
}

bool CompareOpening::equalise()
{
    std::vector<bool> shown[2] = {shownExpanded(0), shownExpanded(1)};
    std::vector<bool> reveal[2] = {revealed(0), revealed(1)};
    std::vector<bool> target[2];
    for (int k = 0; k < 2; ++k) {
        target[k].assign(shown[k].size(), false);
        for (int m = 0; m < static_cast<int>(shown[k].size()); ++m) {
            const bool wanted = flagAt(shown[k], m) || flagAt(reveal[k], m);
            const int twin = counterpart(k, m);
            // Expanded where both sides would have it; one side's own modules only to reveal.
            target[k][static_cast<std::size_t>(m)] = m == graph::ModuleTree::root() || flagAt(reveal[k], m)
                || (twin >= 0 ? wanted && (flagAt(shown[1 - k], twin) || flagAt(reveal[1 - k], twin))
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
            const bool expand = flagAt(target, c);
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
    const auto closable = [&](int k, int m) {
        return flagAt(shown[k], m) && !flagAt(reveal[k], m)
            && m_views[k]->moduleTree()->module(m).role == graph::Module::Role::Model;
    };
    // Depth in the model: a training step's modules sit one level lower, under their phase.
    const auto depth = [this](int k, int m) {
        const graph::ModuleTree* tree = m_views[k]->moduleTree();
        return tree->module(m).depth - (tree->phased() ? 1 : 0);
    };
    int deepest = 0;
    for (int k = 0; k < 2; ++k)
        for (int m = 1; !readable(k) && m < static_cast<int>(shown[k].size()); ++m)
            if (closable(k, m))
                deepest = std::max(deepest, depth(k, m));
    if (deepest == 0)
        return false;
    std::vector<bool> closed[2];
    for (int k = 0; k < 2; ++k) {
        closed[k].assign(shown[k].size(), false);
        for (int m = 1; !readable(k) && m < static_cast<int>(shown[k].size()); ++m)
            closed[k][static_cast<std::size_t>(m)] = closable(k, m) && depth(k, m) == deepest;
    }
    // What is closed on one side is closed on the other: every module matched to it (a training
    // step's forward and backward copies of an inference graph's module alike).
    std::vector<bool> target[2] = {shown[0], shown[1]};
    for (int k = 0; k < 2; ++k)
        for (int m = 1; m < static_cast<int>(shown[k].size()); ++m)
            if (flagAt(closed[k], m) || flagAt(closed[1 - k], counterpart(k, m)))
                target[k][static_cast<std::size_t>(m)] = false;
    bool asked = false;
    for (int k = 0; k < 2; ++k)
        asked = apply(k, target[k]) || asked;
    return asked;
}

void CompareOpening::dropSweepingReveals()
{
    for (int k = 0; k < 2; ++k) {
        const graph::ModuleTree* tree = m_views[k]->moduleTree();
        if (!tree)
            continue;
        const std::vector<bool> reveal = revealed(k);
        int parents = 0;
        int shownForDifference = 0;
        for (int m = 1; m < static_cast<int>(tree->modules().size()); ++m)
            if (tree->module(m).role == graph::Module::Role::Model && !tree->module(m).children.empty()) {
                ++parents;
                shownForDifference += flagAt(reveal, m) ? 1 : 0;
            }
        if (parents >= kSweepingFrom && 2 * shownForDifference > parents) {
            m_reveal.clear();
            return;
        }
    }
}

}  // namespace ps::ui
