// A capture's compile-time breakdown (compile_profile, compile_trace): read from the report, said
// in one line of `run`'s summary, and written as a Chrome trace that Perfetto opens.
#include "model/CompileProfile.h"
#include "commands/ReportPrinter.h"
#include "model/ChromeTrace.h"
#include "model/Report.h"

#include <gtest/gtest.h>

#include <map>
#include <vector>

using ps::commands::ReportPrinter;
using ps::model::ChromeTrace;
using ps::model::CompilePhase;
using ps::model::CompileProfile;
using ps::model::Report;

namespace {

// What the worker writes for a cold inductor capture (capture/compile_profile.py), trimmed.
nlohmann::json profiledCapture()
{
    return {{"name", "mlp"}, {"backend", "inductor"}, {"tracer", "make_fx"}, {"status", "ok"}, {"outcome", nullptr},
        {"violation", nullptr}, {"warnings", nlohmann::json::array()}, {"artifact", nullptr}, {"verify", nullptr},
        {"timings_s", {{"precompile", 5.9}}},
        {"compile_profile",
            {{{"phase", "tracing"}, {"seconds", 0.4}}, {{"phase", "aot_autograd"}, {"seconds", 0.6}},
                {{"phase", "inductor_lowering"}, {"seconds", 0.7}}, {{"phase", "code_generation"}, {"seconds", 3.9}},
                {{"phase", "cache"}, {"seconds", 0.2}}, {{"phase", "imports"}, {"seconds", 0.05}},
                {{"phase", "other"}, {"seconds", 0.05}}}},
        {"compile_trace",
            {{"torch_events", true}, {"seconds", 5.89},
                {"threads",
                    {{{"id", 4242}, {"name", "precompile"}, {"main", true}},
                        {{"id", 4343}, {"name", "ThreadPoolExecutor-1_0"}, {"main", false}}}},
                {"events",
                    {{{"name", "_precompile._capture"}, {"cat", "studio"}, {"phase", "tracing"}, {"start_s", 0.0},
                         {"dur_s", 0.4}, {"thread", 0}},
                        {{"name", "inductor_compile"}, {"cat", "torch"}, {"phase", "inductor_lowering"},
                            {"start_s", 1.2}, {"dur_s", 4.6}, {"thread", 0}},
                        // rounded apart, the child ends a microsecond after its parent
                        {{"name", "code_gen"}, {"cat", "torch"}, {"phase", "code_generation"}, {"start_s", 1.9},
                            {"dur_s", 3.900001}, {"thread", 0}},
                        {{"name", "compile_file"}, {"cat", "torch"}, {"phase", nullptr}, {"start_s", 4.0},
                            {"dur_s", 0.7}, {"thread", 1}},
                        {{"name", "bad thread"}, {"cat", "torch"}, {"phase", nullptr}, {"start_s", 4.0}, {"dur_s", 0.7},
                            {"thread", 9}}}},
                {"fxgraph_cache", {{"hit", 0}, {"miss", 1}, {"bypass", 0}}}}}};
}

nlohmann::json reportWith(const nlohmann::json& capture)
{
    return {{"schema", 1}, {"script", "/tmp/mlp.py"}, {"status", "ok"}, {"message", ""}, {"run_id", 7},
        {"captures", {capture}}};
}

}  // namespace

TEST(CompileProfile, ReadsThePhasesTheThreadsAndTheEvents)
{
    const auto p = CompileProfile::fromJson(profiledCapture());
    ASSERT_TRUE(p);
    ASSERT_EQ(p->phases.size(), 7u);
    EXPECT_EQ(p->phases[3].phase, CompilePhase::CodeGeneration);
    EXPECT_DOUBLE_EQ(p->seconds(CompilePhase::CodeGeneration), 3.9);
    EXPECT_NEAR(p->total(), 5.9, 1e-9);
    EXPECT_NEAR(*p->coverage(), 5.85 / 5.9, 1e-9);
    ASSERT_EQ(p->threads.size(), 2u);
    EXPECT_TRUE(p->threads[0].main);
    EXPECT_EQ(p->threads[1].id, 4343);
    EXPECT_EQ(p->events.size(), 4u) << "an event on a thread the trace does not list is dropped";
    EXPECT_EQ(p->events[2].phase, CompilePhase::CodeGeneration);
    EXPECT_FALSE(p->events[3].phase);
    EXPECT_EQ(p->cacheMisses, 1);
    EXPECT_TRUE(p->torchEvents);
}

