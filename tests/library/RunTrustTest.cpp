// RunTrust and TrustStore: whose run may execute here. Someone else's run is untrusted until
// this user trusts it in a file of their own; a trust is of the run as it was (its artifacts'
// keys), and a file another user could have written is not believed.
#include "LibraryTestSupport.h"

#include "library/core/LibraryError.h"
#include "library/core/RunTrust.h"
#include "library/core/TrustStore.h"

#include <gtest/gtest.h>

#include <sys/stat.h>

#include <fstream>

namespace ps::library {
namespace {

RunSummary storedBy(const std::string& user, const std::string& role, bool trustedColumn = true)
{
    RunSummary r;
    r.id = 3;
    r.uid = "2f1c-uid";
    r.trusted = trustedColumn;
    r.storedBy = Identity{role, user};
    CaptureRecord& c = r.captures.emplace_back();
    c.pythonCodeSha256 = std::string(64, 'a');
    c.cacheSha256 = std::string(64, 'b');
    return r;
}

class RunTrustTest : public ::testing::Test {
protected:
    test::TempDir dir;
    TrustStore mine{dir.file("trusted-runs.json")};
    const Identity me{"team_bob", "bob"};
};

TEST_F(RunTrustTest, OnesOwnRunIsTrustedAndAnImportWaitsForTheColumn)
{
    EXPECT_TRUE(RunTrust::of(storedBy("bob", "team_bob"), me, mine).trusted());
    const auto imported = RunTrust::of(storedBy("bob", "team_bob", false), me, mine);
    EXPECT_EQ(imported.verdict(), RunTrust::Verdict::Imported);
    EXPECT_FALSE(imported.someoneElses());
    // A run stored before who stored it was recorded is its library's own.
    EXPECT_TRUE(RunTrust::of(storedBy("", ""), me, mine).trusted());
    // One's own run copied back from a team library into a file keeps the role it had there.
    EXPECT_TRUE(RunTrust::of(storedBy("bob", "team_bob"), Identity{"", "bob"}, mine).trusted());
}

TEST_F(RunTrustTest, SomeoneElsesRunIsUntrustedWhateverTheColumnSays)
{
    for (const auto& run :
        {storedBy("alice", "team_alice"), storedBy("alice", "team_bob"), storedBy("bob", "team_eve")}) {
        const auto t = RunTrust::of(run, me, mine);
        EXPECT_EQ(t.verdict(), RunTrust::Verdict::SomeoneElses) << run.storedBy.user << " " << run.storedBy.role;
        EXPECT_TRUE(t.someoneElses());
        EXPECT_NE(t.why().find("stored by " + t.owner()), std::string::npos) << t.why();
    }
    EXPECT_EQ(RunTrust::of(storedBy("alice", "team_alice"), me, mine).owner(), "alice (database role team_alice)");
}

TEST_F(RunTrustTest, TrustIsMineOfTheRunAsItWas)
{
    RunSummary alices = storedBy("alice", "team_alice");
    mine.trust(alices);
    EXPECT_TRUE(RunTrust::of(alices, me, mine).trusted());
    struct stat st { };
    ASSERT_EQ(::stat(mine.path().c_str(), &st), 0);
    EXPECT_EQ(st.st_mode & 0777, 0600u);
    // Another user trusts nothing by my file: the file is mine, the verdict is per viewer.
    EXPECT_TRUE(TrustStore(mine.path()).trusts(alices));
    // Its artifacts changed after: untrusted again.
    alices.captures[0].cacheSha256 = std::string(64, 'c');
    EXPECT_FALSE(RunTrust::of(alices, me, mine).trusted());
}

TEST_F(RunTrustTest, AFileOthersMayWriteIsNotBelieved)
{
    const RunSummary alices = storedBy("alice", "team_alice");
    mine.trust(alices);
    EXPECT_TRUE(mine.trusts(alices));  // read once: a change of its mode is seen all the same
    ASSERT_EQ(::chmod(mine.path().c_str(), 0666), 0);
    EXPECT_FALSE(mine.trusts(alices));
    try {
        mine.trust(alices);
        FAIL() << "trusted through a file others may write";
    } catch (const LibraryError& e) {
        EXPECT_NE(std::string(e.what()).find("not a file of this user's alone"), std::string::npos) << e.what();
    }
    ASSERT_EQ(::chmod(mine.path().c_str(), 0600), 0);
    std::ofstream(mine.path()) << "{not json";
    EXPECT_FALSE(mine.trusts(alices));
}

}  // namespace
}  // namespace ps::library
