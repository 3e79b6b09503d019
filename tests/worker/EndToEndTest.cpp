// End to end with both backends on an MLP inference and an MLP training step. The pair the
// studio hands out must be exactly what precompile returned: a plain Python process loads
// the exported files with torch.compiler.precompile.load and matches eager.
#include "StudioRun.h"

#include <gtest/gtest.h>
#include <openssl/evp.h>

#include <algorithm>
#include <fstream>
#include <iomanip>
#include <sstream>

using namespace ps::test;

namespace {

std::string sha256File(const std::string& path)
{
    std::ifstream f(path, std::ios::binary);
    std::stringstream ss;
    ss << f.rdbuf();
    const std::string data = ss.str();
    unsigned char digest[EVP_MAX_MD_SIZE];
    unsigned int len = 0;
    EVP_Digest(data.data(), data.size(), digest, &len, EVP_sha256(), nullptr);
    std::ostringstream hex;
    for (unsigned int i = 0; i < len; ++i)
        hex << std::hex << std::setw(2) << std::setfill('0') << static_cast<int>(digest[i]);
    return hex.str();
}

struct Case {
    const char* script;
    const char* name;
    const char* backend;
    bool grads;
};

class EndToEnd : public ::testing::TestWithParam<Case> { };

}  // namespace

TEST_P(EndToEnd, ExportedPairLoadsInPlainPythonAndMatchesEager)
{
    const Case c = GetParam();
    TempDir out;
    const auto r = runStudio(example(c.script), {"--backend", c.backend, "--export", out.path(), "--no-verify"});
    ASSERT_EQ(r.process.exitCode, 0) << r.report.dump(2) << r.process.err.substr(0, 4000);
    EXPECT_EQ(r.report["schema"], 1);
    EXPECT_EQ(r.report["status"], "ok");
    ASSERT_EQ(r.report["captures"].size(), 1u);
    const auto& cap = r.report["captures"][0];
    EXPECT_EQ(cap["name"], c.name);
    EXPECT_EQ(cap["backend"], c.backend);
    EXPECT_EQ(cap["tracer"], "make_fx");
    EXPECT_EQ(cap["status"], "ok");
    EXPECT_TRUE(cap["violation"].is_null());
    EXPECT_GT(cap["timings_s"]["precompile"].get<double>(), 0.0);
    EXPECT_GE(cap["timings_s"]["script"].get<double>(), 0.0);

    const std::string py = out.file(std::string(c.name) + ".py");
    const std::string cache = out.file(std::string(c.name) + ".cache");
    EXPECT_EQ(sha256File(py), cap["artifact"]["python_code_sha256"]);
    EXPECT_EQ(sha256File(cache), cap["artifact"]["cache_sha256"]);
    EXPECT_EQ(static_cast<std::int64_t>(std::ifstream(py, std::ios::ate | std::ios::binary).tellg()),
        cap["artifact"]["python_code_bytes"].get<std::int64_t>());

    std::vector<std::string> argv = {suitePython(),
        std::string(PS_TEST_SOURCE_DIR) + "/tests/worker/load_and_compare.py", out.path(), c.name, example(c.script)};
    if (c.grads)
        argv.push_back("--grads");
    const auto check = runProcess(argv);
    EXPECT_EQ(check.exitCode, 0) << check.out << check.err.substr(0, 4000);
    EXPECT_NE(check.out.find("MATCH"), std::string::npos) << check.out;
}

INSTANTIATE_TEST_SUITE_P(Backends, EndToEnd,
    ::testing::Values(Case{"mlp_inference.py", "mlp_inference", "eager", false},
        Case{"training_step.py", "training_step", "eager", true},
        Case{"mlp_inference.py", "mlp_inference", "inductor", false},
        Case{"training_step.py", "training_step", "inductor", true}),
    [](const auto& info) { return std::string(info.param.backend) + "_" + info.param.name; });

TEST(EndToEndExistingProgram, EveryPrecompileCallIsACapture)
{
    const auto r = runStudio(exampleForTorch("existing_program.py"));
    ASSERT_EQ(r.process.exitCode, 0) << r.report.dump(2);
    ASSERT_EQ(r.report["captures"].size(), 2u);
    EXPECT_EQ(r.report["captures"][0]["name"], "encode");
    EXPECT_EQ(r.report["captures"][1]["name"], "classify");
    EXPECT_EQ(r.report["captures"][1]["backend"], "eager");
    // the script's own output went to the log, not into the JSON on stdout
    EXPECT_NE(r.process.err.find("reloaded encode matches eager: True"), std::string::npos);
}