TEST(CompileProfile, AnOlderReportHasNoneAndAnUnknownPhaseCountsAsOther)
{
    nlohmann::json old = profiledCapture();
    old.erase("compile_profile");
    old.erase("compile_trace");
    EXPECT_FALSE(CompileProfile::fromJson(old));
    EXPECT_FALSE(Report::fromJson(reportWith(old)).captures[0].compileProfile);

    nlohmann::json later = profiledCapture();
    later["compile_profile"].push_back({{"phase", "autotuning"}, {"seconds", 1.0}});
    later["compile_profile"].push_back({{"phase", "cache"}, {"seconds", -3}});
    const auto p = CompileProfile::fromJson(later);
    ASSERT_TRUE(p);
    EXPECT_NEAR(p->seconds(CompilePhase::Other), 1.05, 1e-9) << "the time is kept, under other";
    EXPECT_NEAR(p->total(), 6.9, 1e-9);
}

TEST(CompileProfile, RunsSummarySaysThePhasesInOneLine)
{
    const Report report = Report::fromJson(reportWith(profiledCapture()));
    ASSERT_TRUE(report.captures[0].compileProfile);
    const std::string summary = ReportPrinter::summary(report);
    EXPECT_NE(
        summary.find("    compile 5.9 s: tracing 0.4 · aot_autograd 0.6 · inductor lowering 0.7 · code "
                     "generation 3.9 · cache 0.2 · imports 0.05 · other 0.05 (99 % named, FX graph cache miss)\n"),
        std::string::npos)
        << summary;

    nlohmann::json bare = profiledCapture();
    bare["compile_profile"] = {{{"phase", "tracing"}, {"seconds", 0.03}}, {{"phase", "other"}, {"seconds", 0.01}}};
    bare["compile_trace"]["torch_events"] = false;
    const std::string line = Report::fromJson(reportWith(bare)).captures[0].compileProfile->summary();
    EXPECT_EQ(line.rfind("compile 0.04 s: tracing 0.03 · other 0.01 (75 % named", 0), 0u) << line;
    EXPECT_NE(line.find("only the studio's own spans are named"), std::string::npos) << line;
}

TEST(ChromeTrace, IsCompleteEventsNestedPerThreadWithNamedProcessesAndThreads)
{
    const Report report = Report::fromJson(reportWith(profiledCapture()));
    ASSERT_TRUE(ChromeTrace::available(report));
    const nlohmann::json trace = ChromeTrace::fromReport(report);
    ASSERT_TRUE(trace["traceEvents"].is_array());
    std::map<std::int64_t, std::vector<std::pair<std::int64_t, std::int64_t>>> spans;  // tid -> (ts, end)
    std::map<std::int64_t, std::string> threadNames;
    std::string processName;
    std::vector<std::string> phases;
    for (const auto& e : trace["traceEvents"]) {
        ASSERT_TRUE(e.contains("ph") && e.contains("pid") && e.contains("name")) << e.dump();
        EXPECT_EQ(e["pid"], 1);
        if (e["ph"] == "M") {
            if (e["name"] == "thread_name")
                threadNames[e["tid"].get<std::int64_t>()] = e["args"]["name"];
            if (e["name"] == "process_name")
                processName = e["args"]["name"];
            continue;
        }
        ASSERT_EQ(e["ph"], "X") << e.dump();
        ASSERT_TRUE(e["ts"].is_number() && e["dur"].is_number() && e["tid"].is_number()) << e.dump();
        EXPECT_GE(e["dur"].get<std::int64_t>(), 0);
        const auto tid = e["tid"].get<std::int64_t>();
        if (tid == 0)
            phases.push_back(e["name"]);
        else
            spans[tid].push_back({e["ts"], e["ts"].get<std::int64_t>() + e["dur"].get<std::int64_t>()});
    }
    EXPECT_EQ(processName, "capture mlp [inductor]");
    EXPECT_EQ(threadNames[4242], "precompile");
    EXPECT_EQ(threadNames[4343], "ThreadPoolExecutor-1_0");
    EXPECT_EQ(threadNames[0], "phases");
    EXPECT_EQ(phases.front(), "tracing");
    EXPECT_EQ(phases.size(), 7u);
    ASSERT_EQ(spans[4242].size(), 4u) << "precompile, _capture, inductor_compile, code_gen";
    EXPECT_EQ(spans[4343].size(), 1u);
    for (auto& [tid, list] : spans) {  // well nested: each span inside every span still open
        std::vector<std::int64_t> open;
        for (const auto& [ts, end] : list) {
            while (!open.empty() && open.back() <= ts)
                open.pop_back();
            if (!open.empty()) {
                EXPECT_LE(end, open.back()) << "tid " << tid << " span at " << ts;
            }
            open.push_back(end);
        }
    }
    EXPECT_EQ(trace["otherData"]["run"], 7);
}

TEST(ChromeTrace, ARunWithoutProfilesHasNoEvents)
{
    nlohmann::json old = profiledCapture();
    old.erase("compile_profile");
    const Report report = Report::fromJson(reportWith(old));
    EXPECT_FALSE(ChromeTrace::available(report));
    EXPECT_TRUE(ChromeTrace::fromReport(report)["traceEvents"].empty());
}
