#include "commands/KernelProfilePrinter.h"

#include "graph/GraphModel.h"
#include "library/core/TerminalText.h"
#include "model/JsonFields.h"

#include <algorithm>
#include <cstdio>

namespace ps::commands {

namespace {

using library::TerminalText;

std::string baseName(const std::string& path)
{
    const auto slash = path.find_last_of('/');
    return slash == std::string::npos ? path : path.substr(slash + 1);
}

// Where a node comes from: the innermost frame of its stack outside torch (a model library's line,
// resnet.py:268, or the user's), else its user source line; "" when neither is known.
std::string sourceLine(const graph::GraphModel& graph, const std::string& node)
{
    const int index = graph.indexOf(node);
    if (index < 0)
        return {};
    if (const auto* f = graph.sourceFrame(index))
        return baseName(f->file) + ":" + std::to_string(f->line);
    const auto& n = graph.nodes()[static_cast<std::size_t>(index)];
    return n.sourceLine > 0 ? baseName(n.sourceFile) + ":" + std::to_string(n.sourceLine) : std::string();
}

}  // namespace

std::string KernelProfilePrinter::duration(double us)
{
    char buf[32];
    if (us >= 1000)
        std::snprintf(buf, sizeof buf, "%.2f ms", us / 1000);
    else
        std::snprintf(buf, sizeof buf, "%.0f us", us);
    return buf;
}

void KernelProfilePrinter::print(std::ostream& out, const model::Capture& capture)
{
    if (!capture.profile)
        return;
    const auto& p = *capture.profile;
    if (p.calls == 0 || !p.error.empty()) {
        out << "    profile: " << (p.calls == 0 ? "" : "partial: ") << TerminalText::safe(p.error) << "\n";
        if (p.calls == 0)
            return;
    }
    out << "    profile: " << p.calls << " call" << (p.calls == 1 ? "" : "s");
    if (p.wallUs)
        out << ", " << duration(*p.wallUs) << " per call";
    if (p.overheadUs)
        out << " (profiler overhead " << duration(*p.overheadUs) << ")";
    else if (p.wallUs && p.profiledWallUs)
        out << " (profiler overhead within the noise)";
    out << "; kernels' self time " << duration(p.kernelsUs());
    if (p.unattributedUs)
        out << " + " << duration(*p.unattributedUs) << " unattributed";
    out << "\n";

    const auto graph = graph::GraphModel::fromJson(
        model::JsonFields::member(capture.json, "graph"), model::JsonFields::member(capture.json, "lowering"));
    std::vector<const model::KernelTime*> kernels;
    for (const auto& k : p.kernels)
        kernels.push_back(&k);
    std::stable_sort(kernels.begin(), kernels.end(), [](auto* a, auto* b) { return a->selfUs > b->selfUs; });
    if (kernels.size() > kTop)
        kernels.resize(kTop);
    for (const auto* k : kernels) {
        char time[32];
        std::snprintf(time, sizeof time, "%9s", duration(k->selfUs).c_str());
        out << "      " << time << "  " << TerminalText::safe(k->name);
        if (k->count > 1)
            out << " x" << k->count;
        std::string nodes, where;
        for (std::size_t i = 0; i < k->nodes.size(); ++i) {
            if (i < 3)
                nodes += (i ? ", " : "") + k->nodes[i];
            if (where.empty())
                where = sourceLine(graph, k->nodes[i]);
        }
        if (k->nodes.size() > 3)
            nodes += " (+" + std::to_string(k->nodes.size() - 3) + ")";
        out << "  " << (nodes.empty() ? std::string("(no graph node named)") : TerminalText::safe(nodes));
        if (!where.empty())
            out << "  " << TerminalText::safe(where);
        out << "\n";
    }
    if (p.kernels.size() > kTop)
        out << "      ... and " << p.kernels.size() - kTop << " more (--json for all)\n";
}

}  // namespace ps::commands
