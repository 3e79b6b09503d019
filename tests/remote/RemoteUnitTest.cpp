// The parts of remote runs that need no host: destinations, the ssh command line and the line
// it runs there, the reading of ssh's last words, the artifact names that may cross, and the
// worker object's words.

#include "StudioProcess.h"
#include "model/WorkerInfo.h"
#include "protocol/Protocol.h"
#include "protocol/ProtocolError.h"
#include "remote/RemoteFrameReader.h"
#include "remote/RemoteLayout.h"
#include "remote/SshCommand.h"
#include "remote/SshDestination.h"
#include "remote/SshFailure.h"

#include <gtest/gtest.h>

#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <iterator>

#include <unistd.h>

using namespace ps::remote;

TEST(SshDestinationTest, TakesWhatSshTakesAndNamesTheHost)
{
    for (const char* good : {"gpu-box", "me@gpu-box", "ssh://me@gpu-box:2222", "ssh://gpu-box", "10.0.0.7"})
        EXPECT_EQ(SshDestination::problem(good), "") << good;
    EXPECT_EQ(SshDestination::displayName("ssh://me@gpu-box:2222"), "gpu-box");
    EXPECT_EQ(SshDestination::displayName("me@gpu-box"), "gpu-box");
    EXPECT_EQ(SshDestination::displayName("gpu-box"), "gpu-box");
    EXPECT_EQ(SshDestination::displayName("ssh://[fe80::1]:22"), "fe80::1");
}

TEST(SshDestinationTest, RefusesOptionsAndShellCharacters)
{
    EXPECT_NE(SshDestination::problem(""), "");
    EXPECT_NE(SshDestination::problem("-oProxyCommand=touch /tmp/x"), "");
    EXPECT_NE(SshDestination::problem("box; rm -rf ~"), "");
    EXPECT_NE(SshDestination::problem("box name"), "");
    EXPECT_NE(SshDestination::problem("$(id)"), "");
    // ssh reads the host out of the destination itself: that part too must be a name.
    EXPECT_NE(SshDestination::problem("ssh://-oProxyCommand=x"), "");
    EXPECT_NE(SshDestination::problem("me@-oProxyCommand=x"), "");
    EXPECT_NE(SshDestination::problem("me@"), "");
    // A refusal quotes the text with a terminal's control bytes escaped.
    const std::string said = SshDestination::problem("box\x1b]0;pwned\x07");
    EXPECT_NE(said.find("'box\\x1b]0;pwned\\x07'"), std::string::npos) << said;
}

/// What a compromised host could send, framed as RemoteFrameReader reads it.
class RemoteFrameReaderTest : public ::testing::Test {
protected:
    void SetUp() override
    {
        root = std::filesystem::temp_directory_path() / ("ps-frames-" + std::to_string(::getpid()));
        std::filesystem::create_directories(root / "out");
        reader.setPaths("/home/me/s.py", (root / "out").string(), "/tmp/ps-remote-1/s.py", "/tmp/ps-remote-1/out");
        ASSERT_FALSE(reader.onFrame(R"({"type":"remote","protocol":)" + std::to_string(ps::protocol::kProtocolVersion)
            + R"(,"studio":"0.1.0","folder":"/tmp/ps-remote-1"})"));
    }
    void TearDown() override { std::filesystem::remove_all(root); }
    std::string refusal(const std::string& frame)
    {
        try {
            reader.onFrame(frame);
        } catch (const ps::protocol::ProtocolError& e) {
            return e.what();
        }
        return {};
    }
    std::filesystem::path root;
    RemoteFrameReader reader{"gpu-box"};
};

