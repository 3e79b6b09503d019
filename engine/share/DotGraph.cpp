#include "share/DotGraph.h"

#include "share/LensValues.h"
#include "share/MarkupText.h"

#include "graph/GraphModel.h"
#include "graph/ModuleTree.h"
#include "model/Capture.h"
#include "model/JsonFields.h"

#include <cmath>
#include <cstdio>

namespace ps::share {

namespace {

using graph::GraphModel;
using graph::GraphNode;
using graph::Module;
using graph::ModuleTree;

/// The length of the valid UTF-8 sequence at `at`, 0 when there is none.
std::size_t sequenceAt(std::string_view s, std::size_t at)
{
    const auto byte = [&](std::size_t i) { return static_cast<unsigned char>(s[i]); };
    const unsigned char c = byte(at);
    std::size_t length = 0;
    unsigned lowest = 0;
    if (c < 0x80)
        return 1;
    if (c >= 0xc2 && c <= 0xdf) {
        length = 2;
        lowest = 0x80;
    } else if (c >= 0xe0 && c <= 0xef) {
        length = 3;
        lowest = 0x800;
    } else if (c >= 0xf0 && c <= 0xf4) {
        length = 4;
        lowest = 0x10000;
    } else {
        return 0;
    }
    if (at + length > s.size())
        return 0;
    unsigned code = c & (0x7f >> length);
    for (std::size_t k = 1; k < length; ++k) {
        if ((byte(at + k) & 0xc0) != 0x80)
            return 0;
        code = (code << 6) | (byte(at + k) & 0x3f);
    }
    if (code < lowest || code > 0x10ffff || (code >= 0xd800 && code <= 0xdfff))
        return 0;
    return length;
}

std::string moduleLabel(const Module& m)
{
    switch (m.role) {
    case Module::Role::PhaseGroup:
        return m.name;
    case Module::Role::Gradients:
        return "[gradients]";
    case Module::Role::Outside:
        return "[outside]";
    case Module::Role::Model:
        break;
    }
    return m.type.empty() ? m.modelPath : m.modelPath + " (" + m.type + ")";
}

std::string nodeLabel(const GraphNode& n)
{
    std::string op;
    if (n.op == "placeholder")
        op = n.kind == graph::NodeKind::Other
            ? std::string("placeholder")
            : std::string(toString(n.kind)) + (n.qualname.empty() ? "" : " " + n.qualname);
    else if (n.op == "get_attr")
        op = "constant" + (n.qualname.empty() ? "" : " " + n.qualname);
    else if (n.op == "output")
        op = "output";
    else
        op = n.target.empty() ? n.op : n.target;
    std::string label = n.name;
    if (op != n.name)
        label += "\n" + op;
    const std::string shape = n.shape + (n.dtype.empty() ? "" : (n.shape.empty() ? "" : " ") + n.dtype);
    if (!shape.empty())
        label += "\n" + shape;
    return label;
}

std::string tooltipOf(const GraphModel& g, int node)
{
    const GraphNode& n = g.nodes()[static_cast<std::size_t>(node)];
    if (const auto* f = g.sourceFrame(node))
        return f->file + ":" + std::to_string(f->line) + (f->code.empty() ? "" : "  " + f->code);
    if (n.sourceLine > 0)
        return n.sourceFile + ":" + std::to_string(n.sourceLine);
    return n.modulePath;
}

/// White at 0 to the lens's colour at 1 (the Model Explorer export's gradient ends), "#rrggbb".
std::string rampColour(graph::MeasuredLens::Measure measure, double position)
{
    int end[3] = {0xd3, 0x2f, 0x2f};  // time
    if (measure == graph::MeasuredLens::Measure::Error)
        end[0] = 0x7b, end[1] = 0x1f, end[2] = 0xa2;
    else if (measure == graph::MeasuredLens::Measure::Memory)
        end[0] = 0x15, end[1] = 0x65, end[2] = 0xc0;
    char out[8];
    const auto mix = [&](int c) { return static_cast<int>(std::lround(255 + (c - 255) * position)); };
    std::snprintf(out, sizeof out, "#%02x%02x%02x", mix(end[0]), mix(end[1]), mix(end[2]));
    return out;
}

class Writer {
public:
    Writer(const GraphModel& g, const ModuleTree& tree, std::string prefix, std::string& out,
        const LensValues::Lens* lens = nullptr)
        : m_g(g), m_tree(tree), m_prefix(std::move(prefix)), m_out(out), m_lens(lens)
    { }

    std::size_t painted() const { return m_painted; }

