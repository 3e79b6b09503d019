#include "compare/RunDiffPrinter.h"

#include "compare/DiffText.h"
#include "compare/NodeFields.h"

#include <algorithm>
#include <iomanip>
#include <map>
#include <sstream>

namespace ps::compare {

namespace {

using nlohmann::json;

std::string orDash(const json& value)
{
    if (value.is_null())
        return "-";
    if (value.is_number_float()) {
        std::ostringstream s;
        s << std::setprecision(3) << value.get<double>();
        return s.str();
    }
    return value.is_string() ? value.get<std::string>() : value.dump();
}

void printDifferences(const char* title, const std::vector<Difference>& list, std::ostream& out)
{
    if (list.empty())
        return;
    out << "  " << title << ":\n";
    for (const Difference& d : list) {
        const auto [before, after] = DiffText::values(d.before, d.after);
        out << "    " << d.what << ": " << before << " -> " << after << '\n';
    }
}

/// A node of a graph by its index, as a user names it (NodeFields::shownName); "" when there is
/// none.
std::string nodeName(const json& graph, int index)
{
    if (!graph.is_object() || !graph.contains("node_list") || !graph["node_list"].is_array() || index < 0
        || index >= static_cast<int>(graph["node_list"].size()))
        return std::string();
    return NodeFields::shownName(graph["node_list"][static_cast<std::size_t>(index)]);
}

/// What a node computes, short: "addmm", "" for a placeholder.
std::string nodeOp(const json& graph, int index)
{
    if (nodeName(graph, index).empty())
        return std::string();
    const json& node = graph["node_list"][static_cast<std::size_t>(index)];
    if (node.value("op", std::string()) != "call_function")
        return std::string();
    std::string target = node.value("target", std::string());
    if (target.rfind("aten.", 0) == 0)
        target = target.substr(5);
    if (target.size() > 8 && target.compare(target.size() - 8, 8, ".default") == 0)
        target.resize(target.size() - 8);
    return target;
}

/// "addmm_1 -> addmm_2 (addmm)": each side's name where they differ.
std::string nodeWords(const json& graphA, int a, const json& graphB, int b)
{
    const std::string na = nodeName(graphA, a);
    std::string nb = nodeName(graphB, b);
    if (nb.empty())
        nb = "node " + std::to_string(b);
    const std::string op = nodeOp(graphB, b);
    return (na.empty() || na == nb ? nb : na + " -> " + nb) + (op.empty() || op == nb ? "" : " (" + op + ")");
}

void printGraph(const GraphDiff& g, const json& graphA, const json& graphB, std::ostream& out)
{
    if (g.missing()) {
        out << "  graph: not on both sides\n";
        return;
    }
    out << "  graph: " << (g.identical() ? "same" : "differs") << " (" << g.nodesA() << " -> " << g.nodesB()
        << " nodes: " << g.added().size() << " added, " << g.removed().size() << " removed, " << g.changed().size()
        << " changed" << (g.approximate() ? "; aligned approximately" : "") << ")\n";
    for (const NodeBlock& b : g.blocks())
        out << "    " << (b.added ? "+ " : "- ") << b.count << " node" << (b.count == 1 ? "" : "s")
            << (b.module.empty() ? std::string()
                                 : " in " + b.module + (b.moduleType.empty() ? "" : " (" + b.moduleType + ")"))
            << (b.ops.empty() ? std::string() : ": " + b.ops) << '\n';
    const auto renames = g.outermostRenames();
    for (std::size_t k = 0; k < renames.size() && k < 10; ++k)
        out << "    module " << renames[k].first << " is now " << renames[k].second << '\n';
    if (renames.size() > 10)
        out << "    ... and " << renames.size() - 10 << " more modules renamed\n";
    std::size_t shown = 0;
    for (const NodeChange& c : g.changed()) {
        if (++shown > 12) {
            out << "    ... and " << g.changed().size() - 12 << " more changed nodes\n";
            break;
        }
        out << "    ~ " << nodeWords(graphA, c.a, graphB, c.b) << ": ";
        for (std::size_t k = 0; k < c.fields.size(); ++k) {
            const auto [before, after] = DiffText::values(c.fields[k].before, c.fields[k].after);
            out << (k ? "; " : "") << c.fields[k].field << ' ' << before << " -> " << after;
        }
        out << '\n';
    }
}

/// A section's first changed lines, each cut around where it differs from its counterpart (the
/// k-th "-" line of a run pairs with the k-th "+" line after it).
void printPreview(const SectionChange& s, std::ostream& out)
{
    constexpr std::size_t kLines = 6;
    constexpr std::size_t kWidth = 110;
    const std::vector<std::string>& lines = s.preview;
    std::vector<std::size_t> focus(lines.size(), 0);
    for (std::size_t i = 0; i < lines.size();) {
        std::size_t minus = i;
        while (minus < lines.size() && lines[minus].rfind('-', 0) == 0)
            ++minus;
        std::size_t plus = minus;
        while (plus < lines.size() && lines[plus].rfind('+', 0) == 0)
            ++plus;
        for (std::size_t k = 0; i + k < minus && minus + k < plus; ++k)
            focus[i + k] = focus[minus + k]
                = 1 + DiffText::firstDifference(lines[i + k].substr(1), lines[minus + k].substr(1));
        i = plus > i ? plus : i + 1;
    }
    for (std::size_t i = 0; i < lines.size() && i < kLines; ++i) {
        const std::string& line = lines[i];
        out << "      " << line.substr(0, 1)  // the sign stays
            << DiffText::clip(
                   line.substr(std::min<std::size_t>(1, line.size())), focus[i] > 0 ? focus[i] - 1 : 0, kWidth)
            << '\n';
    }
    const int more = s.added + s.removed - static_cast<int>(std::min(lines.size(), kLines));
    if (more > 0)
        out << "      ... and " << more << " more changed line" << (more == 1 ? "" : "s") << '\n';
}

void printCode(const CodeDiff& code, std::ostream& out)
{
    if (!code.present()) {
        out << "  python_code: not on both sides\n";
        return;
    }
    if (code.identical()) {
        out << "  python_code: same\n";
        return;
    }
    out << "  python_code: differs\n";
    for (const SectionChange& s : code.sections()) {
        if (s.status == Change::Same)
            continue;
        out << "    " << s.status << ' ' << (s.title.empty() ? s.kind : s.title) << " (+" << s.added << " -"
            << s.removed << " lines)\n";
        // The metadata's lines are its fields, compared one by one below.
        if (s.kind != "metadata" || code.metadata().empty())
            printPreview(s, out);
    }
    for (const MetadataChange& m : code.metadata()) {
        const auto [before, after] = DiffText::values(m.before, m.after);
        out << "    metadata " << m.name << ": " << (m.before.empty() ? "absent" : before) << " -> "
            << (m.after.empty() ? "absent" : after) << '\n';
    }
    std::map<Change, int> byStatus;
    for (const KernelChange& k : code.kernels()) {
        ++byStatus[k.status];
        if (k.status == Change::Same)
            continue;
        out << "    kernel " << k.status << ':';
        for (const std::string& n : k.a)
            out << " -" << n;
        for (const std::string& n : k.b)
            out << " +" << n;
        out << " (" << k.nodes << " node" << (k.nodes == 1 ? "" : "s") << ")\n";
    }
    if (!code.kernels().empty()) {
        out << "    kernels:";
        const char* sep = " ";
        for (const auto& [status, count] : byStatus) {
            out << sep << count << ' ' << describe(status);
            sep = ", ";
        }
        out << '\n';
    }
}

}  // namespace

void RunDiffPrinter::print(const RunDiff& diff, const RunSide& a, const RunSide& b, std::ostream& out)
{
    out << (diff.equivalent() ? "equivalent: " : "differ: ") << a.label << " vs " << b.label
        << (a.label == b.label ? " (the same run)" : "") << '\n';
    if (!diff.why().empty()) {
        out << "why:\n";
        int n = 0;
        for (const std::string& w : diff.why())
            out << "  " << ++n << ". " << w << '\n';
    }
    for (const CaptureComparison& c : diff.captures()) {
        out << "capture " << c.name << ": " << (c.equivalent ? "equivalent" : "differs") << " (status "
            << (c.statusA == c.statusB ? c.statusA : c.statusA + " -> " + c.statusB) << ")\n";
        printDifferences("inputs", c.inputs, out);
        printDifferences("options", c.options, out);
        const auto graphOf = [](const RunSide& side, int index) {
            const json& caps = side.report.contains("captures") ? side.report["captures"] : json();
            return index >= 0 && caps.is_array() && index < static_cast<int>(caps.size())
                ? caps[static_cast<std::size_t>(index)].value("graph", json())
                : json();
        };
        printGraph(c.graph, graphOf(a, c.indexA), graphOf(b, c.indexB), out);
        printCode(c.code, out);
        printDifferences("cache", c.cache, out);
        const json& va = c.verify["a"];
        const json& vb = c.verify["b"];
        out << "  verify: " << orDash(va["status"]) << " (" << orDash(va["verdict"]) << ") -> " << orDash(vb["status"])
            << " (" << orDash(vb["verdict"]) << ")\n";
        std::string timings;
        for (const char* key : {"precompile", "load", "call", "call_eager"})
            if (c.timings.contains(key))
                timings += std::string(timings.empty() ? "" : ", ") + key + " " + orDash(c.timings[key]["a"]) + " -> "
                    + orDash(c.timings[key]["b"]);
        if (!timings.empty())
            out << "  timings (s): " << timings << '\n';
        if (!c.profile.empty()) {
            out << "  time per call by module (run --profile), largest change first:\n";
            for (const ModuleTime& m : c.profile)
                out << "    " << m.describe() << '\n';
        }
    }
}

}  // namespace ps::compare
