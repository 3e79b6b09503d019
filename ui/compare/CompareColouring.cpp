#include "ui/compare/CompareColouring.h"

#include "graph/ModuleTree.h"
#include "ui/compare/CompareViewportSync.h"
#include "ui/compare/DiffColours.h"
#include "ui/graph/GraphView.h"
#include "ui/graph/LensPalette.h"
#include "ui/graph/ModuleItem.h"

#include <unordered_map>

namespace ps::ui {

void CompareColouring::clear()
{
    for (int k = 0; k < 2; ++k) {
        m_status[k].clear();
        m_renames[k].clear();
        m_modules[k].clear();
        m_counterpart[k].clear();
        m_trees[k] = nullptr;
    }
}

void CompareColouring::set(std::vector<Status> status[2], std::map<std::string, std::string> renames)
{
    clear();
    for (const auto& [from, to] : renames)
        m_renames[1].emplace(to, from);
    m_renames[0] = std::move(renames);
    for (int k = 0; k < 2; ++k)
        m_status[k] = std::move(status[k]);
}

void CompareColouring::update(const GraphView* views[2])
{
    const graph::ModuleTree* trees[2] = {views[0]->moduleTree(), views[1]->moduleTree()};
    if (trees[0] == m_trees[0] && trees[1] == m_trees[1])
        return;
    for (int k = 0; k < 2; ++k) {
        m_trees[k] = trees[k];
        m_modules[k].clear();
        if (!trees[k])
            continue;
        const graph::ModuleTree& tree = *trees[k];
        auto& flags = m_modules[k];
        flags.assign(tree.modules().size(), ModuleFlags{});
        for (std::size_t n = 0; n < m_status[k].size(); ++n) {
            const Status s = m_status[k][n];
            for (int m = tree.moduleOf(static_cast<int>(n)); m >= 0; m = tree.module(m).parent) {
                ModuleFlags& f = flags[static_cast<std::size_t>(m)];
                ++f.total;
                f.only += s == Status::Only;
                f.differ += s != Status::Same;
            }
        }
    }
    for (int k = 0; k < 2; ++k) {
        m_counterpart[k].assign(trees[k] ? trees[k]->modules().size() : 0, -1);
        if (!trees[k] || !trees[1 - k])
            continue;
        for (std::size_t m = 1; m < trees[k]->modules().size(); ++m)
            m_counterpart[k][m] = trees[1 - k]->find(
                CompareViewportSync::mapPath(m_renames[k], trees[k]->module(static_cast<int>(m)).path));
    }
}

CompareColouring::Status CompareColouring::status(int side, int node) const
{
    const auto& s = m_status[side];
    return node >= 0 && node < static_cast<int>(s.size()) ? s[static_cast<std::size_t>(node)] : Status::Same;
}

QColor CompareColouring::nodeColour(int side, int node) const
{
    switch (status(side, node)) {
    case Status::Only:
        return side == 1 ? DiffColours::added() : DiffColours::removed();
    case Status::Changed:
        return DiffColours::changed();
    case Status::Same:
        break;
    }
    return QColor();
}

QColor CompareColouring::moduleColour(int side, int module) const
{
    const auto& flags = m_modules[side];
    if (module < 0 || module >= static_cast<int>(flags.size()))
        return QColor();
    const ModuleFlags& f = flags[static_cast<std::size_t>(module)];
    if (f.total > 0 && f.only == f.total)
        return side == 1 ? DiffColours::added() : DiffColours::removed();
    if (f.differ > 0)
        return DiffColours::changed();
    const int other = 1 - side;
    const int twin = module < static_cast<int>(m_counterpart[side].size())
        ? m_counterpart[side][static_cast<std::size_t>(module)]
        : -1;
    if (twin >= 0 && twin < static_cast<int>(m_modules[other].size())
        && m_modules[other][static_cast<std::size_t>(twin)].differ > 0)
        return DiffColours::changed();
    return QColor();
}

std::map<int, QColor> CompareColouring::fillsFor(int side, const GraphView& view, const QPalette& palette) const
{
    std::map<int, QColor> fills;
    const QColor plain = LensPalette::colors(std::string(), palette).fill;
    std::unordered_map<int, QColor> byModule;
    for (int n = 0; n < static_cast<int>(m_status[side].size()); ++n) {
        const GraphBoxItem* box = view.boxOfNode(n);
        if (!box)
            continue;
        QColor colour;
        if (box->type() == ModuleItem::Type) {
            const int module = static_cast<const ModuleItem*>(box)->module();
            auto it = byModule.find(module);
            if (it == byModule.end())
                it = byModule.emplace(module, moduleColour(side, module)).first;
            colour = it->second;
        } else {
            colour = nodeColour(side, n);
        }
        fills.emplace(n, colour.isValid() ? colour : plain);
    }
    return fills;
}

}  // namespace ps::ui