    void module(int id, const std::string& indent)
    {
        const Module& m = m_tree.module(id);
        for (int node : m.nodes)
            this->node(node, indent);
        for (int child : m.children) {
            const Module& c = m_tree.module(child);
            m_out += indent + "subgraph " + DotGraph::quoted("cluster_" + m_prefix + c.path) + " {\n";
            std::string label = moduleLabel(c);
            if (m_lens)
                if (const auto v = m_lens->values.module(m_tree, child))
                    label += "\n" + graph::MeasuredLens::format(m_lens->measure, *v);
            m_out += indent + "    label=" + DotGraph::quoted(label) + ";\n";
            module(child, indent + "    ");
            m_out += indent + "}\n";
        }
    }

    void edges(const std::string& indent, std::size_t& count)
    {
        const auto& nodes = m_g.nodes();
        for (const auto& n : nodes)
            for (int from : n.inputs) {
                m_out += indent + id(nodes[static_cast<std::size_t>(from)].name) + " -> " + id(n.name) + ";\n";
                ++count;
            }
    }

private:
    std::string id(const std::string& name) const { return DotGraph::quoted(m_prefix + name); }

    void node(int index, const std::string& indent)
    {
        const GraphNode& n = m_g.nodes()[static_cast<std::size_t>(index)];
        std::string label = nodeLabel(n);
        std::string fill;
        if (const auto value = m_lens ? m_lens->values.node(index) : std::nullopt) {
            ++m_painted;
            label += "\n" + m_lens->name + " " + graph::MeasuredLens::format(m_lens->measure, *value);
            fill = rampColour(m_lens->measure, m_lens->values.position(*value));
        }
        if (n.violation)
            fill = "#f4b4b4";
        else if (fill.empty() && (n.op == "placeholder" || n.op == "get_attr"))
            fill = "#eeeeee";
        m_out += indent + id(n.name) + " [label=" + DotGraph::quoted(label);
        if (const std::string tip = tooltipOf(m_g, index); !tip.empty())
            m_out += ", tooltip=" + DotGraph::quoted(tip);
        if (!fill.empty())
            m_out += ", fillcolor=\"" + fill + "\"";
        m_out += "];\n";
    }

    const GraphModel& m_g;
    const ModuleTree& m_tree;
    std::string m_prefix;
    std::string& m_out;
    const LensValues::Lens* m_lens = nullptr;
    std::size_t m_painted = 0;
};

}  // namespace

std::string DotGraph::quoted(std::string_view text)
{
    std::string out = "\"";
    out.reserve(text.size() + 2);
    for (std::size_t i = 0; i < text.size();) {
        const char c = text[i];
        const std::size_t length = sequenceAt(text, i);
        if (length == 0) {
            out += MarkupText::kReplacement;
            ++i;
            continue;
        }
        if (c == '"' || c == '\\') {
            out += '\\';
            out += c;
        } else if (c == '\n') {
            out += "\\n";
        } else if (length == 1 && (static_cast<unsigned char>(c) < 0x20 || c == 0x7f)) {
            out += MarkupText::kReplacement;
        } else {
            out.append(text.substr(i, length));
        }
        i += length;
    }
    return out + "\"";
}

DotGraph::Result DotGraph::write(
    const std::string& label, const std::vector<Entry>& entries, std::optional<graph::MeasuredLens::Measure> lens)
{
    Result result;
    std::string body;
    std::string edges;
    const bool several = entries.size() > 1;
    for (const auto& entry : entries) {
        if (!entry.capture)
            continue;
        const auto& json = entry.capture->json;
        const GraphModel g = GraphModel::fromJson(
            model::JsonFields::member(json, "graph"), model::JsonFields::member(json, "lowering"));
        if (g.empty())
            continue;
        const ModuleTree tree = ModuleTree::build(g);
        const std::string prefix = several ? entry.name + "/" : std::string();
        std::optional<LensValues::Lens> measured;
        if (lens)
            for (auto& l : LensValues(g, *entry.capture).lenses())
                if (l.measure == *lens)
                    measured = std::move(l);
        Writer writer(g, tree, prefix, body, measured ? &*measured : nullptr);
        std::string indent = "    ";
        if (several) {
            body += indent + "subgraph " + quoted("cluster_" + prefix) + " {\n";
            body += indent + "    label=" + quoted(entry.name + " (" + entry.capture->backend + ")") + ";\n";
            indent += "    ";
        }
        writer.module(ModuleTree::root(), indent);
        result.painted += writer.painted();
        if (several)
            body += "    }\n";
        Writer(g, tree, prefix, edges).edges("    ", result.edges);
        result.nodes += g.nodes().size();
        result.captures.push_back(entry.name);
    }
    result.text = "digraph " + quoted(label) + " {\n"
        + "    graph [rankdir=TB, fontname=\"Helvetica\", fontsize=10, style=rounded];\n"
        + "    node [shape=box, style=\"rounded,filled\", fillcolor=\"#ffffff\", fontname=\"Helvetica\", fontsize=9];\n"
        + "    edge [arrowsize=0.6];\n" + body + edges + "}\n";
    return result;
}

}  // namespace ps::share
