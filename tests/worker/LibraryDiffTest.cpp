// `library diff` on real pairs of stored runs (the worker runs each script): the same script on
// eager and inductor, an edit that adds a layer, a changed input shape, decompositions on and
// off, and a run against its own import.
#include "StudioRun.h"

#include <gtest/gtest.h>

#include <fstream>

using namespace ps::test;
using nlohmann::json;

namespace {

const char* kMlp = R"(import torch
from torch import nn

torch.manual_seed(0)
model = nn.Sequential(nn.Linear(16, 32), nn.ReLU(), nn.Linear(32, 4)).eval()


def fn(model, x):
    return model(x).softmax(-1)


def example_inputs():
    return (model, torch.randn(8, 16))


name = "mlp"
)";

// A model in a module the script imports, its layers on lines past the end of the script.
const char* kImportedModel = R"(import torch
from torch import nn


class Block(nn.Module):
    def __init__(self, width):
        super().__init__()
        self.norm = nn.LayerNorm(width)
        self.proj = nn.Linear(width, width)

    def forward(self, x):
        # padding lines, so that these ops sit below the script's last line
        #
        #
        #
        #
        #
        #
        #
        #
        #
        #
        #
        #
        #
        #
        #
        #
        h = self.norm(x)
        h = self.proj(h)
        return x + torch.relu(h)


def make(width=16, depth=2):
    torch.manual_seed(0)
    return nn.Sequential(*[Block(width) for _ in range(depth)]).eval()
)";

const char* kImportingScript = R"(import torch
from twolayer_model import make

model = make()


def fn(model, x):
    return model(x)


def example_inputs():
    return (model, torch.randn(4, 16))
)";

std::string replaced(std::string text, const std::string& from, const std::string& to)
{
    const auto at = text.find(from);
    EXPECT_NE(at, std::string::npos) << from;
    if (at != std::string::npos)
        text.replace(at, from.size(), to);
    return text;
}

class LibraryDiff : public ::testing::Test {
protected:
    static void SetUpTestSuite()
    {
        dir = new TempDir;
        library = dir->file("lib.sqlite3");
        const std::string wider = replaced(kMlp, "nn.Linear(16, 32), nn.ReLU(), nn.Linear(32, 4)",
            "nn.Linear(16, 32), nn.ReLU(), nn.Linear(32, 32), nn.ReLU(), nn.Linear(32, 4)");
        eager = store("mlp.py", kMlp, "eager");
        inductor = store("mlp.py", kMlp, "inductor");
        layer = store("mlp.py", wider, "eager");
        batch = store("mlp.py", replaced(kMlp, "torch.randn(8, 16)", "torch.randn(4, 16)"), "eager");
        decomposed = store("mlp_decomposed.py",
            std::string(kMlp)
                + "\nfrom torch._decomp import core_aten_decompositions\n"
                  "decompositions = core_aten_decompositions()\n",
            "eager");
        // the same unchanged script twice, its model in a file it imports
        std::ofstream(dir->file("twolayer_model.py")) << kImportedModel;
        importing = store("twolayer.py", kImportingScript, "eager");
        importingAgain = store("twolayer.py", kImportingScript, "eager");
        // the eager run exported and imported back
        const auto exported = runProcess(
            {PS_TEST_STUDIO, "--library", library, "library", "export", std::to_string(eager), dir->file("out")});
        EXPECT_EQ(exported.exitCode, 0) << exported.err;
        const auto imported = runProcess(
            {PS_TEST_STUDIO, "--library", library, "library", "import", dir->file("out/mlp.py"), "--json"});
        EXPECT_EQ(imported.exitCode, 0) << imported.err;
        if (imported.exitCode == 0)
            reimported = json::parse(imported.out).value("run_id", std::int64_t{0});
    }
    static void TearDownTestSuite()
    {
        delete dir;
        dir = nullptr;
    }

    /// Writes the script and runs it into the library; the stored run's id.
    static std::int64_t store(const std::string& file, const std::string& text, const std::string& backend)
    {
        const std::string path = dir->file(file);
        std::ofstream(path) << text;
        const auto r = runProcess(
            {PS_TEST_STUDIO, "--library", library, "run", path, "--json", "--no-verify", "--backend", backend});
        EXPECT_EQ(r.exitCode, 0) << r.out.substr(0, 2000) << r.err.substr(0, 2000);
        try {
            return json::parse(r.out).value("run_id", std::int64_t{0});
        } catch (const json::exception&) {
            return 0;
        }
    }

