// Where a stored run goes, through the real binaries: `library check` loads its pair in each torch
// environment as a server would (the other series' row names the torch series), an untrusted
// import is refused before anything of it executes, and `library export --with-loader` writes a
// loader that plain Python runs in both environments.
#include "StudioRun.h"

#include <gtest/gtest.h>

#include <sstream>

using namespace ps::test;
using nlohmann::json;

namespace {

const char* kDeployMlp = R"(import torch
from torch import nn

torch.manual_seed(0)
model = nn.Sequential(nn.Linear(16, 32), nn.ReLU(), nn.Linear(32, 4)).eval()
backend = "eager"


def fn(model, x):
    return model(x).softmax(-1)


def example_inputs():
    return (model, torch.randn(8, 16))


name = "mlp"
)";

/// The torch environment of the other series, "" when the build made only one.
std::string otherEnvironment()
{
    std::stringstream all(PS_TEST_TORCH_ENVS);
    std::string env;
    while (std::getline(all, env, ',')) {  // SERIES=PATH
        env = env.substr(env.find('=') + 1);
        if (!env.empty()
            && std::filesystem::weakly_canonical(env) != std::filesystem::weakly_canonical(suiteEnvironment()))
            return env;
    }
    return {};
}

std::string seriesOf(const std::string& env)
{
    return ps::protocol::WorkerLocator::torchSeriesOf(env).value_or("?");
}

class DeployTest : public ::testing::Test {
protected:
    void SetUp() override
    {
        library = dir.file("library.db");
        script = dir.write("mlp.py", kDeployMlp);
        const auto r = runProcess({PS_TEST_STUDIO, "--library", library, "run", script, "--json", "--no-verify"});
        ASSERT_EQ(r.exitCode, 0) << r.err;
        runId = json::parse(r.out).at("run_id").get<std::int64_t>();
    }

    /// `precompile-studio library ARGS`. The check names each environment itself: the suite's
    /// PS_PYTHON_ENV (the torch-2.14 registration's, which would hold every worker to its series)
    /// is cleared for it.
    ProcessResult studio(std::vector<std::string> args)
    {
        std::vector<std::string> argv = {PS_TEST_STUDIO, "--library", library, "library"};
        argv.insert(argv.end(), args.begin(), args.end());
        return runProcess(argv, {"PS_PYTHON_ENV="});
    }

    TempDir dir;
    std::string library;
    std::string script;
    std::int64_t runId = 0;
};

}  // namespace

TEST_F(DeployTest, ACheckInTheOtherTorchSeriesNamesTheSeries)
{
    // The pair this suite's torch made, loaded by plain torch of the other series (the 2.15
    // registration checks 2.15's pair in 2.14, the 2.14 one the other way round). The check in the
    // environment that made it is the Python suite's (tests/python/test_deploy.py) and, over ssh,
    // RemoteRun.ACheckOnAHostLoadsThePairThereAsHere.
    const std::string other = otherEnvironment();
    if (other.empty())
        GTEST_SKIP() << "the build made one torch environment";
    const auto r = studio({"check", std::to_string(runId), "--python-env", other, "--json"});
    ASSERT_EQ(r.exitCode, 0) << r.out << r.err;
    const json out = json::parse(r.out);
    ASSERT_EQ(out["targets"].size(), 1u);
    const json& there = out["targets"][0]["check"];
    // Plain torch of the other series runs the eager pair (nothing to compile) and gives eager's
    // numbers there; the check names the series, which precompile itself does not check.
    EXPECT_EQ(there["outcome"], "loads") << there.dump(2);
    EXPECT_EQ(there["target"]["torch"].get<std::string>().substr(0, 4), seriesOf(other));
    EXPECT_EQ(out["made"]["torch"].get<std::string>().substr(0, 4), seriesOf(suiteEnvironment()));
    EXPECT_EQ(there["stamp"], nullptr);  // nothing failed for a stamp to explain
    ASSERT_FALSE(there["differences"].empty()) << there.dump(2);
    EXPECT_EQ(there["differences"][0]["stamp"], "torch_series");
    EXPECT_NE(there["reason"].get<std::string>().find(
                  "torch series " + seriesOf(suiteEnvironment()) + " where it was made, " + seriesOf(other) + " here"),
        std::string::npos)
        << there.dump(2);
    EXPECT_EQ(there["accuracy"]["verdict"], "matches");
    EXPECT_GT(there["first_call_s"].get<double>(), 0);
    // The first line a person reads says the same.
    EXPECT_EQ(out["summary"], "runs on 1 of 1 target (1 with its cache, 0 compiling its kernels)");

    // Kept with the run: `library show` and `ls` say where it was checked, and by whom.
    EXPECT_EQ(out["kept"], 1);
    const auto shown = studio({"show", std::to_string(runId)});
    ASSERT_EQ(shown.exitCode, 0) << shown.err;
    EXPECT_NE(shown.out.find("checked   "), std::string::npos) << shown.out;
    EXPECT_NE(shown.out.find(": loads with its cache \u00b7 first call "), std::string::npos) << shown.out;
    const auto listed = studio({"ls", "--json"});
    ASSERT_EQ(listed.exitCode, 0) << listed.err;
    const json checks = json::parse(listed.out)["runs"][0]["checks"];
    ASSERT_EQ(checks.size(), 1u) << listed.out;
    EXPECT_EQ(checks[0]["target"], other);
    EXPECT_EQ(checks[0]["outcome"], "loads");
    EXPECT_EQ(checks[0]["runs"], true);
}

TEST_F(DeployTest, AnUntrustedImportIsNotCheckedAndNothingOfItRuns)
{
    ASSERT_EQ(studio({"export", std::to_string(runId), dir.file("out")}).exitCode, 0);
    const auto imported = studio({"import", dir.file("out/mlp.py"), "--json"});
    ASSERT_EQ(imported.exitCode, 0) << imported.err;
    const auto id = json::parse(imported.out).at("run_id").get<std::int64_t>();
    const auto r = studio({"check", std::to_string(id)});
    EXPECT_EQ(r.exitCode, 1);
    EXPECT_NE(r.err.find("is not checked: its script and python_code would execute here"), std::string::npos) << r.err;
    EXPECT_NE(r.err.find("library trust " + std::to_string(id)), std::string::npos) << r.err;
    EXPECT_EQ(r.out, "");
}

TEST_F(DeployTest, TheExportedLoaderLoadsWithPlainTorchAndSaysWhatDiffersElsewhere)
{
    const auto exported = studio({"export", std::to_string(runId), dir.file("out"), "--with-loader", "--json"});
    ASSERT_EQ(exported.exitCode, 0) << exported.err;
    const json files = json::parse(exported.out)["files"];
    EXPECT_NE(std::find(files.begin(), files.end(), dir.file("out/load_mlp.py")), files.end()) << files.dump();

    // Plain Python of the environment that made it: no studio on its path.
    const auto here = runProcess({suitePython(), "-I", dir.file("out/load_mlp.py")});
    EXPECT_EQ(here.exitCode, 0) << here.out << here.err;
    EXPECT_EQ(here.out.rfind("load_mlp: loads here, every stamp as it was made", 0), 0u) << here.out;

    const std::string other = otherEnvironment();
    if (other.empty())
        return;
    const auto there = runProcess({other + "/bin/python", "-I", dir.file("out/load_mlp.py")});
    EXPECT_EQ(there.exitCode, 1) << there.out << there.err;
    EXPECT_NE(there.out.find("load_mlp: loads, but torch " + seriesOf(suiteEnvironment()) + " where it was made, "
                  + seriesOf(other) + " here"),
        std::string::npos)
        << there.out;
}
