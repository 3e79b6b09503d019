// The whole way: precompile in the studio's Python, store the pair in the library, export it,
// and load the exported files in a plain `python -c` that compares with eager.

#include <gtest/gtest.h>
#include <sys/wait.h>

#include <cstdlib>
#include <filesystem>

#include "LibraryTestSupport.h"
#include "library/core/ArtifactLibrary.h"

#ifndef PS_LIBRARY_FIXTURES
#error "PS_LIBRARY_FIXTURES must name tests/library/fixtures"
#endif
#ifndef PS_PYTHON
#define PS_PYTHON ""
#endif

namespace ps::library {
namespace {

using test::TempDir;

constexpr const char* kLoadAndCompare = "import sys, torch\n"
                                        "if callable(torch.compiler.precompile):  # torch 2.14: the pair in memory\n"
                                        "    code = open(sys.argv[1]).read()\n"
                                        "    cache = open(sys.argv[2], 'rb').read()\n"
                                        "    f = torch.compiler.precompile.load(code, cache)\n"
                                        "else:  # torch 2.15: the two files\n"
                                        "    f = torch.compiler.precompile.load(sys.argv[1], sys.argv[2])\n"
                                        "def fn(x, w):\n"
                                        "    return torch.relu(x @ w).sum(dim=1) + torch.sin(x).mean()\n"
                                        "torch.manual_seed(0)\n"
                                        "x, w = torch.randn(16, 32), torch.randn(32, 8)\n"
                                        "out, ref = f(x.clone(), w.clone()), fn(x, w)\n"
                                        "torch.testing.assert_close(out, ref)\n"
                                        "print('matches eager, max abs diff', (out - ref).abs().max().item())\n";

/// Runs a command line, its output into `log`; returns the exit status.
int run(const std::string& command, const std::string& log)
{
    const int status = std::system((command + " >" + log + " 2>&1").c_str());
    return WIFEXITED(status) ? WEXITSTATUS(status) : -1;
}

std::string quoted(const std::string& s)
{
    std::string out = "'";
    for (char c : s)
        out += c == '\'' ? std::string("'\\''") : std::string(1, c);
    return out + "'";
}

class LibraryTorchRoundTrip : public ::testing::TestWithParam<const char*> { };

TEST_P(LibraryTorchRoundTrip, ExportedPairLoadsInPlainPythonAndMatchesEager)
{
    const std::string python = PS_PYTHON;
    if (python.empty() || !std::filesystem::exists(python))
        GTEST_SKIP() << "no studio Python environment";
    TempDir dir;
    const std::string made = dir.file("made");
    std::filesystem::create_directories(made);
    ASSERT_EQ(run(quoted(python) + " " + quoted(std::string(PS_LIBRARY_FIXTURES) + "/precompile_pair.py") + " "
                      + quoted(made) + " " + GetParam(),
                  dir.file("precompile.log")),
        0)
        << test::readBytes(dir.file("precompile.log"));

    ArtifactLibrary library(dir.file("lib.sqlite3"));
    NewRun run;
    run.report = nlohmann::json::parse(test::readBytes(made + "/report.json"));
    run.captures.push_back(NewCapture{test::readBytes(made + "/mlp.py"), test::readBytes(made + "/mlp.cache")});
    const std::int64_t id = library.insert(run);
    std::filesystem::remove_all(made);  // from here on only the library has the bytes

    const std::string out = dir.file("export");
    // Named as the library lists the run (its script's stem), whatever the capture is called.
    const std::vector<std::string> written = library.exportRun(id, out);
    ASSERT_EQ(written.size(), 3u);
    const std::string stem = library.show(id).summary.name;
    ASSERT_EQ(written[0], out + "/" + stem + ".py");
    const int rc = ::ps::library::run(quoted(python) + " -c " + quoted(kLoadAndCompare) + " " + quoted(written[0]) + " "
            + quoted(out + "/" + stem + ".cache"),
        dir.file("load.log"));
    const std::string log = test::readBytes(dir.file("load.log"));
    EXPECT_EQ(rc, 0) << log;
    EXPECT_NE(log.find("matches eager"), std::string::npos) << log;
}

INSTANTIATE_TEST_SUITE_P(Backends, LibraryTorchRoundTrip, ::testing::Values("eager", "inductor"));

}  // namespace
}  // namespace ps::library
