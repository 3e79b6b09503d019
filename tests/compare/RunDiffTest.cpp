#include "compare/RunDiff.h"
#include "CompareTestSupport.h"
#include "compare/RunDiffPrinter.h"

#include <gtest/gtest.h>

#include <sstream>

using nlohmann::json;
using ps::compare::RunDiff;
using ps::compare::RunDiffPrinter;
using ps::compare::RunSide;
using ps::comparetest::stack;

namespace {

const std::string kScript = "import torch\nbackend = 'eager'\n\ndef fn(model, x):\n    return model(x)\n";

RunSide side(const std::string& label, const std::string& backend = "eager", int batch = 3,
    const std::string& script = kScript, const std::string& torch = "2.14.1")
{
    json capture = {{"name", "fn"}, {"backend", backend}, {"tracer", "make_fx"}, {"status", "ok"},
        {"graph", stack({{8}, {2}}, batch)},
        {"inputs",
            {{"entries",
                 {{{"path", "model"}, {"kind", "module"}, {"type", "Sequential"}, {"parameters", 4}},
                     {{"path", "x"}, {"kind", "tensor"}, {"shape", {batch, 4}}, {"dtype", "float32"}}}},
                {"truncated", false}}},
        {"decompositions", nullptr},
        {"cache", {{"format", "torch.compiler.precompile"}, {"backend", backend}, {"bytes", 100}}},
        {"verify", {{"status", "ok"}}}, {"timings_s", {{"load", 0.1}}}};
    json report = {{"schema", 1}, {"script", "/w/s.py"}, {"status", "ok"}, {"captures", {capture}},
        {"provenance",
            {{"script", "/w/s.py"}, {"torch", {{"version", torch}, {"git", "abc"}}}, {"python", "3.12.3"},
                {"machine", {{"arch", "x86_64"}, {"cpu_vec_isa", nullptr}}},
                {"environment", {{"user_env", nullptr}}}}}};
    return {label, report, script, {std::string("code for ") + backend}};
}

}  // namespace

TEST(RunDiff, ARunAndItsCopyAreEquivalentWithNoCause)
{
    const RunDiff d = RunDiff::compare(side("run #1"), side("run #2"));
    EXPECT_TRUE(d.equivalent());
    EXPECT_TRUE(d.why().empty());
    std::ostringstream out;
    RunDiffPrinter::print(d, side("run #1"), side("run #2"), out);
    EXPECT_EQ(out.str().rfind("equivalent: run #1 vs run #2\n", 0), 0u) << out.str();
}

TEST(RunDiff, ABackendChangeIsAnOptionCause)
{
    const RunDiff d = RunDiff::compare(side("a"), side("b", "inductor"));
    EXPECT_FALSE(d.equivalent());
    ASSERT_EQ(d.why().size(), 1u);
    EXPECT_EQ(d.why()[0], "options changed: backend eager -> inductor");
}

TEST(RunDiff, CausesComeInOrderScriptInputsOptionsTorch)
{
    const std::string edited = kScript + "# tuned\n";
    const RunDiff d = RunDiff::compare(side("a"), side("b", "inductor", 5, edited, "2.15.0"));
    ASSERT_EQ(d.why().size(), 4u);
    EXPECT_EQ(d.why()[0], "the script changed: line 6 added");
    EXPECT_EQ(d.why()[1].rfind("the inputs changed: x shape [3,4] -> [5,4]", 0), 0u) << d.why()[1];
    EXPECT_EQ(d.why()[2].rfind("options changed: backend", 0), 0u);
    EXPECT_EQ(d.why()[3], "torch or the machine changed: torch 2.14.1 -> 2.15.0");
}

TEST(RunDiff, OneScriptOnBothTorchesNamesTheTorchAndThePrecompileApi)
{
    RunSide a = side("a");
    RunSide b = side("b", "eager", 3, kScript, "2.15.0+cu132");
    a.report["worker"] = {{"torch", "2.14.1"}, {"precompile_api", "precompile-call"}};
    b.report["worker"] = {{"torch", "2.15.0+cu132"}, {"precompile_api", "capture-load"}};
    b.pythonCode = {std::string("code for eager, as 2.15 writes it")};
    const RunDiff d = RunDiff::compare(a, b);
    ASSERT_EQ(d.why().size(), 1u);
    EXPECT_EQ(d.why()[0],
        "torch or the machine changed: torch 2.14.1 -> 2.15.0+cu132; precompile API precompile-call -> capture-load");
}

