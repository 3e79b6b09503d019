#pragma once

// Finds nodes by name, op, module, shape or source: case-insensitive substring matches, in graph
// order. A shape query ignores spaces and brackets ("8,32" finds "[8, 32]"). A source query
// matches a frame of the node's stack as "file.py:LINE function code" ("resnet.py:268",
// "self.conv1"), or its source line where the report has no stacks; "any" leaves source out
// (every node of a model shares its outer frames).

#include <string>
#include <vector>

namespace ps::graph {

class GraphModel;

enum class SearchField { Any, Name, Op, Module, Shape, Source };

class GraphSearch {
public:
    static std::vector<int> find(
        const GraphModel& graph, const std::string& query, SearchField field = SearchField::Any);
    /// "name", "op", "module", "shape", "source"; anything else is Any.
    static SearchField fieldFromName(const std::string& name);
};

}  // namespace ps::graph
