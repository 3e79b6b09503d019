// A compromised host ([hostile-2]): behind the suite's real sshd, the host's studio is
// tests/remote/hostile_host.py, which answers as a relay would and then lies, floods, escapes
// its folder or sends escape sequences in every text. Each case runs the real front end
// (`precompile-studio run --host`) and asserts what the user relies on: a named outcome, the
// terminal and the window's text never acted on, nothing written outside the run's folder,
// nothing stored that does not verify, the host never believed about itself.

#include "StudioRun.h"
#include "TestSshServer.h"
#include "protocol/Protocol.h"

#include <gtest/gtest.h>
#include <nlohmann/json.hpp>

#include <cstdlib>
#include <filesystem>
#include <fstream>

namespace fs = std::filesystem;
using ps::test::TestSshServer;

namespace {

class HostileRemote : public ::testing::Test {
protected:
    void SetUp() override { ASSERT_EQ(server.problem(), ""); }

    /// A --remote-studio folder whose studio plays `scenario` (hostile_host.py).
    std::string host(const std::string& scenario) const
    {
        const std::string root = dir.file("host-" + scenario);
        fs::create_directories(root + "/bin");
        const std::string studio = root + "/bin/precompile-studio";
        std::ofstream(studio) << "#!/bin/sh\nexec '" << PS_TEST_PYTHON << "' '" << PS_TEST_SOURCE_DIR
                              << "/tests/remote/hostile_host.py' " << ps::protocol::kProtocolVersion << " " << scenario
                              << "\n";
        fs::permissions(studio, fs::perms::owner_all);
        return root;
    }

    /// `precompile-studio --library LIB run SCRIPT --host H --remote-studio <scenario's>` as a
    /// user types it (the terminal's words), or with --json.
    ps::test::ProcessResult run(const std::string& scenario, bool json = false) const
    {
        std::vector<std::string> argv = {PS_TEST_STUDIO, "--library", library, "run", script, "--host",
            TestSshServer::kHost, "--remote-studio", host(scenario)};
        if (json)
            argv.push_back("--json");
        // The run's own folder inside the test's: a file that escaped it would be found below.
        auto env = server.environment();
        fs::create_directories(dir.file("tmp/t"));
        env.push_back("TMPDIR=" + dir.file("tmp/t"));
        return ps::test::runProcess(argv, env);
    }

    /// What a terminal would act on: ESC, BEL, or a bidirectional override.
    static bool terminalSafe(const std::string& text)
    {
        return text.find('\x1b') == std::string::npos && text.find('\x07') == std::string::npos
            && text.find("\u202e") == std::string::npos;
    }

    /// The library's runs (`library ls --json`).
    nlohmann::json stored() const
    {
        const auto ls = ps::test::runProcess({PS_TEST_STUDIO, "--library", library, "library", "ls", "--json"});
        EXPECT_EQ(ls.exitCode, 0) << ls.err;
        return nlohmann::json::parse(ls.out, nullptr, false).value("runs", nlohmann::json::array());
    }

    /// Every file under the test's folder but the library's and the hosts' own.
    std::vector<std::string> strayFiles() const
    {
        std::vector<std::string> found;
        for (const auto& e : fs::recursive_directory_iterator(dir.path())) {
            const std::string name = e.path().filename().string();
            const std::string path = e.path().string();
            if (e.is_regular_file() && path.find("/host-") == std::string::npos && name.rfind("library.db", 0) != 0
                && name != "plain.py")
                found.push_back(path);
        }
        return found;
    }

    TestSshServer server;
    ps::test::TempDir dir;
    std::string library = dir.file("library.db");
    std::string script
        = dir.write("plain.py", "import torch\n\ndef fn(x):\n    return x + 1\n\nexample_inputs = (torch.ones(2),)\n");
};

}  // namespace

