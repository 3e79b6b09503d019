// The deploy sections of a report read once in the model (Stamps, ColdStart, LoadCheck), printed
// by `run`, and the loader `library export --with-loader` writes (LoaderScript): what is stored in
// a run stays data in it, whatever its text.
#include "../support/StudioProcess.h"

#include "commands/ReportPrinter.h"
#include "library/core/LoaderScript.h"
#include "model/Report.h"

#include <gtest/gtest.h>
#include <nlohmann/json.hpp>

#include <fstream>

using namespace ps;
using nlohmann::json;
using ps::test::runProcess;
using ps::test::TempDir;

namespace {

json stampsJson()
{
    return {{"arch", "x86_64"}, {"python", "3.11.7"}, {"torch", "2.15.0+cu132"}, {"torch_git", "d0f2"},
        {"cuda", "13.2"}, {"triton", "3.9.0"}, {"cpu_isa", "avx2"}, {"gpus", json::array()},
        {"precompile_api", "capture-load"}};
}

json ledgerJson()
{
    return {{"ran", true}, {"reason", nullptr}, {"import_s", 2.5}, {"saving", 4.2},
        {"message", "first call 4.8 s, against 20 s for torch.compile cold and 6.3 s warm"},
        {"steps",
            {{{"step", "eager"}, {"first_call_s", 0.02}, {"kernels_compiled", nullptr}, {"error", nullptr}},
                {{"step", "compile_cold"}, {"first_call_s", 20.0}, {"kernels_compiled", 3}, {"error", nullptr}},
                {{"step", "warp_drive"}, {"first_call_s", 1.0}},  // a step this studio does not know: left out
                {{"step", "compile_warm"}, {"first_call_s", -1.0}, {"kernels_compiled", 0}},
                {{"step", "precompiled"}, {"first_call_s", 4.8}, {"load_s", 4.7}, {"kernels_compiled", 2}},
                {{"step", "precompiled_no_cache"}, {"first_call_s", nullptr},
                    {"error", {{"stage", "load"}, {"message", "PrecompileError: \x1b[31mboom"}}}}}}};
}

}  // namespace

TEST(DeployModel, StampsReadAndSummarised)
{
    const auto s = model::Stamps::fromJson(stampsJson());
    ASSERT_TRUE(s);
    EXPECT_EQ(
        s->summary(), "torch 2.15.0+cu132 \u00b7 Python 3.11.7 \u00b7 Triton 3.9.0 \u00b7 avx2 \u00b7 x86_64 CPU");
    json gpu = stampsJson();
    gpu["gpus"] = {"8.0", "9.0"};
    EXPECT_EQ(model::Stamps::fromJson(gpu)->summary().substr(0, 18), "torch 2.15.0+cu132");
    EXPECT_NE(model::Stamps::fromJson(gpu)->summary().find("sm 8.0, sm 9.0"), std::string::npos);
    // a report from before stamps, or a field of another type: absent, never a throw
    EXPECT_FALSE(model::Stamps::fromJson(json()));
    EXPECT_FALSE(model::Stamps::fromJson(json{{"torch", 2.15}}));
    const auto report = model::Report::fromJson({{"schema", 1}, {"script", "s.py"}, {"status", "ok"}, {"message", ""},
        {"captures", json::array()}, {"stamps", stampsJson()}});
    ASSERT_TRUE(report.stamps);
    EXPECT_EQ(report.stamps->cpuIsa, "avx2");
    EXPECT_EQ(report.toJson()["stamps"], stampsJson());  // kept as it came
}

