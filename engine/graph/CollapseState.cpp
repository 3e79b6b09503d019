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
    int visible = static_cast<int>(mods[0].nodes.size() + mods[0].children.size());
    // Nodes outside every module (a training step's loss and much of its backward) show anyway:
    // the budget is for opening modules on top of them, so the model's outline still opens.
    budget = std::max(budget, visible + budget / 2);
    // Largest first within each level, levels in order: the outline of the model opens first.
    std::deque<int> queue(mods[0].children.begin(), mods[0].children.end());
    std::stable_sort(queue.begin(), queue.end(), [&](int a, int b) { return mods[a].total > mods[b].total; });
    while (!queue.empty()) {
        const int m = queue.front();
        queue.pop_front();
        const auto& mod = mods[static_cast<std::size_t>(m)];
        const int grows = static_cast<int>(mod.nodes.size() + mod.children.size()) - 1;
        // A lone child adds nothing to look at: always open through it.
        if (grows > 0 && visible + grows > budget)
            continue;
        s.m_expanded[static_cast<std::size_t>(m)] = true;
        visible += grows;
        std::vector<int> kids(mod.children.begin(), mod.children.end());
        std::stable_sort(kids.begin(), kids.end(), [&](int a, int b) { return mods[a].total > mods[b].total; });
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