TEST(RunDiff, ARunWithoutProvenanceSaysWhatCannotBeCompared)
{
    RunSide old = side("run #1");
    old.report.erase("provenance");
    const RunDiff d = RunDiff::compare(old, side("run #2"));
    ASSERT_FALSE(d.why().empty());
    EXPECT_NE(d.why().back().find("run #1 records no provenance"), std::string::npos);
}

TEST(RunDiff, ARunOnAnotherHostOrDeviceSaysSo)
{
    RunSide here = side("a");
    RunSide there = side("b", "inductor");
    here.report["worker"] = {{"host", nullptr}, {"torch", "2.14.1"}, {"devices", json::array()}};
    there.report["worker"]
        = {{"host", "gpu-box"}, {"torch", "2.14.1"}, {"devices", {{{"index", 0}, {"name", "NVIDIA H200"}}}}};
    const RunDiff d = RunDiff::compare(here, there);
    ASSERT_EQ(d.why().size(), 2u);
    EXPECT_EQ(
        d.why()[1], "ran on another host or device: host this computer -> gpu-box; devices CPU -> 1x NVIDIA H200");
    // Where only one side records it, nothing is said of it.
    here.report.erase("worker");
    EXPECT_EQ(RunDiff::compare(here, there).why().size(), 1u);
    // The same host and devices: no cause.
    here.report["worker"] = there.report["worker"];
    EXPECT_EQ(RunDiff::compare(here, there).why().size(), 1u);
}

TEST(RunDiff, JsonNamesTheVerdictAndEachCapture)
{
    const RunSide a = side("a");
    const RunSide b = side("b", "eager", 5);
    const json j = RunDiff::compare(a, b).toJson(a, b);
    EXPECT_FALSE(j["equivalent"].get<bool>());
    ASSERT_EQ(j["captures"].size(), 1u);
    EXPECT_GT(j["captures"][0]["graph"]["changed"].get<int>(), 0);
    EXPECT_EQ(j["captures"][0]["inputs"][0]["what"], "x shape");
}

TEST(RunDiffPrinter, ChangedNodesReadByBothNamesAndLongMetadataIsSummedUp)
{
    // b: a layer inserted (parameters as the worker writes them), and python_code whose metadata
    // lists every parameter: 4 names against 6.
    RunSide a = side("run #1");
    RunSide b = side("run #2");
    a.report["captures"][0]["graph"] = stack({{8}, {2}}, 3, 4, true);
    b.report["captures"][0]["graph"] = stack({{8}, {8}, {2}}, 3, 4, true);
    auto code = [](int n) {
        std::string names;
        for (int i = 0; i < n; ++i)
            names += (i ? ", '" : "'") + std::string("layers.") + std::to_string(i) + ".weight_parameter'";
        return "# header\nPARAM_NAMES = [" + names + "]\n";
    };
    const json sections = {{"sections",
        {{{"kind", "header"}, {"title", "Header"}, {"start", 1}, {"end", 1}},
            {{"kind", "metadata"}, {"title", "Metadata"}, {"start", 2}, {"end", 2}}}}};
    a.report["captures"][0]["lowering"] = sections;
    b.report["captures"][0]["lowering"] = sections;
    a.pythonCode = {code(4)};
    b.pythonCode = {code(6)};
    const RunDiff d = RunDiff::compare(a, b);
    std::ostringstream out;
    RunDiffPrinter::print(d, a, b, out);
    const std::string text = out.str();
    // The layer after the new one: named on each side, its inputs by their qualified names.
    EXPECT_NE(text.find("~ n4 -> n7 (addmm): inputs model.2.bias, n2, n3 -> model.4.bias, n5, n6"), std::string::npos)
        << text;
    EXPECT_EQ(text.find("flat_"), std::string::npos) << text;
    // The metadata: its field, summed up, not its 300-character lines twice.
    EXPECT_NE(text.find("metadata PARAM_NAMES: [4 entries] -> [6 entries]"), std::string::npos) << text;
    EXPECT_EQ(text.find("-PARAM_NAMES"), std::string::npos) << text;
    for (std::size_t start = 0, end; (end = text.find('\n', start)) != std::string::npos; start = end + 1)
        EXPECT_LE(end - start, 160u) << text.substr(start, end - start);
}
