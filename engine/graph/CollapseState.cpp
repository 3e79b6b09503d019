#include "graph/CollapseState.h"

#include "graph/ModuleTree.h"

#include <algorithm>
#include <deque>

namespace ps::graph {

CollapseState::CollapseState(const ModuleTree& tree) : m_expanded(tree.modules().size(), false)
{
    m_expanded[0] = true;
}

CollapseState CollapseState::initial(const ModuleTree& tree, int budget)
{
    CollapseState s(tree);
    const auto& mods = tree.modules();
    auto mod = [&](int m) -> const Module& { return mods[static_cast<std::size_t>(m)]; };
    // A module opens together with its twin in the other phase (a training step's "model.0"
    // and "backward:model.0"), so that the backward mirrors the forward; an entry is a module
    // with no forward twin, standing for itself and its backward twin if any.
    auto twin = [&](int m) { return mod(m).phase == Phase::Forward ? tree.twin(m) : -1; };
    auto total = [&](int m) { return mod(m).total + (twin(m) >= 0 ? mod(twin(m)).total : 0); };
    auto entries = [&](const std::vector<int>& children, std::vector<int>& out) {
        for (int c : children)
            if (mod(c).role == Module::Role::Model && (mod(c).phase != Phase::Backward || tree.twin(c) < 0))
                out.push_back(c);  // the gradient and outside bundles open only when asked to
    };
    std::vector<int> top;
    int visible = static_cast<int>(mod(0).nodes.size() + mod(0).children.size());
    if (tree.phased()) {
        // The forward and backward groups are the outline of a training step: always open.
        for (Phase p : {Phase::Forward, Phase::Backward}) {
            const int group = tree.phaseGroup(p);
            s.m_expanded[static_cast<std::size_t>(group)] = true;
            visible += static_cast<int>(mod(group).nodes.size() + mod(group).children.size()) - 1;
            entries(mod(group).children, top);
        }
    } else {
        top = mod(0).children;
    }
    // Nodes outside every module (a training step's loss and much of its backward) show anyway:
    // the budget is for opening modules on top of them, so the model's outline still opens.
    budget = std::max(budget, visible + budget / 2);
    // Largest first within each level, levels in order: the outline of the model opens first.
    auto largestFirst = [&](std::vector<int>& list) {
        std::stable_sort(list.begin(), list.end(), [&](int a, int b) { return total(a) > total(b); });
    };
    largestFirst(top);
    std::deque<int> queue(top.begin(), top.end());
    while (!queue.empty()) {
        const int m = queue.front();
        queue.pop_front();
        const int other = twin(m);
        int grows = static_cast<int>(mod(m).nodes.size() + mod(m).children.size()) - 1;
        if (other >= 0)
            grows += static_cast<int>(mod(other).nodes.size() + mod(other).children.size()) - 1;
        // A lone child adds nothing to look at: always open through it.
        if (grows > 0 && visible + grows > budget)
            continue;
        s.m_expanded[static_cast<std::size_t>(m)] = true;
        if (other >= 0)
            s.m_expanded[static_cast<std::size_t>(other)] = true;
        visible += grows;
        std::vector<int> kids(mod(m).children.begin(), mod(m).children.end());
        if (other >= 0)
            entries(mod(other).children, kids);
        largestFirst(kids);
        if (grows <= 0)
            queue.insert(queue.begin(), kids.begin(), kids.end());
        else
            queue.insert(queue.end(), kids.begin(), kids.end());
    }
    return s;
}

CollapseState CollapseState::allExpanded(const ModuleTree& tree)
{
    CollapseState s(tree);
    std::fill(s.m_expanded.begin(), s.m_expanded.end(), true);
    return s;
}

void CollapseState::expand(const ModuleTree& tree, int module)
{
    for (int m = module; m >= 0; m = tree.module(m).parent)
        m_expanded[static_cast<std::size_t>(m)] = true;
}

void CollapseState::collapse(int module)
{
    if (module > 0)
        m_expanded[static_cast<std::size_t>(module)] = false;
}

int CollapseState::hiddenBy(const ModuleTree& tree, int node) const
{
    int hidden = -1;
    for (int m = tree.moduleOf(node); m > 0; m = tree.module(m).parent)
        if (!m_expanded[static_cast<std::size_t>(m)])
            hidden = m;  // keep climbing: the topmost collapsed one is the box shown
    return hidden;
}

bool CollapseState::reveal(const ModuleTree& tree, int node)
{
    bool changed = false;
    for (int m = tree.moduleOf(node); m > 0; m = tree.module(m).parent)
        if (!m_expanded[static_cast<std::size_t>(m)]) {
            m_expanded[static_cast<std::size_t>(m)] = true;
            changed = true;
        }
    return changed;
}

int CollapseState::visibleCount(const ModuleTree& tree) const
{
    int count = 0;
    std::vector<int> stack{0};
    while (!stack.empty()) {
        const auto& m = tree.module(stack.back());
        stack.pop_back();
        count += static_cast<int>(m.nodes.size());
        for (int c : m.children) {
            if (m_expanded[static_cast<std::size_t>(c)])
                stack.push_back(c);
            else
                ++count;
        }
    }
    return count;
}

}  // namespace ps::graph
