#include "graph/GraphSearch.h"

#include "graph/GraphModel.h"

#include <algorithm>
#include <cctype>

namespace ps::graph {

namespace {

std::string lower(const std::string& s)
{
    std::string out(s);
    std::transform(out.begin(), out.end(), out.begin(), [](unsigned char c) { return std::tolower(c); });
    return out;
}

std::string shapeKey(const std::string& s)
{
    std::string out;
    for (char c : s)
        if (c != ' ' && c != '[' && c != ']' && c != '(' && c != ')')
            out += static_cast<char>(std::tolower(static_cast<unsigned char>(c)));
    return out;
}

bool has(const std::string& text, const std::string& needle)
{
    return !text.empty() && lower(text).find(needle) != std::string::npos;
}

std::string baseName(const std::string& path)
{
    const auto slash = path.find_last_of("/\\");
    return slash == std::string::npos ? path : path.substr(slash + 1);
}

/// Which frames of the graph a source query matches, each frame's text made once per search.
std::vector<char> framesMatching(const GraphModel& graph, const std::string& q)
{
    std::vector<char> out;
    out.reserve(graph.frames().size());
    for (const auto& f : graph.frames()) {
        const std::string text
            = lower(baseName(f.file) + ":" + std::to_string(f.line) + " " + f.function + " " + f.code);
        out.push_back(text.find(q) != std::string::npos || has(f.file, q));
    }
    return out;
}

}  // namespace

SearchField GraphSearch::fieldFromName(const std::string& name)
{
    if (name == "name")
        return SearchField::Name;
    if (name == "op")
        return SearchField::Op;
    if (name == "module")
        return SearchField::Module;
    if (name == "shape")
        return SearchField::Shape;
    if (name == "source")
        return SearchField::Source;
    return SearchField::Any;
}

std::vector<int> GraphSearch::find(const GraphModel& graph, const std::string& query, SearchField field)
{
    std::vector<int> out;
    const std::string q = lower(query);
    const std::string qs = shapeKey(query);
    if (q.find_first_not_of(' ') == std::string::npos)
        return out;
    const auto& nodes = graph.nodes();
    const std::vector<char> frames = field == SearchField::Source ? framesMatching(graph, q) : std::vector<char>();
    for (std::size_t i = 0; i < nodes.size(); ++i) {
        const auto& n = nodes[i];
        const bool name = has(n.name, q) || has(n.qualname, q);
        const bool op = has(n.target, q);
        const bool module = has(n.modulePath, q) || has(n.moduleType, q);
        const bool shape = !qs.empty() && !n.shape.empty() && shapeKey(n.shape).find(qs) != std::string::npos;
        bool hit = false;
        switch (field) {
        case SearchField::Name:
            hit = name;
            break;
        case SearchField::Op:
            hit = op;
            break;
        case SearchField::Module:
            hit = module;
            break;
        case SearchField::Shape:
            hit = shape;
            break;
        case SearchField::Source:
            hit = std::any_of(
                      n.stack.begin(), n.stack.end(), [&](int f) { return frames[static_cast<std::size_t>(f)]; })
                || (n.stack.empty() && n.sourceLine > 0
                    && has(baseName(n.sourceFile) + ":" + std::to_string(n.sourceLine), q));
            break;
        case SearchField::Any:
            hit = name || op || module || shape;
            break;
        }
        if (hit)
            out.push_back(static_cast<int>(i));
    }
    return out;
}

}  // namespace ps::graph
