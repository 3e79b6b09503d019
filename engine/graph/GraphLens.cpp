#include "graph/GraphLens.h"

#include "graph/GraphModel.h"
#include "graph/ModuleTree.h"

#include <algorithm>
#include <cstdlib>
#include <optional>
#include <unordered_map>

namespace ps::graph {

namespace {

bool starts(const std::string& s, const char* prefix)
{
    return s.rfind(prefix, 0) == 0;
}

bool anyOf(const std::string& s, std::initializer_list<const char*> names)
{
    for (const char* n : names)
        if (s == n)
            return true;
    return false;
}

// "[8, 32]" -> {8, 32}; nullopt when a size is symbolic or the text is not a list.
std::optional<std::vector<long long>> ints(const std::string& text)
{
    if (text.size() < 2 || text.front() != '[' || text.back() != ']')
        return std::nullopt;
    std::vector<long long> out;
    const char* p = text.c_str() + 1;
    while (*p && *p != ']') {
        while (*p == ' ' || *p == ',')
            ++p;
        if (*p == ']')
            break;
        char* end = nullptr;
        const long long v = std::strtoll(p, &end, 10);
        if (end == p)
            return std::nullopt;
        out.push_back(v);
        p = end;
    }
    return out;
}

// "contiguous", "strided", or "" when unknown.
std::string layoutOf(const GraphNode& n)
{
    const auto shape = ints(n.shape), stride = ints(n.stride);
    if (!shape || !stride || shape->size() != stride->size())
        return {};
    long long expect = 1;
    for (std::size_t i = shape->size(); i-- > 0;) {
        if ((*shape)[i] != 1 && (*stride)[i] != expect)
            return "strided";
        expect *= (*shape)[i];
    }
    return "contiguous";
}

/// A module's colour under the module lens: its model path, so that a training step's forward
/// and backward copies of one nn.Module ("model.0", "backward:model.0") share it; a phase
/// group or the gradient bundle by its own path.
std::string moduleKey(const ModuleTree& tree, int module)
{
    const auto& m = tree.module(module);
    return m.modelPath.empty() ? m.path : m.modelPath;
}

std::string word(std::optional<LensCategory> category)
{
    return category ? std::string(toString(*category)) : std::string();
}

/// Lens::Kind: an input by its sort, a computation by its phase; nullopt for a kind this build
/// does not know.
std::optional<LensCategory> kindCategory(const GraphNode& n)
{
    switch (n.kind) {
    case NodeKind::Parameter:
        return LensCategory::Parameter;
    case NodeKind::Buffer:
        return LensCategory::Buffer;
    case NodeKind::Input:
        return LensCategory::Input;
    case NodeKind::Constant:
        return LensCategory::Constant;
    case NodeKind::Output:
        return LensCategory::Output;
    case NodeKind::Compute:
        return n.phase == Phase::Backward ? LensCategory::Backward : LensCategory::Forward;
    case NodeKind::Other:
        break;
    }
    return std::nullopt;
}

}  // namespace

std::optional<LensCategory> GraphLens::opKind(const std::string& target)
{
    if (!starts(target, "aten.") && !starts(target, "prims."))
        return target.empty() ? std::nullopt : std::optional(LensCategory::Other);
    std::string op = target.substr(target.find('.') + 1);
    if (auto dot = op.find('.'); dot != std::string::npos)
        op.resize(dot);
    if (op.size() > 9 && op.compare(op.size() - 9, 9, "_backward") == 0 && op != "threshold_backward")
        op.resize(op.size() - 9);
    if (anyOf(op, {"mm", "addmm", "bmm", "baddbmm", "matmul", "linear", "addbmm", "dot", "mv", "einsum"})
        || starts(op, "_scaled_dot_product") || starts(op, "scaled_dot_product"))
        return LensCategory::Matmul;
    if (starts(op, "convolution") || starts(op, "conv") || starts(op, "_convolution"))
        return LensCategory::Convolution;
    if (op.find("norm") != std::string::npos || anyOf(op, {"_softmax", "_log_softmax", "softmax", "log_softmax"}))
        return LensCategory::Normalization;
    if (anyOf(op,
            {"sum", "mean", "amax", "amin", "max", "min", "var", "var_mean", "std", "prod", "argmax", "argmin",
                "logsumexp", "cumsum", "any", "all", "norm"}))
        return LensCategory::Reduction;
    if (anyOf(op,
            {"view", "reshape", "_unsafe_view", "t", "transpose", "permute", "expand", "squeeze", "unsqueeze", "slice",
                "select", "as_strided", "alias", "detach", "split", "split_with_sizes", "unbind", "view_as", "flatten",
                "unflatten", "narrow", "diagonal", "lift_fresh"}))
        return LensCategory::View;
    if (anyOf(op,
            {"clone", "copy", "copy_", "_to_copy", "cat", "stack", "gather", "scatter", "scatter_add", "index",
                "index_put", "index_select", "embedding", "embedding_dense", "new_zeros", "new_empty", "zeros", "ones",
                "full", "empty", "zeros_like", "ones_like", "full_like", "empty_like", "arange", "constant_pad_nd",
                "where", "masked_fill", "fill"}))
        return LensCategory::Memory;
    if (starts(op, "rand") || anyOf(op, {"bernoulli", "native_dropout", "normal", "uniform", "dropout"}))
        return LensCategory::Random;
    return LensCategory::Elementwise;
}

std::string GraphLens::sourceLine(const GraphModel& graph, int node, const std::string& scope)
{
    const auto& n = graph.nodes()[static_cast<std::size_t>(node)];
    auto label = [](const std::string& file, int line) {
        const auto slash = file.find_last_of("/\\");
        return (slash == std::string::npos ? file : file.substr(slash + 1)) + ":" + std::to_string(line);
    };
    for (const auto* f : graph.stackOf(node))
        if (f->line > 0 && (scope.empty() ? f->isUser() : f->package == scope))
            return label(f->file, f->line);
    if (scope.empty() && n.stack.empty() && n.sourceLine > 0)  // a report without stacks
        return label(n.sourceFile, n.sourceLine);
    return {};
}

std::vector<std::string> GraphLens::sourceScopes(const GraphModel& graph)
{
    std::unordered_map<std::string, int> counts;
    for (const auto& n : graph.nodes())
        for (int i : n.stack)
            if (const auto& p = graph.frames()[static_cast<std::size_t>(i)].package; !p.empty())
                ++counts[p];
    std::vector<std::pair<std::string, int>> sorted(counts.begin(), counts.end());
    std::sort(sorted.begin(), sorted.end(),
        [](const auto& a, const auto& b) { return a.second != b.second ? a.second > b.second : a.first < b.first; });
    std::vector<std::string> out;
    for (auto& [name, count] : sorted)
        out.push_back(name);
    return out;
}

std::string GraphLens::category(
    const GraphModel& graph, const ModuleTree& tree, int node, Lens lens, const std::string& scope)
{
    const auto& n = graph.nodes()[static_cast<std::size_t>(node)];
    switch (lens) {
    case Lens::Kind:
        return word(kindCategory(n));
    case Lens::OpKind:
        if (n.op == "placeholder" || n.op == "output" || n.op == "get_attr")
            return {};
        return word(opKind(n.target));
    case Lens::Module: {
        const int m = tree.moduleOf(node);
        return m > 0 ? moduleKey(tree, m) : std::string();
    }
    case Lens::Kernel:
        return n.kernel;
    case Lens::DtypeLayout: {
        if (n.op == "placeholder" || n.op == "output" || n.inputs.empty())
            return {};
        const std::string mine = layoutOf(n);
        bool dtype = false, layout = false;
        for (int i : n.inputs) {
            const auto& in = graph.nodes()[static_cast<std::size_t>(i)];
            if (!n.dtype.empty() && !in.dtype.empty() && in.dtype != n.dtype)
                dtype = true;
            const std::string theirs = layoutOf(in);
            if (!mine.empty() && !theirs.empty() && mine != theirs)
                layout = true;
        }
        return word(dtype ? LensCategory::DtypeChange : layout ? LensCategory::LayoutChange : LensCategory::Unchanged);
    }
    case Lens::Source:
        return sourceLine(graph, node, scope);
    case Lens::Time:
    case Lens::Error:
    case Lens::Memory:
        return {};  // numeric: MeasuredLens
    }
    return {};
}

std::string GraphLens::moduleCategory(
    const GraphModel& graph, const ModuleTree& tree, int module, Lens lens, const std::string& scope)
{
    if (lens == Lens::Module)
        return moduleKey(tree, module);
    std::unordered_map<std::string, int> counts;
    std::string best;
    int bestCount = 0;
    for (int node : tree.nodesIn(module)) {
        std::string c = category(graph, tree, node, lens, scope);
        if (c.empty() || (lens == Lens::DtypeLayout && lensCategoryFromString(c) == LensCategory::Unchanged))
            continue;
        const int k = ++counts[c];
        if (k > bestCount) {
            bestCount = k;
            best = std::move(c);
        }
    }
    return best;
}

Lens GraphLens::fromName(const std::string& name)
{
    for (Lens l : all())
        if (GraphLens::name(l) == name)
            return l;
    return Lens::Kind;
}

std::string GraphLens::name(Lens lens)
{
    switch (lens) {
    case Lens::Kind:
        return "kind";
    case Lens::OpKind:
        return "op kind";
    case Lens::Module:
        return "module";
    case Lens::Kernel:
        return "fused kernel";
    case Lens::DtypeLayout:
        return "dtype / layout change";
    case Lens::Source:
        return "source line";
    case Lens::Time:
        return "time";
    case Lens::Error:
        return "error";
    case Lens::Memory:
        return "memory";
    }
    return "kind";
}

std::vector<Lens> GraphLens::all()
{
    return {Lens::Kind, Lens::OpKind, Lens::Module, Lens::Kernel, Lens::DtypeLayout, Lens::Source, Lens::Time,
        Lens::Error, Lens::Memory};
}

bool GraphLens::numeric(Lens lens)
{
    return lens == Lens::Time || lens == Lens::Error || lens == Lens::Memory;
}

}  // namespace ps::graph
