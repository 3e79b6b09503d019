#include "commands/NodeStackPrinter.h"

#include "graph/GraphModel.h"
#include "library/core/TerminalText.h"
#include "model/JsonFields.h"

#include <nlohmann/json.hpp>

#include <ostream>

namespace ps::commands {

namespace {

using json = nlohmann::json;

using library::TerminalText;

std::string location(const graph::StackFrame& f)
{
    return f.line > 0 ? f.file + ":" + std::to_string(f.line) : f.file;
}

json frameJson(const graph::StackFrame& f)
{
    json j = {{"file", f.file}, {"line", f.line > 0 ? json(f.line) : json()}, {"function", f.function},
        {"code", f.code.empty() ? json() : json(f.code)}, {"owner", toString(f.owner)}};
    if (!f.package.empty())
        j["package"] = f.package;
    return j;
}

void printHuman(const json& capture, const graph::GraphModel& graph, int index, std::ostream& out)
{
    const auto& n = graph.nodes()[static_cast<std::size_t>(index)];
    const std::string name = model::JsonFields::text(capture, "name");
    out << "capture " << TerminalText::safe(name.empty() ? "?" : name) << "  node " << TerminalText::safe(n.name)
        << "\n"
        << "  op      " << TerminalText::safe(n.op)
        << (n.target.empty() ? std::string() : " " + TerminalText::safe(n.target)) << "\n";
    if (!n.shape.empty() || !n.dtype.empty())
        out << "  shape   " << TerminalText::safe(n.shape)
            << (n.dtype.empty() ? std::string() : "  " + TerminalText::safe(n.dtype)) << "\n";
    if (!n.modulePath.empty())
        out << "  module  " << TerminalText::safe(n.modulePath) << " (" << TerminalText::safe(n.moduleType) << ")\n";
    if (n.phase != graph::Phase::None)
        out << "  phase   " << toString(n.phase) << "\n";
    const auto stack = graph.stackOf(index);
    if (stack.empty()) {
        out << "  stack   "
            << (graph.frames().empty() ? "not recorded (a report made before stacks were)"
                                       : "none (precompile made this node itself)")
            << "\n";
    } else {
        out << "  stack, innermost first:\n";
        for (const auto* f : stack)
            out << "    " << TerminalText::safe(location(*f)) << "  " << TerminalText::safe(f->function)
                << (f->code.empty() ? std::string() : "  " + TerminalText::safe(f->code)) << "\n";
    }
    if (!graph.stackError().empty())
        out << "  (the stacks are damaged: " << TerminalText::safe(graph.stackError()) << ")\n";
}

}  // namespace

int NodeStackPrinter::print(
    const json& report, const std::string& node, bool asJson, std::ostream& out, std::ostream& err)
{
    json found = json::array();
    int count = 0;
    const json& captures = model::JsonFields::member(report, "captures");
    if (captures.is_array()) {
        for (std::size_t c = 0; c < captures.size(); ++c) {
            const json& capture = captures[c];
            const graph::GraphModel graph = graph::GraphModel::fromJson(
                model::JsonFields::member(capture, "graph"), model::JsonFields::member(capture, "lowering"));
            const int index = graph.indexOf(node);
            if (index < 0)
                continue;
            if (count++)
                out << (asJson ? "" : "\n");
            if (!asJson) {
                printHuman(capture, graph, index, out);
                continue;
            }
            json stack = json::array();
            for (const auto* f : graph.stackOf(index))
                stack.push_back(frameJson(*f));
            const json& list = model::JsonFields::member(model::JsonFields::member(capture, "graph"), "node_list");
            json entry = {{"capture", c}, {"name", model::JsonFields::text(capture, "name")}, {"stack", stack}};
            for (const auto& j : list)
                if (j.is_object() && model::JsonFields::text(j, "name") == node)
                    entry["node"] = j;
            if (!graph.stackError().empty())
                entry["stack_error"] = graph.stackError();
            found.push_back(std::move(entry));
        }
    }
    if (count == 0) {
        err << "precompile-studio: no capture of this run has a node named " << TerminalText::safe(node)
            << " (nodes are named as the Graph tab names them: convolution, addmm_3)\n";
        return 1;
    }
    if (asJson)
        out << found.dump(2, ' ', false, json::error_handler_t::replace) << "\n";
    return 0;
}

}  // namespace ps::commands