TEST(DeployModel, TheLedgerKeepsKnownStepsAndRunPrintsEach)
{
    const auto ledger = model::ColdStart::fromJson(ledgerJson());
    ASSERT_TRUE(ledger);
    ASSERT_EQ(ledger->steps.size(), 5u);
    EXPECT_EQ(ledger->find(model::ColdStart::Step::CompileWarm)->firstCallS, std::nullopt);  // negative: absent
    EXPECT_EQ(ledger->find(model::ColdStart::Step::Precompiled)->kernelsCompiled, 2);
    EXPECT_EQ(ledger->find(model::ColdStart::Step::PrecompiledNoCache)->error.substr(0, 16), "PrecompileError:");

    json capture = {{"name", "fn"}, {"backend", "inductor"}, {"tracer", "make_fx"}, {"status", "ok"},
        {"outcome", nullptr}, {"cold_start", ledgerJson()}};
    const auto report = model::Report::fromJson(
        {{"schema", 1}, {"script", "s.py"}, {"status", "ok"}, {"message", "1 capture ok"}, {"captures", {capture}}});
    const std::string text = commands::ReportPrinter::summary(report);
    EXPECT_NE(text.find("    cold start: first call 4.8 s, against 20 s for torch.compile cold and 6.3 s warm "
                        "(import torch 2.50 s apart)\n"),
        std::string::npos)
        << text;
    EXPECT_NE(text.find("torch.compile, cold cache"), std::string::npos) << text;
    EXPECT_NE(text.find("(3 kernels compiled)"), std::string::npos) << text;
    EXPECT_NE(text.find("failed: PrecompileError: \\x1b[31mboom"), std::string::npos) << text;  // escaped
    EXPECT_EQ(text.find('\x1b'), std::string::npos);

    capture["cold_start"] = {{"ran", false}, {"reason", "not measured: the script makes its own precompile calls"},
        {"steps", json::array()}, {"message", "not measured"}};
    const std::string skipped = commands::ReportPrinter::summary(model::Report::fromJson(
        {{"schema", 1}, {"script", "s.py"}, {"status", "ok"}, {"message", ""}, {"captures", {capture}}}));
    EXPECT_NE(skipped.find("cold start: not measured: the script makes its own precompile calls"), std::string::npos);
}

TEST(DeployModel, ACheckWithAnOutcomeTheStudioDoesNotKnowIsNoCheck)
{
    json check = {{"outcome", "fallback"}, {"reason", "loads but falls back to compiling"}, {"stamp", "cpu_isa"},
        {"target", stampsJson()}, {"first_call_s", 3.5}, {"kernels_compiled", 2},
        {"differences",
            {{{"stamp", "cpu_isa"}, {"name", "CPU instruction set"}, {"made", "avx512"}, {"here", "avx2"},
                {"effect", "fallback"}, {"why", "compiled again"}}}},
        {"accuracy", {{"verdict", "numerics drift"}, {"message", "numerics drift in 1 of 1 outputs"}}}};
    const auto c = model::LoadCheck::fromJson(check);
    ASSERT_TRUE(c);
    EXPECT_EQ(c->outcome, model::CheckOutcome::Fallback);
    EXPECT_TRUE(c->runs());
    EXPECT_EQ(c->matchesWords(), "drift");
    ASSERT_EQ(c->differences.size(), 1u);
    EXPECT_EQ(c->differences[0].made, "avx512");
    EXPECT_FALSE(c->coldStart);  // not asked for
    // --cold-start: the pair's ledger there rides in the check; one that could not be measured says why.
    check["cold_start"]
        = {{"ran", false}, {"reason", "not measured: the pair does not run here"}, {"steps", json::array()}};
    const auto measured = model::LoadCheck::fromJson(check);
    ASSERT_TRUE(measured && measured->coldStart);
    EXPECT_FALSE(measured->coldStart->ran);
    EXPECT_EQ(measured->coldStart->reason, "not measured: the pair does not run here");
    check["accuracy"]["verdict"] = "wrong";
    EXPECT_FALSE(model::LoadCheck::fromJson(check)->runs());
    check["outcome"] = "maybe";
    EXPECT_FALSE(model::LoadCheck::fromJson(check));
}

