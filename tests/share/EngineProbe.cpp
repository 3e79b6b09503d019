// engine_probe: the HTML report's graph engine (engine/share/wasm/EngineEntry.cpp) built natively,
// for test_graph_page.py to compare the page's engine.wasm against, call for call.
//
//   engine_probe GRAPH.json OP...
// GRAPH.json: a graph section, or an object holding one under "graph" or "capture"."graph".
// OP: expand:PATH | collapse:PATH | expand_all | collapse_all | layout | search:TEXT. Prints one
// JSON line per layout (the flat array of doubles ps_layout_data() holds, see EngineEntry.cpp)
// and per search (the indices of the nodes found).
//
//   engine_probe --page-graph CAPTURE.json
// Prints PageGraph::toJson of the capture (an object holding it under "capture", or a bare
// graph section under "graph"): what the page's graph panel is given.

#include "model/Capture.h"
#include "share/PageGraph.h"

#include <nlohmann/json.hpp>

#include <fstream>
#include <iostream>
#include <sstream>
#include <string>

extern "C" {
int ps_open(const char* text, int length);
void ps_expand(int module);
void ps_collapse(int module);
void ps_expand_all();
void ps_collapse_all();
int ps_layout();
const double* ps_layout_data();
int ps_layout_size();
const char* ps_text();
int ps_search(const char* text, int length);
int ps_text_size();
}

int main(int argc, char** argv)
{
    if (argc < 2) {
        std::cerr << "usage: engine_probe GRAPH.json OP...\n";
        return 2;
    }
    if (std::string(argv[1]) == "--page-graph") {
        std::ifstream file(argc > 2 ? argv[2] : "");
        auto c = nlohmann::json::parse(file, nullptr, false);
        if (!file || c.is_discarded() || !c.is_object()) {
            std::cerr << "engine_probe: " << (argc > 2 ? argv[2] : "(none)") << ": not a JSON object\n";
            return 2;
        }
        if (c.contains("capture"))
            c = c["capture"];
        else
            c = {{"name", "fixture"}, {"status", "ok"}, {"graph", c["graph"]}};
        std::cout << ps::share::PageGraph::toJson(ps::model::Capture::fromJson(c)).dump() << "\n";
        return 0;
    }
    std::ifstream in(argv[1]);
    std::stringstream text;
    text << in.rdbuf();
    auto j = nlohmann::json::parse(text.str(), nullptr, false);
    if (!in || j.is_discarded()) {
        std::cerr << "engine_probe: " << argv[1] << ": not a JSON file\n";
        return 2;
    }
    if (j.contains("capture"))
        j = j["capture"];
    if (j.contains("graph"))
        j = j["graph"];
    const std::string graph = j.dump();
    if (ps_open(graph.data(), static_cast<int>(graph.size())) < 0) {
        std::cerr << "engine_probe: " << std::string(ps_text(), static_cast<std::size_t>(ps_text_size())) << "\n";
        return 1;
    }
    const auto tree = nlohmann::json::parse(std::string(ps_text(), static_cast<std::size_t>(ps_text_size())));
    const auto moduleId = [&](const std::string& path) {
        for (std::size_t m = 0; m < tree["modules"].size(); ++m)
            if (tree["modules"][m]["path"] == path)
                return static_cast<int>(m);
        std::cerr << "engine_probe: no module " << path << "\n";
        std::exit(2);
    };
    for (int i = 2; i < argc; ++i) {
        const std::string op = argv[i];
        if (op.rfind("expand:", 0) == 0)
            ps_expand(moduleId(op.substr(7)));
        else if (op.rfind("collapse:", 0) == 0)
            ps_collapse(moduleId(op.substr(9)));
        else if (op == "expand_all")
            ps_expand_all();
        else if (op == "collapse_all")
            ps_collapse_all();
        else if (op.rfind("search:", 0) == 0) {
            const std::string query = op.substr(7);
            ps_search(query.data(), static_cast<int>(query.size()));
            std::cout << std::string(ps_text(), static_cast<std::size_t>(ps_text_size())) << "\n";
        } else if (op == "layout") {
            ps_layout();
            const double* data = ps_layout_data();
            std::cout << nlohmann::json(std::vector<double>(data, data + ps_layout_size())).dump() << "\n";
        } else {
            std::cerr << "engine_probe: unknown op " << op << "\n";
            return 2;
        }
    }
    return 0;
}
