#pragma once

// Finds nodes by name, op, module or shape: case-insensitive substring matches, in graph order.
// A shape query ignores spaces and brackets ("8,32" finds "[8, 32]").

#include <string>
#include <vector>

namespace ps::graph {

class GraphModel;

enum class SearchField { Any, Name, Op, Module, Shape };

class GraphSearch {
public:
    static std::vector<int> find(
        const GraphModel& graph, const std::string& query, SearchField field = SearchField::Any);
    /// "name", "op", "module", "shape"; anything else is Any.
    static SearchField fieldFromName(const std::string& name);
};

}  // namespace ps::graph