TEST_F(RemoteFrameReaderTest, RefusesFilesThatAreNotArtifactsOrThatNoDiskCouldHold)
{
    EXPECT_NE(refusal(R"({"type":"file","name":"../../.bashrc","size":4})").find("not an artifact"), std::string::npos);
    const std::string huge = refusal(R"({"type":"file","name":"capture-0.cache","size":1099511627776})");
    EXPECT_NE(huge.find("over the 64 GiB an artifact may have"), std::string::npos) << huge;
    EXPECT_FALSE(reader.onFrame(R"({"type":"file","name":"capture-0.py","size":2})"));
    EXPECT_FALSE(reader.onFrame(R"({"type":"chunk"})"));
    EXPECT_NE(refusal("abcd").find("longer than it announced"), std::string::npos);
    // Nothing but the run's own folder, and a file that arrived short is gone.
    reader.dropFile();
    EXPECT_EQ(std::distance(std::filesystem::directory_iterator(root), {}), 1);
    EXPECT_TRUE(std::filesystem::is_empty(root / "out"));
}

TEST_F(RemoteFrameReaderTest, TheReportsPathsComeBackLocalAndNothingElseIsRewritten)
{
    const auto ev
        = reader.onFrame(R"({"type":"result","report":{"script":"/tmp/ps-remote-1/s.py","other":"/etc/passwd",)"
                         R"("artifact":"/tmp/ps-remote-1/out/capture-0.py"}})");
    ASSERT_TRUE(ev);
    EXPECT_EQ(ev->message["report"]["script"], "/home/me/s.py");
    EXPECT_EQ(ev->message["report"]["artifact"], (root / "out").string() + "/capture-0.py");
    EXPECT_EQ(ev->message["report"]["other"], "/etc/passwd");
}

TEST(SshCommandTest, RunsInBatchModeWithKeepAlivesAndTheDestinationLast)
{
    ::setenv("PS_SSH_COMMAND", "ssh -F '/a b/config' -p 2222", 1);
    const auto argv = SshCommand::argv({"gpu-box", "", "", ""}, {"--protocol", "2"});
    ::unsetenv("PS_SSH_COMMAND");
    ASSERT_GE(argv.size(), 6u);
    EXPECT_EQ(argv[1], "-F");
    EXPECT_EQ(argv[2], "/a b/config");  // quoted words stay one
    EXPECT_EQ(argv[3], "-p");
    auto has = [&](const std::string& option) { return std::find(argv.begin(), argv.end(), option) != argv.end(); };
    EXPECT_TRUE(has("BatchMode=yes"));  // a password prompt would hang: refused instead
    EXPECT_TRUE(has("ServerAliveInterval=3"));
    EXPECT_EQ(argv[argv.size() - 2], "gpu-box");
}

// The line the host runs, run here by /bin/sh: it finds the studio in the folder it is given
// (build/bin, bin, or the folder itself) and passes the arguments through untouched.
TEST(SshCommandTest, TheRemoteLineFindsTheStudioAndKeepsArgumentsWhole)
{
    ps::test::TempDir dir;
    std::filesystem::create_directories(dir.file("studio/build/bin"));
    const std::string fake = dir.file("studio/build/bin/precompile-studio");
    std::ofstream(fake) << "#!/bin/sh\nfor a in \"$@\"; do printf '[%s]' \"$a\"; done\n";
    std::filesystem::permissions(fake, std::filesystem::perms::owner_all);
    const auto line = SshCommand::remoteLine(dir.file("studio"), {"--remote-dir", "/it's a dir"});
    const auto r = ps::test::runProcess({"/bin/sh", "-c", line});
    EXPECT_EQ(r.exitCode, 0) << r.err;
    EXPECT_EQ(r.out, "[remote][serve][--remote-dir][/it's a dir]");

    const auto missing = ps::test::runProcess({"/bin/sh", "-c", SshCommand::remoteLine(dir.file("nothing"), {})});
    EXPECT_EQ(missing.exitCode, 127);
    const auto failure = SshFailure::classify("gpu-box", missing.exitCode, missing.err);
    EXPECT_EQ(failure.cause, ps::model::StartFailure::NoStudio);
    EXPECT_NE(failure.message.find("gpu-box has no Precompile Studio"), std::string::npos) << failure.message;
    EXPECT_NE(failure.message.find(dir.file("nothing")), std::string::npos) << failure.message;
}