    struct Diff {
        int exitCode = -1;
        json result;
        std::string text;
    };
    static Diff diff(std::int64_t a, std::int64_t b)
    {
        Diff d;
        const auto j = runProcess(
            {PS_TEST_STUDIO, "--library", library, "library", "diff", std::to_string(a), std::to_string(b), "--json"});
        d.exitCode = j.exitCode;
        try {
            d.result = json::parse(j.out);
        } catch (const json::exception&) {
            ADD_FAILURE() << "not JSON: " << j.out.substr(0, 2000) << j.err;
        }
        const auto t = runProcess(
            {PS_TEST_STUDIO, "--library", library, "library", "diff", std::to_string(a), std::to_string(b)});
        EXPECT_EQ(t.exitCode, j.exitCode);
        d.text = t.out;
        return d;
    }

    static void checkEagerAgainstInductorIsTheBackendWithTheSameGraph();
    static void checkAnAddedLayerIsTheScriptEditAndOneInsertedBlock();
    static void checkAChangedInputShapeIsNamed();
    static void checkDecompositionsAreAnOption();
    static void checkARunAndItsOwnImportAreEquivalent();
    static void checkAModelInAnImportedFileIsEquivalentToItself();

    static inline TempDir* dir = nullptr;
    static inline std::string library;
    static inline std::int64_t eager = 0, inductor = 0, layer = 0, batch = 0, decomposed = 0, reimported = 0,
                               importing = 0, importingAgain = 0;
};

}  // namespace

void LibraryDiff::checkEagerAgainstInductorIsTheBackendWithTheSameGraph()
{
    const Diff d = diff(eager, inductor);
    EXPECT_EQ(d.exitCode, 1);
    EXPECT_EQ(d.text.rfind("differ: ", 0), 0u) << d.text;
    ASSERT_EQ(d.result["why"].size(), 1u) << d.result["why"].dump();
    EXPECT_EQ(d.result["why"][0], "options changed: backend eager -> inductor");
    const json& cap = d.result["captures"][0];
    EXPECT_TRUE(cap["graph"]["identical"].get<bool>()) << cap["graph"].dump();
    EXPECT_FALSE(cap["python_code"]["identical"].get<bool>());
    // inductor's kernels have no counterpart on eager
    ASSERT_FALSE(cap["python_code"]["kernels"].empty());
    EXPECT_EQ(cap["python_code"]["kernels"][0]["status"], "added");
    bool backendField = false;
    for (const json& m : cap["python_code"]["metadata"])
        backendField = backendField || (m["name"] == "BACKEND" && m["after"] == "'inductor'");
    EXPECT_TRUE(backendField) << cap["python_code"]["metadata"].dump();
}

void LibraryDiff::checkAnAddedLayerIsTheScriptEditAndOneInsertedBlock()
{
    const Diff d = diff(eager, layer);
    EXPECT_EQ(d.exitCode, 1);
    ASSERT_GE(d.result["why"].size(), 2u);
    EXPECT_EQ(d.result["why"][0].get<std::string>().rfind("the script changed: line 5 edited", 0), 0u)
        << d.result["why"].dump();
    EXPECT_EQ(d.result["why"][1].get<std::string>().rfind("the inputs changed: model parameters 4 -> 6", 0), 0u)
        << d.result["why"].dump();
    const json& graph = d.result["captures"][0]["graph"];
    EXPECT_EQ(graph["removed"], 0) << graph.dump();
    // One block: the new Linear's weight and bias with its ops and the new ReLU's.
    ASSERT_EQ(graph["blocks"].size(), 1u) << graph["blocks"].dump();
    const json& block = graph["blocks"][0];
    EXPECT_EQ(block["kind"], "added");
    EXPECT_EQ(block["count"], graph["added"]) << block.dump();
    EXPECT_EQ(block["module"], "model.2, model.3") << block.dump();
    EXPECT_EQ(block["module_type"], "Linear, ReLU") << block.dump();
    EXPECT_EQ(graph["renames"]["model.2"], "model.4") << graph.dump();
    EXPECT_LE(graph["changed"].get<int>(), 1) << "only the next layer's input was rewired";
}