// The worker's Python runs in UTF-8 mode: the studio's process may run in the C locale, where
// Python's stdio would be ASCII and this script's print would fail its capture.
TEST(EndToEndExistingProgram, AScriptPrintingTextThatIsNotAsciiRuns)
{
    const auto r = runStudio(fixture("prints_unicode.py"));
    ASSERT_EQ(r.process.exitCode, 0) << r.report.dump(2) << r.process.err;
    EXPECT_EQ(r.report["captures"][0]["status"], "ok");
    EXPECT_NE(r.process.err.find("in fn: naïve ∑ 🔥"), std::string::npos) << r.process.err;
    EXPECT_NE(r.process.err.find("module level: café → 日本"), std::string::npos) << r.process.err;
}

// torch only logs that a script's own load() fell back to JIT (invariant 7); the report keeps it.
TEST(EndToEndExistingProgram, AWarningFromTheScriptsOwnLoadIsInTheReportAtItsLine)
{
    const auto r = runStudio(fixtureForTorch("loads_a_bad_cache.py"));
    ASSERT_EQ(r.report["captures"].size(), 1u) << r.report.dump();
    EXPECT_EQ(r.report["status"], "ok") << r.report.dump();
    const auto& warnings = r.report["captures"][0]["warnings"];
    const auto it = std::find_if(
        warnings.begin(), warnings.end(), [](const nlohmann::json& w) { return w.value("where", "") == "script"; });
    ASSERT_NE(it, warnings.end()) << warnings.dump();
    EXPECT_EQ((*it)["invariant"], 7);
    EXPECT_EQ((*it)["rule"], "cache-envelope-unreadable");
    EXPECT_EQ((*it)["location"]["line"], 12);
    EXPECT_NE(r.process.out.find("Falling back to JIT"), std::string::npos);
}

// A runtime model with every parameter frozen: eager fn raises, the artifact runs its traced
// backward; the report explains it (invariant 5) and names the parameters, never only a raw string.
TEST(EndToEndExistingProgram, AFrozenRuntimeModelIsAWarningThatNamesItsParameters)
{
    const auto r = runStudio(fixture("frozen_runtime_model.py"));
    EXPECT_EQ(r.report["status"], "ok") << r.report.dump();
    ASSERT_EQ(r.report["captures"].size(), 1u) << r.report.dump();
    const auto& warnings = r.report["captures"][0]["warnings"];
    const auto it = std::find_if(warnings.begin(), warnings.end(),
        [](const nlohmann::json& w) { return w.value("rule", "") == "requires-grad-flipped"; });
    ASSERT_NE(it, warnings.end()) << warnings.dump();
    EXPECT_EQ((*it)["invariant"], 5);
    const std::string message = (*it)["message"];
    EXPECT_NE(message.find("weight, bias are frozen"), std::string::npos) << message;
    EXPECT_NE(message.find("does not require grad"), std::string::npos) << message;
    EXPECT_EQ((*it)["location"]["line"], 21);
}

// run --trace FILE: each capture's compile-time breakdown adds up to its precompile time, and the
// trace holds one process per capture, named, with complete events Perfetto can lay out.
TEST(EndToEndExistingProgram, RunTraceWritesEachCapturesCompileTimeEvents)
{
    TempDir out;
    const std::string file = out.file("trace.json");
    const auto r = runStudio(exampleForTorch("existing_program.py"), {"--no-verify", "--trace", file});
    ASSERT_EQ(r.process.exitCode, 0) << r.report.dump(2) << r.process.err.substr(0, 4000);
    ASSERT_EQ(r.report["captures"].size(), 2u);
    for (const auto& cap : r.report["captures"]) {
        double sum = 0;
        for (const auto& phase : cap["compile_profile"])
            sum += phase["seconds"].get<double>();
        EXPECT_NEAR(sum, cap["timings_s"]["precompile"].get<double>(), 1e-4) << cap["compile_profile"].dump();
        EXPECT_EQ(cap["compile_profile"][0]["phase"], "tracing");
    }
    std::ifstream in(file);
    ASSERT_TRUE(in) << file;
    const auto trace = nlohmann::json::parse(in);
    std::vector<std::string> processes;
    int complete = 0;
    for (const auto& e : trace["traceEvents"]) {
        if (e["ph"] == "M" && e["name"] == "process_name")
            processes.push_back(e["args"]["name"]);
        if (e["ph"] != "X")
            continue;
        ++complete;
        EXPECT_TRUE(e.contains("ts") && e.contains("dur") && e.contains("pid") && e.contains("tid")) << e.dump();
    }
    EXPECT_EQ(processes, (std::vector<std::string>{"capture encode [eager]", "capture classify [eager]"}));
    EXPECT_GT(complete, 4);
}
