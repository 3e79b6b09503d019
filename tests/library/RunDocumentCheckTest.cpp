// RunDocumentCheck: what `library verify` says of rows no studio writes (the team library's
// campaign test writes them into a real PostgreSQL database; here, the words for each kind).
#include "library/core/RunDocumentCheck.h"

#include <gtest/gtest.h>

namespace ps::library {
namespace {

RunRecord wellFormed()
{
    RunRecord r;
    r.summary.id = 7;
    r.summary.name = "mlp";
    r.summary.status = model::RunStatus::Ok;
    CaptureRecord& c = r.summary.captures.emplace_back();
    c.name = "fn";
    c.status = model::CaptureStatus::Ok;
    c.pythonCodeSha256 = std::string(64, 'a');
    r.report = {{"schema", 1}, {"captures", nlohmann::json::array({nlohmann::json::object()})}};
    return r;
}

TEST(RunDocumentCheck, AWellFormedRunHasNoProblem)
{
    EXPECT_TRUE(RunDocumentCheck::problemsOf(wellFormed()).empty());
}

TEST(RunDocumentCheck, NamesEachKindOfCraftedRow)
{
    RunRecord r = wellFormed();
    r.summary.name = "../x";
    r.summary.status.reset();
    r.summary.captures[0].name = "a\x1b[2Jb";
    r.summary.captures[0].status.reset();
    r.summary.captures[0].cacheSha256 = "short";
    r.report = {{"schema", 2}, {"captures", nlohmann::json::array()}};
    const std::vector<std::string> expected = {
        "run 7: its name holds a path separator",
        "run 7: its status is not one the studio knows",
        "run 7: the name of capture 0 holds control characters",
        "run 7: capture 0 (unnamed) has a status the studio does not know",
        "run 7: capture 0 (unnamed) names a blob whose key is not a sha256",
        "run 7: its report is not a schema-1 report",
        "run 7: its report lists 0 capture(s), the library 1",
    };
    EXPECT_EQ(RunDocumentCheck::problemsOf(r), expected);
    r.report = nlohmann::json::array();
    EXPECT_EQ(RunDocumentCheck::problemsOf(r).back(), "run 7: its report is not a JSON object");
}

TEST(RunDocumentCheck, ANameIsJudgedForControlsAndSeparators)
{
    EXPECT_EQ(RunDocumentCheck::nameProblem("resnet18 · eval"), "");
    EXPECT_EQ(RunDocumentCheck::nameProblem("a\\b"), "holds a path separator");
    EXPECT_EQ(RunDocumentCheck::nameProblem("a\x7f"), "holds control characters");
    EXPECT_EQ(RunDocumentCheck::nameProblem("../a\n"), "holds control characters and a path separator");
}

}  // namespace
}  // namespace ps::library
