#include "commands/GraphExport.h"

#include "library/core/ArtifactLibrary.h"
#include "library/core/LibraryLocator.h"
#include "library/core/TerminalText.h"
#include "model/Report.h"
#include "share/DotGraph.h"
#include "share/ModelExplorerGraph.h"

#include <nlohmann/json.hpp>

#include <algorithm>
#include <fstream>
#include <optional>
#include <set>

namespace ps::commands {

namespace {

using json = nlohmann::json;

using library::TerminalText;

bool endsWith(const std::string& text, std::string_view end)
{
    return text.size() >= end.size() && text.compare(text.size() - end.size(), end.size(), end) == 0;
}

/// Writes `text` to `path`; false (and a message) when it cannot.
bool writeFile(const std::string& path, const std::string& text, std::ostream& err)
{
    std::ofstream file(path, std::ios::binary | std::ios::trunc);
    file << text;
    file.close();
    if (!file) {
        err << "precompile-studio: cannot write " << TerminalText::safe(path) << "\n";
        return false;
    }
    return true;
}

std::string dump(const json& value, int indent = -1)
{
    return value.dump(indent, ' ', false, json::error_handler_t::replace);
}

}  // namespace

std::string GraphExport::nodeDataPath(const std::string& file, const std::string& lens)
{
    const std::string stem = endsWith(file, ".json") ? file.substr(0, file.size() - 5) : file;
    return stem + "." + lens + ".nodedata.json";
}

int GraphExport::run(const library::ArtifactLibrary& library, const std::string& libraryPath, const Options& o,
    std::ostream& out, std::ostream& err)
{
    const library::RunRecord record = library.show(o.run);
    const model::Report report = model::Report::fromJson(record.report);
    const std::string where = TerminalText::location(libraryPath) + ": run " + std::to_string(o.run);
    const bool dot = o.format == "dot" || (o.format.empty() && (endsWith(o.file, ".dot") || endsWith(o.file, ".gv")));
    std::optional<graph::MeasuredLens::Measure> lens;
    if (!o.lens.empty()) {
        if (!dot) {
            err << "precompile-studio: --lens paints a dot file; Model Explorer gets every lens the run has as "
                   "node data files beside FILE\n";
            return 2;
        }
        for (auto m : {graph::MeasuredLens::Measure::Time, graph::MeasuredLens::Measure::Error,
                 graph::MeasuredLens::Measure::Memory})
            if (graph::MeasuredLens::name(m) == o.lens)
                lens = m;
        if (!lens) {
            err << "precompile-studio: no lens " << TerminalText::safe(o.lens) << " (time, error or memory)\n";
            return 2;
        }
    }

    // The captures asked for, by name or index; each named in the file by its name ("#index"
    // added where two share one).
    std::vector<std::size_t> chosen;
    for (const auto& wanted : o.captures) {
        bool found = false;
        for (std::size_t i = 0; i < report.captures.size(); ++i)
            if (report.captures[i].name == wanted || std::to_string(i) == wanted) {
                if (std::find(chosen.begin(), chosen.end(), i) == chosen.end())
                    chosen.push_back(i);
                found = true;
            }
        if (!found) {
            std::string names;
            for (std::size_t i = 0; i < report.captures.size(); ++i)
                names += (i ? ", " : "") + std::to_string(i) + " " + report.captures[i].name;
            err << "precompile-studio: " << where << " has no capture " << TerminalText::safe(wanted)
                << " (its captures: " << TerminalText::safe(names.empty() ? "none" : names) << ")\n";
            return 1;
        }
    }
    if (o.captures.empty())
        for (std::size_t i = 0; i < report.captures.size(); ++i)
            chosen.push_back(i);
    std::multiset<std::string> names;
    for (const auto& c : report.captures)
        names.insert(c.name);
    const auto nameOf = [&](std::size_t i) {
        const std::string& name = report.captures[i].name;
        if (name.empty())
            return "capture " + std::to_string(i);
        return names.count(name) > 1 ? name + "#" + std::to_string(i) : name;
    };
    const std::string label
        = "run " + std::to_string(o.run) + (record.summary.name.empty() ? "" : ": " + record.summary.name);

    std::vector<std::string> written;
    json summary = {{"library", library::LibraryLocator::redacted(libraryPath)}, {"run_id", o.run},
        {"format", dot ? "dot" : "model-explorer"}};
    if (dot) {
        std::vector<share::DotGraph::Entry> entries;
        for (std::size_t i : chosen)
            entries.push_back({nameOf(i), &report.captures[i]});
        const share::DotGraph::Result result = share::DotGraph::write(label, entries, lens);
        if (result.captures.empty()) {
            err << "precompile-studio: " << where << " has no captured graph to export\n";
            return 1;
        }
        if (lens && result.painted == 0) {
            err << "precompile-studio: " << where << " has no " << o.lens << " lens ("
                << (*lens == graph::MeasuredLens::Measure::Time           ? "not profiled: run --profile"
                           : *lens == graph::MeasuredLens::Measure::Error ? "no drift was localised"
                                                                          : "no tensor sizes in its graph")
                << ")\n";
            return 1;
        }
        if (!writeFile(o.file, result.text, err))
            return 2;
        written.push_back(o.file);
        summary["captures"] = result.captures;
        summary["nodes"] = result.nodes;
        summary["edges"] = result.edges;
        if (lens)
            summary["painted"] = result.painted;
    } else {
        share::ModelExplorerGraph explorer(label);
        json graphs = json::array();
        for (std::size_t i : chosen)
            for (const auto& id : explorer.add(report.captures[i], nameOf(i)))
                graphs.push_back(id);
        if (graphs.empty()) {
            err << "precompile-studio: " << where << " has no captured graph to export\n";
            return 1;
        }
        if (!writeFile(o.file, dump(explorer.collection()) + "\n", err))
            return 2;
        written.push_back(o.file);
        json lenses = json::array();
        if (o.nodeData)
            for (const auto& data : explorer.nodeData()) {
                const std::string path = nodeDataPath(o.file, data.lens);
                if (!writeFile(path, dump(data.data) + "\n", err))
                    return 2;
                written.push_back(path);
                lenses.push_back({{"lens", data.lens}, {"file", path}});
            }
        summary["graphs"] = graphs;
        summary["node_data"] = lenses;
    }
    summary["files"] = written;
    if (o.json) {
        out << dump(summary) << "\n";
    } else {
        for (const auto& file : written)
            out << TerminalText::safe(file) << "\n";
    }
    return 0;
}

}  // namespace ps::commands
