#include "graph/Neighbourhood.h"

#include "graph/GraphModel.h"

#include <algorithm>

namespace ps::graph {

namespace {

std::vector<int> walk(const GraphModel& graph, const std::vector<int>& start, int depth, bool up)
{
    const auto& nodes = graph.nodes();
    std::vector<char> seen(nodes.size(), 0);
    for (int s : start)
        if (s >= 0 && s < static_cast<int>(nodes.size()))
            seen[static_cast<std::size_t>(s)] = 1;
    std::vector<int> frontier, out;
    for (int s : start)
        if (s >= 0 && s < static_cast<int>(nodes.size()))
            frontier.push_back(s);
    for (int d = 0; d < depth && !frontier.empty(); ++d) {
        std::vector<int> next;
        for (int v : frontier)
            for (int w : up ? nodes[static_cast<std::size_t>(v)].inputs : nodes[static_cast<std::size_t>(v)].users)
                if (!seen[static_cast<std::size_t>(w)]) {
                    seen[static_cast<std::size_t>(w)] = 1;
                    next.push_back(w);
                    out.push_back(w);
                }
        frontier.swap(next);
    }
    std::sort(out.begin(), out.end());
    return out;
}

}  // namespace

Neighbourhood Neighbourhood::around(const GraphModel& graph, const std::vector<int>& nodes, int depth)
{
    return {walk(graph, nodes, depth, true), walk(graph, nodes, depth, false)};
}

}  // namespace ps::graph