TEST(SshFailureTest, SaysWhichOfUnreachableRefusedOrGone)
{
    auto f
        = SshFailure::classify("gpu-box", 255, "ssh: Could not resolve hostname gpu-box: Name or service not known\n");
    EXPECT_EQ(f.cause, ps::model::StartFailure::Unreachable);
    EXPECT_NE(f.message.find("gpu-box cannot be reached"), std::string::npos);
    EXPECT_NE(f.message.find("Could not resolve hostname"), std::string::npos);
    f = SshFailure::classify("gpu-box", 255, "me@gpu-box: Permission denied (publickey).\n");
    EXPECT_EQ(f.cause, ps::model::StartFailure::Authentication);
    EXPECT_NE(f.message.find("refused the login"), std::string::npos);
    f = SshFailure::classify("gpu-box", 255, "ssh: connect to host 1.2.3.4 port 22: Connection refused\r\n");
    EXPECT_EQ(f.cause, ps::model::StartFailure::Unreachable);
    EXPECT_EQ(f.message.find('\r'), std::string::npos);
    f = SshFailure::classify("gpu-box", 1, "");
    EXPECT_EQ(f.cause, ps::model::StartFailure::Died);
    EXPECT_NE(f.message.find("ssh said nothing (exit status 1)"), std::string::npos);
}

TEST(RemoteLayoutTest, OnlyArtifactFilesCrossAndScriptNamesStayPlain)
{
    EXPECT_TRUE(RemoteLayout::isArtifactName("capture-0.py"));
    EXPECT_TRUE(RemoteLayout::isArtifactName("capture-12.cache"));
    for (const char* bad :
        {"capture-.py", "capture-1.so", "../capture-1.py", "capture-1.py/x", "x", "capture-1234567.py"})
        EXPECT_FALSE(RemoteLayout::isArtifactName(bad)) << bad;
    EXPECT_EQ(RemoteLayout::scriptName("/home/me/mlp.py"), "mlp.py");
    EXPECT_EQ(RemoteLayout::scriptName("/home/me/"), "script.py");
    EXPECT_EQ(RemoteLayout::scriptName(std::string("/x/a\nb.py")), "script.py");
}

TEST(WorkerInfoTest, SaysWhereAndWhatInOneLine)
{
    const auto local = ps::model::WorkerInfo::fromJson(
        {{"host", nullptr}, {"torch", "2.14.1"}, {"devices", nlohmann::json::array()}});
    ASSERT_TRUE(local);
    EXPECT_FALSE(local->remote());
    EXPECT_EQ(local->summary(), "this computer \u00b7 torch 2.14.1 \u00b7 CPU");
    const auto gpu = ps::model::WorkerInfo::fromJson({{"host", "gpu-box"}, {"torch", "2.14.1+cu130"},
        {"devices",
            {{{"index", 0}, {"name", "NVIDIA H200"}, {"memory_bytes", 150000000000LL}, {"capability", "9.0"}},
                {{"index", 1}, {"name", "NVIDIA H200"}}, {{"index", 2}, {"name", "NVIDIA T4"}}}}});
    ASSERT_TRUE(gpu);
    EXPECT_TRUE(gpu->remote());
    EXPECT_EQ(gpu->summary(), "gpu-box \u00b7 torch 2.14.1+cu130 \u00b7 2x NVIDIA H200, 1x NVIDIA T4");
    EXPECT_FALSE(ps::model::WorkerInfo::fromJson(nullptr));
    // A field of another type reads as absent, never throws.
    const auto odd = ps::model::WorkerInfo::fromJson({{"host", 3}, {"devices", "x"}, {"protocol", "two"}});
    ASSERT_TRUE(odd);
    EXPECT_FALSE(odd->remote());
    EXPECT_EQ(odd->protocol, 0);
}
