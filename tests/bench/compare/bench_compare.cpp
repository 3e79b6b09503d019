// The semantic diff of two 50k-node graphs (GraphDiff: modules aligned, then nodes, then every
// matched node compared field by field) and of the two runs around them (RunDiff), on four
// pairs: the same graph, one layer inserted in the middle, a changed batch size (every compute
// node's shape differs), and every tenth layer widened. Target: at most 1 s per diff.
#include "CompareTestSupport.h"
#include "compare/GraphDiff.h"
#include "compare/RunDiff.h"

#include <algorithm>
#include <chrono>
#include <cstdio>
#include <functional>
#include <string>
#include <vector>

using ps::comparetest::Layer;

namespace {

double medianSeconds(const std::function<void()>& work, int repeats = 3)
{
    std::vector<double> times;
    for (int r = 0; r < repeats; ++r) {
        const auto t0 = std::chrono::steady_clock::now();
        work();
        times.push_back(std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count());
    }
    std::sort(times.begin(), times.end());
    return times[times.size() / 2];
}

ps::compare::RunSide side(const nlohmann::json& graph)
{
    nlohmann::json capture
        = {{"name", "fn"}, {"backend", "eager"}, {"tracer", "make_fx"}, {"status", "ok"}, {"graph", graph}};
    return {"run", {{"schema", 1}, {"script", "/s.py"}, {"status", "ok"}, {"captures", {capture}}}, "x = 1\n",
        {std::string("code")}};
}

}  // namespace

int main()
{
    constexpr int kLayers = 10000;  // 5 nodes a layer: 50,000 nodes and an input and output
    std::vector<Layer> base(kLayers, Layer{8});
    std::vector<Layer> inserted = base;
    inserted.insert(inserted.begin() + kLayers / 2, Layer{16});
    std::vector<Layer> widened = base;
    for (int k = 0; k < kLayers; k += 10)
        widened[static_cast<std::size_t>(k)].width = 12;
    // 500 layers inserted apart (each after twenty of the base): 500 added blocks to name.
    std::vector<Layer> scattered;
    for (int k = 0; k < kLayers; ++k) {
        scattered.push_back(base[static_cast<std::size_t>(k)]);
        if (k % 20 == 19)
            scattered.push_back(Layer{16});
    }

    const nlohmann::json a = ps::comparetest::stack(base);
    struct Pair {
        const char* name;
        nlohmann::json b;
    };
    const std::vector<Pair> pairs = {{"same", a}, {"inserted_layer", ps::comparetest::stack(inserted)},
        {"batch_changed", ps::comparetest::stack(base, 5)}, {"every_tenth_widened", ps::comparetest::stack(widened)},
        {"every_20th_inserted", ps::comparetest::stack(scattered)}};
    std::printf("%-22s %8s %8s %8s %8s %8s %8s %10s %10s\n", "pair (50k nodes)", "nodes_b", "added", "removed",
        "changed", "blocks", "approx", "graph_s", "run_s");
    std::vector<std::string> lines;
    for (const Pair& p : pairs) {
        ps::compare::GraphDiff d;
        const double graphS = medianSeconds([&] { d = ps::compare::GraphDiff::compare(a, p.b); });
        const auto sa = side(a);
        const auto sb = side(p.b);
        const double runS = medianSeconds([&] { (void)ps::compare::RunDiff::compare(sa, sb); });
        std::printf("%-22s %8d %8zu %8zu %8zu %8zu %8s %10.3f %10.3f\n", p.name, d.nodesB(), d.added().size(),
            d.removed().size(), d.changed().size(), d.blocks().size(), d.approximate() ? "yes" : "no", graphS, runS);
        lines.push_back(
            "BENCH compare.graph_diff_50k." + std::string(p.name) + " " + std::to_string(graphS) + " s 1.0");
        lines.push_back("BENCH compare.run_diff_50k." + std::string(p.name) + " " + std::to_string(runS) + " s 1.0");
    }
    for (const std::string& line : lines)
        std::printf("%s\n", line.c_str());
    return 0;
}
