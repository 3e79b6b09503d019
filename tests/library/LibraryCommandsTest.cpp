// The `library` subcommands, parsed by CLI11 and run in-process as main() runs them: output,
// messages and exit codes.

#include <gtest/gtest.h>
#include <sys/stat.h>

#include <CLI/CLI.hpp>

#include <chrono>
#include <filesystem>
#include <fstream>

#include "LibraryCommands.h"
#include "LibraryTestSupport.h"
#include "library/core/ArtifactLibrary.h"
#include "library/core/Sha256.h"

#ifndef PS_LIBRARY_FIXTURES
#error "PS_LIBRARY_FIXTURES must name tests/library/fixtures"
#endif

namespace ps::library {
namespace {

using test::TempDir;
using json = nlohmann::json;

struct Outcome {
    int exitCode = -1;
    std::string out;
    std::string err;
};

/// Parses and runs `precompile-studio --library PATH ARGS...` the way main() will.
Outcome runCli(const std::string& libraryPath, std::vector<std::string> args)
{
    CLI::App app("precompile-studio");
    std::string library;
    int exitCode = 0;
    app.add_option("--library", library, "The artifact library");
    addLibraryCommands(app, &library, &exitCode);
    args.insert(args.begin(), {"precompile-studio", "--library", libraryPath});
    std::vector<char*> argv;
    for (auto& a : args)
        argv.push_back(a.data());
    testing::internal::CaptureStdout();
    testing::internal::CaptureStderr();
    Outcome outcome;
    try {
        app.parse(static_cast<int>(argv.size()), argv.data());
        outcome.exitCode = exitCode;
    } catch (const CLI::ParseError& e) {
        outcome.exitCode = 2;  // what main() does with a usage error
    }
    outcome.out = testing::internal::GetCapturedStdout();
    outcome.err = testing::internal::GetCapturedStderr();
    return outcome;
}

bool contains(const std::string& text, const std::string& part)
{
    return text.find(part) != std::string::npos;
}

class LibraryCommands : public ::testing::Test {
protected:
    void SetUp() override
    {
        ArtifactLibrary library(path);
        okRun = library.insert(test::makeRun("resnet_block", "def forward():\n    pass\n", "cache", "inductor"));
        NewRun failed;
        failed.report = {{"schema", 1}, {"script", "/s/global_tensor.py"}, {"status", "violation"},
            {"message", "a capture ended in a violation"},
            {"captures", json::array({test::captureReport("fn", "eager", "violation")})}};
        failedRun = library.insert(failed);
    }
    TempDir dir;
    std::string path = dir.file("lib.sqlite3");
    std::int64_t okRun = 0, failedRun = 0;
};

TEST_F(LibraryCommands, LsPrintsATableNewestFirst)
{
    const Outcome o = runCli(path, {"library", "ls"});
    EXPECT_EQ(o.exitCode, 0) << o.err;
    EXPECT_TRUE(contains(o.out, "resnet_block")) << o.out;
    EXPECT_TRUE(contains(o.out, "global_tensor")) << o.out;
    EXPECT_LT(o.out.find("global_tensor"), o.out.find("resnet_block")) << o.out;
    EXPECT_EQ(o.err, "");
}

TEST_F(LibraryCommands, LsJsonWithFilters)
{
    Outcome o = runCli(path, {"library", "ls", "--json"});
    ASSERT_EQ(o.exitCode, 0) << o.err;
    json all = json::parse(o.out);
    EXPECT_EQ(all["library"], path);
    ASSERT_EQ(all["runs"].size(), 2u);
    EXPECT_EQ(all["runs"][0]["run_id"], failedRun);
    EXPECT_EQ(all["runs"][0]["captures"][0]["invariant"], 1);

    o = runCli(path, {"library", "ls", "--json", "--status", "ok"});
    json ok = json::parse(o.out);
    ASSERT_EQ(ok["runs"].size(), 1u);
    EXPECT_EQ(ok["runs"][0]["run_id"], okRun);

    // a word that is no status is refused, naming the words, not taken as "nothing matches"
    o = runCli(path, {"library", "ls", "--status", "okay"});
    EXPECT_EQ(o.exitCode, 2);
    EXPECT_TRUE(contains(o.err, "--status okay: not a run status (ok, mismatch")) << o.err;
    EXPECT_TRUE(o.out.empty()) << o.out;

    o = runCli(path, {"library", "ls", "--json", "--backend", "eager"});
    ASSERT_EQ(json::parse(o.out)["runs"].size(), 1u);
    EXPECT_EQ(json::parse(o.out)["runs"][0]["run_id"], failedRun);

    o = runCli(path, {"library", "ls", "--json", "--search", "graph input"});
    ASSERT_EQ(json::parse(o.out)["runs"].size(), 1u);
    EXPECT_EQ(json::parse(o.out)["runs"][0]["run_id"], failedRun);
}

TEST_F(LibraryCommands, LsOfALibraryNotYetMadeIsEmptyAndCreatesNothing)
{
    const std::string absent = dir.file("absent/lib.sqlite3");
    const Outcome o = runCli(absent, {"library", "ls", "--json"});
    EXPECT_EQ(o.exitCode, 0);
    EXPECT_EQ(json::parse(o.out)["runs"], json::array());
    EXPECT_FALSE(std::filesystem::exists(absent));
}

TEST_F(LibraryCommands, ShowJsonIsTheStoredReport)
{
    const Outcome o = runCli(path, {"library", "show", std::to_string(okRun), "--json"});
    EXPECT_EQ(o.exitCode, 0) << o.err;
    ArtifactLibrary library(path);
    EXPECT_EQ(json::parse(o.out), library.show(okRun).report);
    EXPECT_EQ(json::parse(o.out)["run_id"], okRun);

    const Outcome human = runCli(path, {"library", "show", std::to_string(okRun)});
    EXPECT_EQ(human.exitCode, 0);
    EXPECT_TRUE(contains(human.out, "python_code")) << human.out;
    EXPECT_TRUE(contains(human.out, Sha256::hex("cache"))) << human.out;
}

/// A stored resnet18-like run whose convolution's stack goes through torchvision's resnet.py.
std::int64_t insertRunWithStacks(const std::string& path, const json& frames, const json& convStack)
{
    NewRun run = test::makeRun("resnet18", "def forward():\n    pass\n", "cache", "eager");
    json graph = {{"nodes", 3}, {"inputs", 1}, {"outputs", 1}, {"ops", {{"aten.convolution.default", 1}}},
        {"node_list",
            {{{"name", "x"}, {"op", "placeholder"}, {"target", "x"}, {"inputs", json::array()}, {"kind", "input"}},
                {{"name", "convolution"}, {"op", "call_function"}, {"target", "aten.convolution.default"},
                    {"inputs", {"x"}}, {"kind", "compute"}, {"shape", {1, 64, 16, 16}}, {"dtype", "float32"},
                    {"module", {{"path", "model.conv1"}, {"type", "Conv2d"}}}, {"phase", "forward"},
                    {"stack", convStack}},
                {{"name", "output"}, {"op", "output"}, {"target", "output"}, {"inputs", {"convolution"}},
                    {"kind", "output"}}}}};
    if (!frames.is_null())
        graph["frames"] = frames;
    run.report["captures"][0]["graph"] = graph;
    return ArtifactLibrary(path).insert(run);
}

const json kFrames = json::parse(R"J([
    {"file": "/env/torch/nn/modules/conv.py", "line": 560, "function": "_conv_forward",
     "code": "return F.conv2d(", "owner": "torch", "package": "torch"},
    {"file": "/env/torchvision/models/resnet.py", "line": 268, "function": "_forward_impl",
     "code": "x = self.conv1(x)", "owner": "package", "package": "torchvision"},
    {"file": "/home/me/fn.py", "line": 9, "function": "fn", "code": "return model(x)", "owner": "user"}])J");

TEST_F(LibraryCommands, ShowNodePrintsItsOpShapeAndStackInnermostFirst)
{
    const auto id = std::to_string(insertRunWithStacks(path, kFrames, {0, 1, 2}));
    Outcome o = runCli(path, {"library", "show", id, "--node", "convolution"});
    ASSERT_EQ(o.exitCode, 0) << o.err;
    EXPECT_TRUE(contains(o.out, "aten.convolution.default")) << o.out;
    EXPECT_TRUE(contains(o.out, "[1, 64, 16, 16]  float32")) << o.out;
    EXPECT_TRUE(contains(o.out, "model.conv1 (Conv2d)")) << o.out;
    const auto conv = o.out.find("/env/torch/nn/modules/conv.py:560  _conv_forward  return F.conv2d(");
    const auto resnet = o.out.find("/env/torchvision/models/resnet.py:268  _forward_impl  x = self.conv1(x)");
    const auto user = o.out.find("/home/me/fn.py:9  fn  return model(x)");
    ASSERT_NE(conv, std::string::npos) << o.out;
    ASSERT_NE(resnet, std::string::npos) << o.out;
    ASSERT_NE(user, std::string::npos) << o.out;
    EXPECT_LT(conv, resnet);
    EXPECT_LT(resnet, user);

    o = runCli(path, {"library", "show", id, "--node", "convolution", "--json"});
    ASSERT_EQ(o.exitCode, 0) << o.err;
    const json shown = json::parse(o.out);
    ASSERT_EQ(shown.size(), 1u);
    EXPECT_EQ(shown[0]["node"]["target"], "aten.convolution.default");
    ASSERT_EQ(shown[0]["stack"].size(), 3u);
    EXPECT_EQ(shown[0]["stack"][1]["file"], "/env/torchvision/models/resnet.py");
    EXPECT_EQ(shown[0]["stack"][1]["package"], "torchvision");

    o = runCli(path, {"library", "show", id, "--node", "x"});  // precompile's own placeholder
    EXPECT_EQ(o.exitCode, 0) << o.err;
    EXPECT_TRUE(contains(o.out, "none (precompile made this node itself)")) << o.out;

    o = runCli(path, {"library", "show", id, "--node", "conv_9"});
    EXPECT_EQ(o.exitCode, 1);
    EXPECT_TRUE(contains(o.err, "no capture of this run has a node named conv_9")) << o.err;
    EXPECT_TRUE(o.out.empty()) << o.out;
}

TEST_F(LibraryCommands, ShowNodeOfAnOldOrDamagedReportSaysSoNeverCrashes)
{
    Outcome o = runCli(path,
        {"library", "show", std::to_string(insertRunWithStacks(path, nullptr, nullptr)), "--node", "convolution"});
    EXPECT_EQ(o.exitCode, 0) << o.err;
    EXPECT_TRUE(contains(o.out, "not recorded (a report made before stacks were)")) << o.out;

    o = runCli(path,
        {"library", "show", std::to_string(insertRunWithStacks(path, kFrames, {0, 7, 2})), "--node", "convolution"});
    EXPECT_EQ(o.exitCode, 0) << o.err;
    EXPECT_TRUE(contains(o.out, "/home/me/fn.py:9")) << o.out;
    EXPECT_TRUE(contains(o.out, "names frame 7, but the graph lists 3 frames")) << o.out;
    EXPECT_FALSE(contains(o.out, "resnet.py")) << o.out;

    o = runCli(path, {"library", "show", std::to_string(okRun), "--node", "convolution"});  // no graph at all
    EXPECT_EQ(o.exitCode, 1);
    EXPECT_TRUE(contains(o.err, "no capture of this run has a node named convolution")) << o.err;
}

TEST_F(LibraryCommands, ShowOfAMissingRunExits1NamingTheLibrary)
{
    const Outcome o = runCli(path, {"library", "show", "99"});
    EXPECT_EQ(o.exitCode, 1);
    EXPECT_TRUE(contains(o.err, path)) << o.err;
    EXPECT_TRUE(contains(o.err, "no run 99")) << o.err;
}

TEST_F(LibraryCommands, TraceWritesAStoredRunsCompileTimeEventsAsAChromeTrace)
{
    NewRun profiled = test::makeRun("mlp", "def forward():\n    pass\n", "cache", "inductor");
    auto& capture = profiled.report["captures"][0];
    capture["compile_profile"] = {{{"phase", "tracing"}, {"seconds", 0.4}},
        {{"phase", "code_generation"}, {"seconds", 3.9}}, {{"phase", "other"}, {"seconds", 0.01}}};
    capture["compile_trace"] = {{"torch_events", true}, {"seconds", 4.3},
        {"threads", {{{"id", 4242}, {"name", "precompile"}, {"main", true}}}},
        {"events",
            {{{"name", "code_gen"}, {"cat", "torch"}, {"phase", "code_generation"}, {"start_s", 0.4}, {"dur_s", 3.9},
                {"thread", 0}}}}};
    const std::int64_t id = ArtifactLibrary(path).insert(profiled);
    const std::string file = dir.file("trace.json");
    const auto written = runCli(path, {"library", "trace", std::to_string(id), file});
    ASSERT_EQ(written.exitCode, 0) << written.err;
    EXPECT_TRUE(contains(written.out, "trace.json")) << written.out;
    std::ifstream in(file);
    const json trace = json::parse(in);
    int complete = 0;
    for (const auto& e : trace["traceEvents"])
        if (e["ph"] == "X") {
            ++complete;
            EXPECT_TRUE(e.contains("ts") && e.contains("dur") && e.contains("pid") && e.contains("tid")) << e.dump();
        }
    EXPECT_EQ(complete, 3 + 2) << "three phases, the precompile span and code_gen";

    // A run stored before there were profiles: said, nothing written.
    const auto none = runCli(path, {"library", "trace", std::to_string(okRun), dir.file("none.json")});
    EXPECT_EQ(none.exitCode, 1);
    EXPECT_TRUE(contains(none.err, "has no compile-time profile")) << none.err;
    EXPECT_FALSE(std::filesystem::exists(dir.file("none.json")));
}

TEST_F(LibraryCommands, ExportGraphWritesModelExplorerAndDotAndSaysWhatItCannot)
{
    NewRun step = test::makeRun("step", "def forward():\n    pass\n", "cache", "eager");
    std::ifstream fixture(std::string(PS_LIBRARY_FIXTURES) + "/../../fixtures/graphs/training_step.json");
    ASSERT_TRUE(fixture);
    step.report["captures"][0]["graph"] = json::parse(fixture)["graph"];
    const std::int64_t id = ArtifactLibrary(path).insert(step);

    Outcome o = runCli(path, {"library", "export-graph", std::to_string(id), dir.file("g.json"), "--json"});
    ASSERT_EQ(o.exitCode, 0) << o.err;
    const json listed = json::parse(o.out);
    EXPECT_EQ(listed["graphs"], json({"step forward", "step backward"}));
    EXPECT_EQ(listed["files"], json({dir.file("g.json"), dir.file("g.memory.nodedata.json")}));
    std::ifstream written(dir.file("g.json"));
    EXPECT_EQ(json::parse(written)["graphs"].size(), 2u);

    o = runCli(path, {"library", "export-graph", std::to_string(id), dir.file("g.gv")});
    ASSERT_EQ(o.exitCode, 0) << o.err;
    EXPECT_EQ(o.out, dir.file("g.gv") + "\n");
    EXPECT_EQ(test::readBytes(dir.file("g.gv")).rfind("digraph \"run " + std::to_string(id) + ": step\" {", 0), 0u);

    // Nothing to export, no such capture, no such run: 1; a file that cannot be written: 2.
    o = runCli(path, {"library", "export-graph", std::to_string(okRun), dir.file("none.json")});
    EXPECT_EQ(o.exitCode, 1);
    EXPECT_TRUE(contains(o.err, "has no captured graph")) << o.err;
    o = runCli(path, {"library", "export-graph", std::to_string(id), dir.file("none.json"), "--capture", "other"});
    EXPECT_EQ(o.exitCode, 1);
    EXPECT_TRUE(contains(o.err, "has no capture other (its captures: 0 step)")) << o.err;
    o = runCli(path, {"library", "export-graph", "4242", dir.file("none.json")});
    EXPECT_EQ(o.exitCode, 1);
    EXPECT_FALSE(std::filesystem::exists(dir.file("none.json")));
    o = runCli(path, {"library", "export-graph", std::to_string(id), dir.file("missing/g.dot")});
    EXPECT_EQ(o.exitCode, 2);
    EXPECT_TRUE(contains(o.err, "cannot write")) << o.err;
}

TEST_F(LibraryCommands, ExportImportTrustRmGc)
{
    const std::string out = dir.file("export");
    Outcome o = runCli(path, {"library", "export", std::to_string(okRun), out});
    EXPECT_EQ(o.exitCode, 0) << o.err;
    EXPECT_EQ(test::readBytes(out + "/resnet_block.py"), "def forward():\n    pass\n");
    EXPECT_EQ(test::readBytes(out + "/resnet_block.cache"), "cache");

    // The fixture pair, a real precompile artifact.
    for (const char* ext : {".py", ".cache", ".json"})
        std::filesystem::copy_file(
            std::string(PS_LIBRARY_FIXTURES) + "/sin_plus_one" + ext, dir.file(std::string("pair") + ext));
    o = runCli(path, {"library", "import", dir.file("pair.py"), "--json"});
    ASSERT_EQ(o.exitCode, 0) << o.err;
    const std::int64_t imported = json::parse(o.out)["run_id"];
    o = runCli(path, {"library", "ls", "--json", "--search", "pair"});
    ASSERT_EQ(json::parse(o.out)["runs"].size(), 1u);
    EXPECT_EQ(json::parse(o.out)["runs"][0]["trusted"], false);

    o = runCli(path, {"library", "trust", std::to_string(imported)});
    EXPECT_EQ(o.exitCode, 0) << o.err;
    o = runCli(path, {"library", "ls", "--json", "--search", "pair"});
    EXPECT_EQ(json::parse(o.out)["runs"][0]["trusted"], true);

    o = runCli(path, {"library", "rm", std::to_string(imported)});
    EXPECT_EQ(o.exitCode, 0) << o.err;
    o = runCli(path, {"library", "rm", std::to_string(imported)});
    EXPECT_EQ(o.exitCode, 1);
    o = runCli(path, {"library", "gc", "--json"});
    EXPECT_EQ(o.exitCode, 0) << o.err;
    EXPECT_EQ(json::parse(o.out)["blobs_removed"], 2);
}

TEST_F(LibraryCommands, ImportRefusesAMismatchedPair)
{
    for (const char* ext : {".py", ".cache", ".json"})
        std::filesystem::copy_file(
            std::string(PS_LIBRARY_FIXTURES) + "/sin_plus_one" + ext, dir.file(std::string("pair") + ext));
    const std::string original = test::readBytes(dir.file("pair.py"));
    test::writeBytes(dir.file("pair.py"), original + "import os\n");
    const Outcome o = runCli(path, {"library", "import", dir.file("pair.py")});
    EXPECT_EQ(o.exitCode, 1);
    EXPECT_TRUE(contains(o.err, Sha256::hex(original))) << o.err;
    EXPECT_TRUE(contains(o.err, Sha256::hex(original + "import os\n"))) << o.err;
    EXPECT_TRUE(contains(o.err, "refused")) << o.err;
    EXPECT_EQ(json::parse(runCli(path, {"library", "ls", "--json"}).out)["runs"].size(), 2u);
}

TEST_F(LibraryCommands, VerifyExits1WhenABlobIsDamaged)
{
    Outcome o = runCli(path, {"library", "verify"});
    EXPECT_EQ(o.exitCode, 0) << o.out << o.err;
    EXPECT_TRUE(contains(o.out, "ok")) << o.out;

    test::rawExec(path, "UPDATE blobs SET data = CAST('cachf' AS BLOB) WHERE sha256 = '" + Sha256::hex("cache") + "'");
    o = runCli(path, {"library", "verify", "--json"});
    EXPECT_EQ(o.exitCode, 1);
    const json report = json::parse(o.out);
    EXPECT_EQ(report["ok"], false);
    ASSERT_EQ(report["damaged"].size(), 1u);
    EXPECT_EQ(report["damaged"][0]["sha256"], Sha256::hex("cache"));
    EXPECT_EQ(report["damaged"][0]["runs"], json::array({okRun}));

    o = runCli(path, {"library", "show", std::to_string(okRun)});
    EXPECT_EQ(o.exitCode, 1);
    EXPECT_TRUE(contains(o.err, "damaged blob " + Sha256::hex("cache"))) << o.err;
    o = runCli(path, {"library", "export", std::to_string(okRun), dir.file("out")});
    EXPECT_EQ(o.exitCode, 1);
    EXPECT_TRUE(contains(o.err, "damaged")) << o.err;
}

TEST_F(LibraryCommands, AnUnusableLibraryFileExits2NamingIt)
{
    const std::string junk = dir.file("junk.sqlite3");
    test::writeBytes(junk, std::string(4096, 'j'));
    for (const std::vector<std::string>& args : std::vector<std::vector<std::string>>{
             {"library", "ls"}, {"library", "show", "1"}, {"library", "verify"}, {"library", "gc"}}) {
        const Outcome o = runCli(junk, args);
        EXPECT_EQ(o.exitCode, 2) << args[1];
        EXPECT_TRUE(contains(o.err, junk)) << o.err;
        EXPECT_TRUE(contains(o.err, "not an SQLite database")) << o.err;
    }
    EXPECT_EQ(test::readBytes(junk), std::string(4096, 'j'));

    ::chmod(path.c_str(), 0444);
    const Outcome o = runCli(path, {"library", "rm", "1"});
    EXPECT_EQ(o.exitCode, 2);
    EXPECT_TRUE(contains(o.err, "read-only")) << o.err;
}

TEST_F(LibraryCommands, AnUnreachableTeamLibraryNeverPrintsItsPassword)
{
    // Nothing listens on port 1: every command fails to connect and says where, password masked.
    const std::string secret = "S3cretPw-only-here";
    for (const std::string& location : {"postgresql://alice:" + secret + "@127.0.0.1:1/lab?connect_timeout=5",
             "host=127.0.0.1 port=1 dbname=lab user=alice password=" + secret + " connect_timeout=5"}) {
        const std::string out = dir.file("page.html");
        for (const std::vector<std::string>& args :
            std::vector<std::vector<std::string>>{{"library", "ls"}, {"library", "show", "1"}, {"library", "verify"},
                {"library", "gc"}, {"library", "rm", "1"}, {"library", "html", "1", out},
                {"library", "trace", "1", out}, {"library", "export-graph", "1", out}}) {
            const Outcome o = runCli(location, args);
            EXPECT_EQ(o.exitCode, 2) << args[1] << ": " << o.err;
            EXPECT_FALSE(contains(o.out + o.err, secret)) << args[1] << ": " << o.err;
            EXPECT_TRUE(contains(o.err, "***")) << args[1] << ": " << o.err;
        }
    }
}

TEST_F(LibraryCommands, UsageErrorsExit2)
{
    EXPECT_EQ(runCli(path, {"library"}).exitCode, 2);
    EXPECT_EQ(runCli(path, {"library", "show"}).exitCode, 2);
    EXPECT_EQ(runCli(path, {"library", "show", "abc"}).exitCode, 2);
    EXPECT_EQ(runCli(path, {"library", "frobnicate"}).exitCode, 2);
}

// --- hostile text and files ----------------------------------------------------------------

/// No byte a terminal would act on: ESC, BEL, CR, DEL, C1 controls (as UTF-8 or lone bytes).
void expectTerminalSafe(const std::string& text, const std::string& what)
{
    for (std::size_t i = 0; i < text.size(); ++i) {
        const auto c = static_cast<unsigned char>(text[i]);
        const bool c1 = c == 0xc2 && i + 1 < text.size() && (static_cast<unsigned char>(text[i + 1]) & 0xe0) == 0x80;
        if ((c < 0x20 && c != '\n') || c == 0x7f || c1 || c == 0x9b) {
            ADD_FAILURE() << what << " prints byte " << int(c) << " at " << i << ": "
                          << json(text.substr(i > 40 ? i - 40 : 0, 80)).dump();
            return;
        }
    }
}

TEST_F(LibraryCommands, ListingsPrintImportedTextTerminalSafeAndJsonExact)
{
    const std::string title = "\x1b]0;pwned\x07", clear = "\x1b[2J";
    const std::string stem = "evil" + title;
    for (const char* ext : {".py", ".cache", ".json"})
        std::filesystem::copy_file(std::string(PS_LIBRARY_FIXTURES) + "/sin_plus_one" + ext, dir.file(stem + ext));
    json report = json::parse(test::readBytes(dir.file(stem + ".json")));
    report["message"] = clear + "all clear\r\x7f";
    report["script"] = "/s/" + clear + "script.py";
    report["captures"][0]["name"] = "fn" + clear;
    report["captures"][0]["violation"] = {{"message", title + "pwned \xc2\x9b" + "2J"}};
    test::writeBytes(dir.file(stem + ".json"), report.dump());

    Outcome o = runCli(path, {"library", "import", dir.file(stem + ".py")});
    ASSERT_EQ(o.exitCode, 0) << o.err;
    expectTerminalSafe(o.out + o.err, "import");
    const std::int64_t id = json::parse(runCli(path, {"library", "ls", "--json"}).out)["runs"][0]["run_id"];
    test::rawExec(path, "UPDATE runs SET status = 'ok' || char(155) || '2J' WHERE id = " + std::to_string(okRun));

    o = runCli(path, {"library", "ls"});
    EXPECT_EQ(o.exitCode, 0) << o.err;
    expectTerminalSafe(o.out + o.err, "ls");
    EXPECT_TRUE(contains(o.out, "evil\\x1b]0;pwned\\x07")) << o.out;
    EXPECT_TRUE(contains(o.out, "\\x1b[2Jall clear\\x0d\\x7f")) << o.out;
    // a status word that names no status (here tampered with) lists as "unknown", never raw
    EXPECT_FALSE(contains(o.out, "ok\\u009b2J")) << o.out;
    EXPECT_EQ(json::parse(runCli(path, {"library", "ls", "--json"}).out)["runs"].back()["status"], "unknown") << o.out;

    o = runCli(path, {"library", "show", std::to_string(id)});
    EXPECT_EQ(o.exitCode, 0) << o.err;
    expectTerminalSafe(o.out + o.err, "show");
    EXPECT_TRUE(contains(o.out, "fn\\x1b[2J")) << o.out;
    EXPECT_TRUE(contains(o.out, "/s/\\x1b[2Jscript.py")) << o.out;
    EXPECT_TRUE(contains(o.out, "\\x1b]0;pwned\\x07pwned \\u009b2J")) << o.out;

    o = runCli(path, {"library", "show", "999"});  // an error message names the library only
    expectTerminalSafe(o.err, "an error");
    o = runCli(path, {"library", "import", dir.file("missing" + clear + ".py")});
    EXPECT_NE(o.exitCode, 0);
    expectTerminalSafe(o.out + o.err, "an import error");
    EXPECT_TRUE(contains(o.err, "missing\\x1b[2J.py")) << o.err;

    // JSON stays exact.
    const json runs = json::parse(runCli(path, {"library", "ls", "--json"}).out)["runs"];
    EXPECT_EQ(runs[0]["name"], stem);
    EXPECT_EQ(runs[0]["message"], clear + "all clear\r\x7f");
    EXPECT_EQ(runs[0]["captures"][0]["message"], title + "pwned \xc2\x9b" + "2J");
    const json shown = json::parse(runCli(path, {"library", "show", std::to_string(id), "--json"}).out);
    EXPECT_EQ(shown["captures"][0]["name"], "fn" + clear);
}

TEST_F(LibraryCommands, ANameThatIsNotUtf8IsImportedAndListed)
{
    const std::string folder = dir.file("bad\xff");
    std::filesystem::create_directory(folder);
    for (const char* ext : {".py", ".cache", ".json"})
        std::filesystem::copy_file(
            std::string(PS_LIBRARY_FIXTURES) + "/sin_plus_one" + ext, folder + "/x\xfe" + std::string(ext));
    Outcome o = runCli(path, {"library", "import", folder + "/x\xfe.py"});
    ASSERT_EQ(o.exitCode, 0) << o.err;
    EXPECT_TRUE(contains(o.out, "bad\\xff/x\\xfe.py")) << o.out;
    o = runCli(path, {"library", "ls"});
    EXPECT_TRUE(contains(o.out, "x\\xfe ")) << o.out;
    o = runCli(path, {"library", "ls", "--json"});
    ASSERT_EQ(o.exitCode, 0) << o.err;
    EXPECT_EQ(json::parse(o.out)["runs"][0]["name"], "x\xef\xbf\xbd");  // U+FFFD
    const std::int64_t id = json::parse(o.out)["runs"][0]["run_id"];
    o = runCli(path, {"library", "show", std::to_string(id), "--json"});
    ASSERT_EQ(o.exitCode, 0) << o.err;
    EXPECT_TRUE(contains(json::parse(o.out)["imported_from"].get<std::string>(), "bad\xef\xbf\xbd/x\xef\xbf\xbd.py"));
}

TEST_F(LibraryCommands, ImportOfADeeplyNestedNameJsonIsAOneLineRefusal)
{
    for (const char* ext : {".py", ".cache"})
        std::filesystem::copy_file(
            std::string(PS_LIBRARY_FIXTURES) + "/sin_plus_one" + ext, dir.file(std::string("pair") + ext));
    test::writeBytes(dir.file("pair.json"), std::string(100'000, '[') + std::string(100'000, ']'));
    Outcome o = runCli(path, {"library", "import", dir.file("pair.py")});
    EXPECT_EQ(o.exitCode, 2);
    EXPECT_EQ(o.out, "");
    EXPECT_EQ(o.err,
        "precompile-studio: library " + path + ": " + dir.file("pair.json")
            + ": nests deeper than 128 levels; refused\n");

    std::filesystem::resize_file(dir.file("pair.json"), std::uintmax_t{200} << 20);  // sparse
    o = runCli(path, {"library", "import", dir.file("pair.py")});
    EXPECT_EQ(o.exitCode, 2);
    EXPECT_TRUE(contains(o.err, dir.file("pair.json") + ": is 209715200 bytes (200 MiB), over the limit of 128 MiB"))
        << o.err;
    EXPECT_EQ(json::parse(runCli(path, {"library", "ls", "--json"}).out)["runs"].size(), 2u);
}

TEST_F(LibraryCommands, ATamperedStoredReportIsRefusedByShowNotCrashed)
{
    test::rawExec(path,
        "UPDATE run_documents SET report_json = '" + std::string(100'000, '{')
            + "' WHERE run_id = " + std::to_string(okRun));
    Outcome o = runCli(path, {"library", "show", std::to_string(okRun)});
    EXPECT_EQ(o.exitCode, 2);
    EXPECT_TRUE(contains(o.err, "the report of run " + std::to_string(okRun) + " nests deeper")) << o.err;
    EXPECT_EQ(std::count(o.err.begin(), o.err.end(), '\n'), 1) << o.err;
    EXPECT_EQ(runCli(path, {"library", "ls"}).exitCode, 0);
}

TEST_F(LibraryCommands, ReadOnlyCommandsWorkOnAReadOnlyLibrary)
{
    ASSERT_EQ(::chmod(path.c_str(), 0444), 0);
    const std::string before = test::readBytes(path);
    for (const std::vector<std::string>& args :
        std::vector<std::vector<std::string>>{{"library", "ls"}, {"library", "show", std::to_string(okRun)},
            {"library", "export", std::to_string(okRun), dir.file("out")}, {"library", "verify"}}) {
        const Outcome o = runCli(path, args);
        EXPECT_EQ(o.exitCode, 0) << args[1] << ": " << o.err;
        EXPECT_EQ(o.err, "") << args[1];
    }
    EXPECT_EQ(test::readBytes(dir.file("out/resnet_block.cache")), "cache");
    for (const char* ext : {".py", ".cache", ".json"})
        std::filesystem::copy_file(
            std::string(PS_LIBRARY_FIXTURES) + "/sin_plus_one" + ext, dir.file(std::string("pair") + ext));
    const Outcome o = runCli(path, {"library", "import", dir.file("pair.py")});
    EXPECT_EQ(o.exitCode, 2);
    EXPECT_EQ(o.err, "precompile-studio: " + path + ": the library file is read-only; left untouched\n");
    EXPECT_TRUE(test::readBytes(path) == before);
}

TEST_F(LibraryCommands, VerifyAndLsDoNotWaitForAWriter)
{
    sqlite3* writer = nullptr;
    ASSERT_EQ(sqlite3_open(path.c_str(), &writer), SQLITE_OK);
    ASSERT_EQ(sqlite3_exec(writer, "BEGIN IMMEDIATE; DELETE FROM captures", nullptr, nullptr, nullptr), SQLITE_OK);
    const auto start = std::chrono::steady_clock::now();
    Outcome o = runCli(path, {"library", "verify"});
    EXPECT_EQ(o.exitCode, 0) << o.err;
    EXPECT_TRUE(contains(o.out, "ok")) << o.out;
    o = runCli(path, {"library", "ls", "--json"});
    EXPECT_EQ(o.exitCode, 0) << o.err;
    EXPECT_EQ(json::parse(o.out)["runs"][0]["captures"].size(), 1u) << "saw the writer's uncommitted delete";
    EXPECT_LT(std::chrono::steady_clock::now() - start, std::chrono::seconds(5)) << "waited for the writer";
    sqlite3_exec(writer, "ROLLBACK", nullptr, nullptr, nullptr);
    sqlite3_close(writer);
}

}  // namespace
}  // namespace ps::library