// A host that completes a run, every text of it holding escape sequences, claiming to be another
// machine, naming files outside its folder: the terminal gets no escape, the run is stored with the
// front end's word for where it ran and which script, and library ls/show stay terminal-safe.
TEST_F(HostileRemote, ALyingHostsRunIsShownSafelyAndNamedAsWhereItRan)
{
    const auto r = run("liar");
    EXPECT_TRUE(terminalSafe(r.out)) << r.out;
    EXPECT_TRUE(terminalSafe(r.err)) << r.err;
    EXPECT_NE(r.err.find("printed \\x1b]0;owned\\x07"), std::string::npos)
        << "the host's output, as escapes: " << r.err;
    const auto runs = stored();
    ASSERT_EQ(runs.size(), 1u) << runs.dump();
    const std::string id = std::to_string(runs[0].value("run_id", 0));
    const auto show = ps::test::runProcess({PS_TEST_STUDIO, "--library", library, "library", "show", id, "--json"});
    ASSERT_EQ(show.exitCode, 0) << show.err;
    const auto report = nlohmann::json::parse(show.out);
    EXPECT_EQ(report["worker"].value("host", ""), TestSshServer::kHost) << report["worker"].dump();
    EXPECT_EQ(report.value("script", ""), script) << "the script is the one the user ran, not the host's word";
    EXPECT_NE(report.value("run_id", 0), 424242);
    for (const auto& args : std::vector<std::vector<std::string>>{{"library", "ls"}, {"library", "show", id}}) {
        std::vector<std::string> argv = {PS_TEST_STUDIO, "--library", library};
        argv.insert(argv.end(), args.begin(), args.end());
        const auto shown = ps::test::runProcess(argv);
        EXPECT_EQ(shown.exitCode, 0) << shown.err;
        EXPECT_TRUE(terminalSafe(shown.out + shown.err)) << shown.out;
    }
    EXPECT_TRUE(strayFiles().empty()) << strayFiles().front();
}

// Artifact files that are not the ones the report hashes: the run is an error that says so, and
// no artifact of it is kept as if it were good.
TEST_F(HostileRemote, FilesThatDoNotMatchTheirHashesAreAnErrorNotAnArtifact)
{
    const auto r = run("mismatch", /*json=*/true);
    EXPECT_NE(r.exitCode, 0);
    const auto report = nlohmann::json::parse(r.out, nullptr, false);
    ASSERT_TRUE(report.is_object()) << r.out << r.err;
    EXPECT_EQ(report.value("status", ""), "error");
    EXPECT_NE(report.value("message", "").find("do not match the hashes its report records"), std::string::npos)
        << report.value("message", "");
    EXPECT_FALSE(report["captures"][0].contains("artifact") && report["captures"][0]["artifact"].is_object()
        && report.value("status", "") == "ok");
}

// Each way a host can break the transport ends the run with one line naming the host and the
// cause, writes nothing outside the run's folder, and stores nothing that says ok.
TEST_F(HostileRemote, EveryBrokenTransportIsOneNamedLineAndNothingEscapes)
{
    const std::vector<std::pair<std::string, std::string>> cases = {
        {"outside", "sent a file that is not an artifact"},
        {"oversized", "over the 64 GiB an artifact may have"},
        {"endless", "sent capture-0.cache longer than it announced"},
        {"garbage", "sent a message that is not JSON"},
        {"flood", "broke the channel: frame length 4294967295 is over the limit"},
    };
    for (const auto& [scenario, words] : cases) {
        SCOPED_TRACE(scenario);
        const auto r = run(scenario);
        EXPECT_NE(r.exitCode, 0);
        EXPECT_TRUE(terminalSafe(r.out + r.err)) << r.out << r.err;
        EXPECT_NE((r.out + r.err).find(words), std::string::npos) << r.out << r.err;
        EXPECT_NE((r.out + r.err).find(TestSshServer::kHost), std::string::npos) << "names the host: " << r.err;
        EXPECT_FALSE(fs::exists(dir.file("escaped.py")) || fs::exists(dir.file("tmp/escaped.py")));
        EXPECT_TRUE(strayFiles().empty()) << strayFiles().front();
    }
    for (const auto& run : stored())
        EXPECT_NE(run.value("status", ""), "ok") << run.dump();
    EXPECT_TRUE(server.waitUntilNoSessionProcess(10));
}
