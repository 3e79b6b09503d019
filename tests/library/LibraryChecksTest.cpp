// Load checks kept with a run (`library check`, Check On…): the same behaviour over both stores.

#include <gtest/gtest.h>

#include <string>

#include "LibraryTestSupport.h"
#include "StoreBackends.h"
#include "library/core/ArtifactLibrary.h"
#include "library/core/CheckColumns.h"
#include "library/core/LibraryError.h"
#include "library/core/OsUser.h"

namespace ps::library {
namespace {

using test::makeRun;
using json = nlohmann::json;

CheckRecord checkAt(const std::string& target, const std::string& outcome, bool runs, std::int64_t ms)
{
    CheckRecord c;
    c.target = target;
    c.outcome = outcome;
    c.runs = runs;
    c.firstCallMs = ms;
    c.torch = "2.15.0+cu130";
    c.reason = outcome + " at " + target;
    c.check = {{"outcome", outcome}, {"reason", c.reason}, {"first_call_s", static_cast<double>(ms) / 1000}};
    return c;
}

template <class Backend> class LibraryChecksOn : public ::testing::Test { };
TYPED_TEST_SUITE(LibraryChecksOn, test::StoreBackends, test::StoreBackendNames);

TYPED_TEST(LibraryChecksOn, KeepsEveryCheckAndListsTheLatestAtEachTarget)
{
    TypeParam store;
    ArtifactLibrary library(store.location());
    const std::int64_t first = library.insert(makeRun("first", "def forward(x):\n    return x\n", "cache"));
    const std::int64_t other = library.insert(makeRun("other", "def forward(x):\n    return x + 1\n", "cache 2"));
    library.addCheck(first, checkAt("/envs/torch-2.14", "fallback", true, 1400));
    library.addCheck(first, checkAt("gpu-box", "refused", false, 0));
    library.addCheck(first, checkAt("/envs/torch-2.14", "loads", true, 300));

    // Every check, newest first, with its report object and who checked.
    const std::vector<CheckRecord> all = library.checks(first);
    ASSERT_EQ(all.size(), 3u);
    EXPECT_EQ(all[0].outcome, "loads");
    EXPECT_EQ(all[0].target, "/envs/torch-2.14");
    EXPECT_EQ(all[0].firstCallMs, 300);
    EXPECT_EQ(all[0].torch, "2.15.0+cu130");
    EXPECT_EQ(all[0].check.value("reason", ""), "loads at /envs/torch-2.14");
    EXPECT_EQ(all[0].checkedBy.user, OsUser::name());
    EXPECT_EQ(all[0].checkedBy.role, library.identity().role);
    EXPECT_FALSE(all[0].checkedAt.empty());
    EXPECT_EQ(all[1].outcome, "refused");
    EXPECT_FALSE(all[1].runs);
    EXPECT_EQ(all[2].outcome, "fallback");
    EXPECT_TRUE(library.checks(other).empty());

    // The list and show carry the latest at each target only, without the report object.
    const std::vector<RunSummary> runs = library.list();
    ASSERT_EQ(runs.size(), 2u);
    EXPECT_TRUE(runs[0].checks.empty());  // other
    ASSERT_EQ(runs[1].checks.size(), 2u);
    EXPECT_EQ(runs[1].checks[0].target, "/envs/torch-2.14");
    EXPECT_EQ(runs[1].checks[0].outcome, "loads");
    EXPECT_TRUE(runs[1].checks[0].check.is_null());
    EXPECT_EQ(runs[1].checks[1].target, "gpu-box");
    const RunRecord shown = library.show(first);
    ASSERT_EQ(shown.summary.checks.size(), 2u);
    EXPECT_EQ(shown.summary.checks[0].outcome, "loads");

    // A filtered list carries them too.
    ListQuery query;
    query.search = "first";
    const auto found = library.list(query);
    ASSERT_EQ(found.size(), 1u);
    EXPECT_EQ(found[0].checks.size(), 2u);

    // Removing the run removes its checks.
    library.remove(first);
    EXPECT_EQ(store.query("SELECT count(*) FROM checks"), "0");
}

TYPED_TEST(LibraryChecksOn, RefusesACheckOfNoRunOrOfAnUnknownOutcomeAndKeepsNothing)
{
    TypeParam store;
    ArtifactLibrary library(store.location());
    const std::int64_t id = library.insert(makeRun("mlp", "def forward(x):\n    return x\n", "cache"));
    try {
        library.addCheck(id + 5, checkAt("here", "loads", true, 10));
        FAIL() << "a check of no run was kept";
    } catch (const LibraryError& e) {
        EXPECT_EQ(e.kind(), LibraryError::Kind::NotFound);
        EXPECT_NE(std::string(e.what()).find("no run " + std::to_string(id + 5)), std::string::npos) << e.what();
    }
    try {
        library.addCheck(id, checkAt("here", "works fine", true, 10));
        FAIL() << "a check with an unknown outcome was kept";
    } catch (const LibraryError& e) {
        EXPECT_EQ(e.kind(), LibraryError::Kind::Invalid);
        EXPECT_NE(std::string(e.what()).find("'works fine'"), std::string::npos) << e.what();
    }
    EXPECT_THROW(library.addCheck(id, checkAt("", "loads", true, 10)), LibraryError);
    EXPECT_EQ(store.query("SELECT count(*) FROM checks"), "0");
}

TYPED_TEST(LibraryChecksOn, LongTextsAreCutAndACraftedRowReadsBackWithoutItsObject)
{
    TypeParam store;
    ArtifactLibrary library(store.location());
    const std::int64_t id = library.insert(makeRun("mlp", "def forward(x):\n    return x\n", "cache"));
    CheckRecord big = checkAt(std::string(5000, 't'), "error", false, 10);
    big.reason = std::string(20000, 'r');
    big.check = {{"blob", std::string(CheckColumns::kMaxCheckBytes + 10, 'x')}};
    library.addCheck(id, big);
    const auto kept = library.checks(id);
    ASSERT_EQ(kept.size(), 1u);
    EXPECT_LE(kept[0].target.size(), CheckColumns::kMaxLabelBytes + 3);
    EXPECT_LE(kept[0].reason.size(), CheckColumns::kMaxReasonBytes + 3);
    EXPECT_TRUE(kept[0].check.empty());  // over its limit: not kept

    // A row another program wrote, whose object is not JSON: the row reads, its object is null.
    store.exec("UPDATE checks SET check_json = '{not json'");
    const auto crafted = library.checks(id);
    ASSERT_EQ(crafted.size(), 1u);
    EXPECT_TRUE(crafted[0].check.is_null());
    EXPECT_EQ(crafted[0].outcome, "error");
}

}  // namespace
}  // namespace ps::library