TEST(DeployModel, TheLoaderKeepsEveryStoredTextAsData)
{
    // A crafted run's stamps try to end the literal and run code where the loader is imported.
    json stamps = stampsJson();
    stamps["torch"] = "2.15.0\"\"\"'''\n__import__('os').system('touch pwned')#\\";
    stamps["cpu_isa"] = "avx2\u00e9\U0001F600";
    const std::string name = "mlp";
    TempDir dir;
    std::ofstream(dir.file(library::LoaderScript::fileName(name))) << library::LoaderScript::text(name, stamps, "");
    // Imported (never run), it only defines: MADE is the stamps exactly, and nothing executed.
    const auto r = runProcess({PS_TEST_PYTHON, "-I", "-c",
                                  "import json, sys; sys.path.insert(0, sys.argv[1]); import load_mlp as m; "
                                  "print(json.dumps({'name': m.NAME, 'made': m.MADE}))",
                                  dir.path()},
        {});
    ASSERT_EQ(r.exitCode, 0) << r.err;
    const json got = json::parse(r.out);
    EXPECT_EQ(got["name"], name);
    EXPECT_EQ(got["made"]["torch"], stamps["torch"]);
    EXPECT_EQ(got["made"]["cpu_isa"], stamps["cpu_isa"]);
    EXPECT_FALSE(std::filesystem::exists(dir.file("pwned")));
    // A run from before stamps: its torch version alone is what the loader checks.
    const std::string old = library::LoaderScript::text(name, json(), "2.14.1+cu130");
    EXPECT_NE(old.find("2.14.1+cu130"), std::string::npos);
}

TEST(ReproModel, ReadsTheSectionAndLeavesOutWhatItDoesNotKnow)
{
    const json section = {{"status", "written"}, {"capture", "step"}, {"reason", "reproduces in plain torch: 4 of 291"},
        {"start", "native_batch_norm_backward_4"}, {"files", {"/o/repro.py", 7, "/o/inputs.pt"}},
        {"ops", {"relu_15", "native_batch_norm_backward_4"}}, {"graph_ops", 291}, {"grown_ops", 9}, {"elements", 1234},
        {"steps", 12}, {"shrink_s", 18.5},
        {"outputs",
            {{{"name", "getitem_90"}, {"dtype", "float32"}, {"elements", 512}, {"compiled_error", 0.015},
                 {"eager_error", 4e-7}, {"band", 1.1e-5}, {"outside", true}},
                {{"name", "getitem_89"}, {"compiled_error", nullptr}, {"outside", false}}, "junk"}},
        {"fresh", {{"exit", 1}, {"seconds", 6.5}, {"output", "reproduces"}}}};
    const auto r = model::Repro::fromJson(section);
    ASSERT_TRUE(r.has_value());
    EXPECT_TRUE(r->written);
    EXPECT_EQ(r->files, (std::vector<std::string>{"/o/repro.py", "/o/inputs.pt"}));
    EXPECT_EQ(r->ops.size(), 2u);
    EXPECT_EQ(r->graphOps, 291);
    ASSERT_EQ(r->outputs.size(), 2u);
    EXPECT_TRUE(r->outputs[0].outside);
    EXPECT_FALSE(r->outputs[1].compiledError.has_value());  // infinite: no number
    EXPECT_EQ(r->freshExit, std::optional<int>(1));
    // In a report: typed, and kept as it came.
    json report = {{"schema", 1}, {"script", "/s.py"}, {"status", "ok"}, {"message", "m"}, {"captures", json::array()},
        {"repro", {{"status", "none"}, {"reason", "the verdict is matches"}}}};
    const auto parsed = model::Report::fromJson(report);
    ASSERT_TRUE(parsed.repro.has_value());
    EXPECT_FALSE(parsed.repro->written);
    EXPECT_EQ(parsed.repro->reason, "the verdict is matches");
    EXPECT_EQ(parsed.toJson()["repro"], report["repro"]);
    EXPECT_FALSE(model::Repro::fromJson({{"status", "maybe"}}).has_value());
    EXPECT_FALSE(model::Repro::fromJson(json::array()).has_value());
}
