#pragma once

// The nodes a selection reads from and feeds, up to `depth` edges away (breadth first).

#include <vector>

namespace ps::graph {

class GraphModel;

struct Neighbourhood {
    std::vector<int> upstream;    ///< inputs, inputs of inputs, ... (not the selection itself)
    std::vector<int> downstream;  ///< users, users of users, ...

    static Neighbourhood around(const GraphModel& graph, const std::vector<int>& nodes, int depth);
};

}  // namespace ps::graph