void LibraryDiff::checkAChangedInputShapeIsNamed()
{
    const Diff d = diff(eager, batch);
    EXPECT_EQ(d.exitCode, 1);
    bool named = false;
    for (const json& w : d.result["why"])
        named = named || w.get<std::string>().find("the inputs changed: x shape [8,16] -> [4,16]") == 0;
    EXPECT_TRUE(named) << d.result["why"].dump();
    const json& graph = d.result["captures"][0]["graph"];
    EXPECT_EQ(graph["added"], 0);
    EXPECT_EQ(graph["removed"], 0);
    EXPECT_GT(graph["changed"].get<int>(), 0);
}

void LibraryDiff::checkDecompositionsAreAnOption()
{
    const Diff d = diff(eager, decomposed);
    EXPECT_EQ(d.exitCode, 1);
    bool named = false;
    for (const json& w : d.result["why"])
        named = named || w.get<std::string>().find("options changed: decompositions none -> ") == 0;
    EXPECT_TRUE(named) << d.result["why"].dump();
    // t became permute: the linear layers' transposes changed, the matmuls stayed
    const json& graph = d.result["captures"][0]["graph"];
    EXPECT_GT(graph["added"].get<int>(), 0);
    EXPECT_EQ(graph["added"], graph["removed"]);
}

void LibraryDiff::checkARunAndItsOwnImportAreEquivalent()
{
    ASSERT_GT(reimported, 0);
    const Diff d = diff(eager, reimported);
    EXPECT_EQ(d.exitCode, 0) << d.text;
    EXPECT_TRUE(d.result["equivalent"].get<bool>());
    EXPECT_EQ(d.text.rfind("equivalent: ", 0), 0u) << d.text;
}

void LibraryDiff::checkAModelInAnImportedFileIsEquivalentToItself()
{
    ASSERT_GT(importing, 0);
    ASSERT_GT(importingAgain, 0);
    // The nodes' lines belong to twolayer_model.py, not to the script: read against that file,
    // a run is the same as itself and as another run of the unchanged script.
    for (const auto& [a, b] : {std::pair{importing, importing}, std::pair{importing, importingAgain}}) {
        const Diff d = diff(a, b);
        EXPECT_EQ(d.exitCode, 0) << d.text;
        EXPECT_EQ(d.text.rfind("equivalent: ", 0), 0u) << d.text;
        EXPECT_EQ(d.text.find("(edited)"), std::string::npos) << d.text;
        EXPECT_EQ(d.result["captures"][0]["graph"]["changed"], 0) << d.result["captures"][0]["graph"].dump();
    }
}

// One test: ctest runs each test in a process of its own, and every pair needs the stored runs.
TEST_F(LibraryDiff, RealPairsReadCorrectly)
{
    {
        SCOPED_TRACE("EagerAgainstInductorIsTheBackendWithTheSameGraph");
        checkEagerAgainstInductorIsTheBackendWithTheSameGraph();
    }
    {
        SCOPED_TRACE("AnAddedLayerIsTheScriptEditAndOneInsertedBlock");
        checkAnAddedLayerIsTheScriptEditAndOneInsertedBlock();
    }
    {
        SCOPED_TRACE("AChangedInputShapeIsNamed");
        checkAChangedInputShapeIsNamed();
    }
    {
        SCOPED_TRACE("DecompositionsAreAnOption");
        checkDecompositionsAreAnOption();
    }
    {
        SCOPED_TRACE("ARunAndItsOwnImportAreEquivalent");
        checkARunAndItsOwnImportAreEquivalent();
    }
    {
        SCOPED_TRACE("AModelInAnImportedFileIsEquivalentToItself");
        checkAModelInAnImportedFileIsEquivalentToItself();
    }
    // a run that is not there: nothing was compared, so not "they differ" (1)
    const auto missing
        = runProcess({PS_TEST_STUDIO, "--library", library, "library", "diff", std::to_string(eager), "999"});
    EXPECT_EQ(missing.exitCode, 2);
    EXPECT_NE(missing.err.find("no run 999"), std::string::npos) << missing.err;
}

TEST(LibraryDiffUsage, NoLibraryIsAUsageErrorNotADifference)
{
    TempDir dir;
    const auto r = runProcess({PS_TEST_STUDIO, "--library", dir.file("none.sqlite3"), "library", "diff", "1", "2"});
    EXPECT_EQ(r.exitCode, 2);
    EXPECT_NE(r.err.find("no library file there"), std::string::npos) << r.err;
}
