#include "compare/RunDiffPrinter.h"

#include <iomanip>
#include <sstream>

namespace ps::compare {

namespace {

using nlohmann::json;

std::string show(const json& value)
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
    for (const Difference& d : list)
        out << "    " << d.what << ": " << d.before << " -> " << d.after << '\n';
}

/// A node of side b's graph by its index: "addmm_1 (addmm)".
std::string nodeWords(const json& graph, int index)
{
    if (!graph.is_object() || !graph.contains("node_list") || !graph["node_list"].is_array()
        || index >= static_cast<int>(graph["node_list"].size()))
        return "node " + std::to_string(index);
    const json& node = graph["node_list"][static_cast<std::size_t>(index)];
    std::string target = node.value("target", std::string());
    if (target.rfind("aten.", 0) == 0)
        target = target.substr(5);
    if (target.size() > 8 && target.compare(target.size() - 8, 8, ".default") == 0)
        target.resize(target.size() - 8);
    const std::string name = node.value("name", std::string());
    return target.empty() || target == name ? name : name + " (" + target + ")";
}

void printGraph(const GraphDiff& g, const json& graphB, std::ostream& out)
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
    for (const auto& [from, to] : g.renames())
        out << "    module " << from << " is now " << to << '\n';
    std::size_t shown = 0;
    for (const NodeChange& c : g.changed()) {
        if (++shown > 12) {
            out << "    ... and " << g.changed().size() - 12 << " more changed nodes\n";
            break;
        }
        out << "    ~ " << nodeWords(graphB, c.b) << ':';
        for (const FieldChange& f : c.fields)
            out << ' ' << f.field << ' ' << f.before << " -> " << f.after << ';';
        out << '\n';
    }
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
        if (s.status == "same")
            continue;
        out << "    " << s.status << ' ' << (s.title.empty() ? s.kind : s.title) << " (+" << s.added << " -"
            << s.removed << " lines)\n";
        for (std::size_t i = 0; i < s.preview.size() && i < 6; ++i)
            out << "      " << s.preview[i].substr(0, 110) << '\n';
    }
    for (const MetadataChange& m : code.metadata())
        out << "    metadata " << m.name << ": " << (m.before.empty() ? "absent" : m.before) << " -> "
            << (m.after.empty() ? "absent" : m.after) << '\n';
    int same = 0;
    for (const KernelChange& k : code.kernels()) {
        if (k.status == "same") {
            ++same;
            continue;
        }
        out << "    kernel " << k.status << ':';
        for (const std::string& n : k.a)
            out << " -" << n;
        for (const std::string& n : k.b)
            out << " +" << n;
        out << " (" << k.nodes << " nodes)\n";
    }
    if (!code.kernels().empty())
        out << "    kernels: " << same << " same, " << code.kernelsChanged() << " differ\n";
}

}  // namespace

void RunDiffPrinter::print(const RunDiff& diff, const RunSide& a, const RunSide& b, std::ostream& out)
{
    out << (diff.equivalent() ? "equivalent: " : "differ: ") << a.label << " vs " << b.label << '\n';
    if (!diff.why().empty()) {
        out << "why:\n";
        int n = 0;
        for (const std::string& w : diff.why())
            out << "  " << ++n << ". " << w << '\n';
    }
    for (const CaptureComparison& c : diff.captures()) {
        out << "capture " << c.name << ": " << (c.equivalent ? "equivalent" : "differs") << " (" << c.statusA << " | "
            << c.statusB << ")\n";
        printDifferences("inputs", c.inputs, out);
        printDifferences("options", c.options, out);
        const json& capsB = b.report.contains("captures") ? b.report["captures"] : json();
        const json graphB = c.indexB >= 0 && capsB.is_array() && c.indexB < static_cast<int>(capsB.size())
            ? capsB[static_cast<std::size_t>(c.indexB)].value("graph", json())
            : json();
        printGraph(c.graph, graphB, out);
        printCode(c.code, out);
        printDifferences("cache", c.cache, out);
        const json& va = c.verify["a"];
        const json& vb = c.verify["b"];
        out << "  verify: " << show(va["status"]) << " (" << show(va["verdict"]) << ") | " << show(vb["status"]) << " ("
            << show(vb["verdict"]) << ")\n";
        std::string timings;
        for (const char* key : {"precompile", "load", "call", "call_eager"})
            if (c.timings.contains(key))
                timings += std::string(timings.empty() ? "" : ", ") + key + " " + show(c.timings[key]["a"]) + " | "
                    + show(c.timings[key]["b"]);
        if (!timings.empty())
            out << "  timings (s): " << timings << '\n';
    }
}

}  // namespace ps::compare
