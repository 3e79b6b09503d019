#include "lessons/LessonExpectation.h"

#include <gtest/gtest.h>

#include <string>
#include <vector>

using nlohmann::json;
using ps::lessons::LessonExpectation;

namespace {

const std::string kScript = "/lessons/demo/broken.py";

json location(const std::string& file, int line)
{
    return {{"file", file}, {"line", line}};
}

json violation(int invariant, const std::string& rule, const json& where, const std::string& message = "m")
{
    return {{"invariant", invariant}, {"rule", rule}, {"kind", "PrecompileError"}, {"location", where},
        {"message", message}};
}

/// A schema-1 report of one capture, with more in it than expect.json ever names.
json report()
{
    return {{"schema", 1}, {"script", kScript}, {"status", "violation"}, {"message", "the run ended in a violation"},
        {"violation", nullptr},
        {"captures",
            {{{"name", "fn"}, {"status", "violation"},
                {"violation", violation(1, "constant-tensor", location(kScript, 17), "a tensor is closed over\nmore")},
                {"verify",
                    {{"status", "mismatch"}, {"matches_eager", false}, {"grads_match", false}, {"buffers_match", true},
                        {"inputs_match", nullptr}, {"max_abs_diff", 0.5},
                        {"runtime", {{"status", "ok"}, {"matches_eager", true}}}}},
                {"warnings",
                    json::array({violation(4, "data-dependent-branch", location("/elsewhere/helper.py", 12))})},
                {"timings_s", {{"script", 0.5}}}}}}};
}

json stable()
{
    return LessonExpectation::stableFields(report(), kScript);
}

}  // namespace

TEST(LessonExpectation, StableFieldsKeepOnlyWhatExpectJsonCanName)
{
    const json s = stable();
    EXPECT_EQ(s["status"], "violation");
    EXPECT_TRUE(s["violation"].is_null());
    ASSERT_EQ(s["captures"].size(), 1u);
    const json& c = s["captures"][0];
    EXPECT_EQ(c["violation"], (json{{"invariant", 1}, {"rule", "constant-tensor"}, {"line", 17}}));
    EXPECT_EQ(c["verify"],
        (json{{"status", "mismatch"}, {"matches_eager", false}, {"grads_match", false}, {"buffers_match", true},
            {"inputs_match", nullptr}, {"runtime", {{"status", "ok"}, {"matches_eager", true}}}}));
    EXPECT_FALSE(c.contains("name"));
    EXPECT_FALSE(c.contains("timings_s"));
    EXPECT_FALSE(c["verify"].contains("max_abs_diff"));
}

TEST(LessonExpectation, ALineOfTheScriptIsANumberAndOneOfAnotherFileReadsFileColonLine)
{
    const json c = stable()["captures"][0];
    EXPECT_EQ(c["violation"]["line"], 17);
    EXPECT_EQ(c["warnings"], (json{{{"invariant", 4}, {"rule", "data-dependent-branch"}, {"line", "helper.py:12"}}}));

    // the same file, spelt another way; no file at all; no line at all
    json r = report();
    r["captures"][0]["violation"]["location"] = location("/lessons/demo/../demo/./broken.py", 5);
    r["captures"][0]["warnings"]
        = {{{"rule", "r"}, {"location", {{"line", 6}}}}, {{"rule", "r"}, {"location", nullptr}}};
    const json s = LessonExpectation::stableFields(r, kScript)["captures"][0];
    EXPECT_EQ(s["violation"]["line"], 5);
    EXPECT_EQ(s["warnings"][0]["line"], 6);
    EXPECT_TRUE(s["warnings"][1]["line"].is_null());
    EXPECT_TRUE(s["warnings"][1]["invariant"].is_null());
}

TEST(LessonExpectation, ARuntimeViolationIsFoldedIntoTheRuntimeCall)
{
    json r = report();
    r["captures"][0]["verify"]["runtime"] = {{"status", "violation"}, {"matches_eager", nullptr},
        {"violation", violation(7, "effect-order", location(kScript, 3))}};
    EXPECT_EQ(LessonExpectation::stableFields(r, kScript)["captures"][0]["verify"]["runtime"],
        (json{{"status", "violation"}, {"matches_eager", nullptr}, {"invariant", 7}, {"rule", "effect-order"},
            {"line", 3}}));
}

TEST(LessonExpectation, OnlyKeysNamedInTheExpectationAreCompared)
{
    const json expected = {{"status", "violation"},
        {"captures",
            {{{"violation", {{"invariant", 1}, {"rule", "constant-tensor"}}}, {"verify", {{"status", "mismatch"}}}}}}};
    EXPECT_TRUE(LessonExpectation::compare(expected, stable()).empty());
    EXPECT_TRUE(LessonExpectation::compare(json::object(), stable()).empty());
}

TEST(LessonExpectation, ADifferenceNamesItsPathWhatWasExpectedAndWhatCame)
{
    const json expected = {{"captures", {{{"verify", {{"status", "mismatch"}}}}}}};
    json actual = stable();
    actual["captures"][0]["verify"]["status"] = "ok";
    EXPECT_EQ(LessonExpectation::compare(expected, actual),
        std::vector<std::string>{"captures[0].verify.status: expected \"mismatch\", got \"ok\""});

    actual["captures"][0]["verify"] = nullptr;
    EXPECT_EQ(LessonExpectation::compare(expected, actual),
        std::vector<std::string>{"captures[0].verify: expected {\"status\":\"mismatch\"}, got null"});
}

TEST(LessonExpectation, StatusComesFirstThenTheRestInKeyOrder)
{
    const json expected = {{"violation", {{"rule", "x"}}}, {"captures", json::array()}, {"status", "ok"}};
    EXPECT_EQ(LessonExpectation::compare(expected, stable()),
        (std::vector<std::string>{"status: expected \"ok\", got \"violation\"", "captures: expected 0 entries, got 1",
            "violation: expected {\"rule\":\"x\"}, got null"}));
}

TEST(LessonExpectation, CapturesOfAnotherCountAreADifference)
{
    const json expected = {{"captures", {{{"status", "violation"}}, {{"status", "ok"}}}}};
    EXPECT_EQ(LessonExpectation::compare(expected, stable()),
        std::vector<std::string>{"captures: expected 2 entries, got 1"});
}

TEST(LessonExpectation, WarningsMustBeExactlyTheExpectedSet)
{
    const json helper = {{"invariant", 4}, {"line", "helper.py:12"}, {"rule", "data-dependent-branch"}};
    const json other = {{"invariant", 3}, {"line", 9}, {"rule", "shape-specialised"}};
    auto withWarnings = [](const json& w) { return json{{"captures", {{{"warnings", w}}}}}; };

    EXPECT_TRUE(LessonExpectation::compare(withWarnings(json::array({helper})), stable()).empty());
    // one less than the report has
    EXPECT_EQ(LessonExpectation::compare(withWarnings(json::array()), stable()),
        std::vector<std::string>{"captures[0].warnings: unexpected " + helper.dump()});
    // one more than the report has
    EXPECT_EQ(LessonExpectation::compare(withWarnings(json::array({helper, other})), stable()),
        std::vector<std::string>{"captures[0].warnings: missing " + other.dump()});
    // the same warning twice is not the same as once
    EXPECT_EQ(LessonExpectation::compare(withWarnings(json::array({helper, helper})), stable()),
        std::vector<std::string>{"captures[0].warnings: missing " + helper.dump()});
    // a partial warning is no match: each is compared whole
    EXPECT_EQ(LessonExpectation::compare(withWarnings({{{"rule", "data-dependent-branch"}}}), stable()).size(), 2u);
}

TEST(LessonExpectation, WarningsInAnotherOrderMatch)
{
    const json a = {{"invariant", 4}, {"line", 1}, {"rule", "a"}};
    const json b = {{"invariant", 4}, {"line", 2}, {"rule", "b"}};
    const json expected = {{"warnings", {a, b}}};
    EXPECT_TRUE(LessonExpectation::compare(expected, json{{"warnings", {b, a}}}).empty());
    EXPECT_EQ(LessonExpectation::compare(expected, json{{"warnings", nullptr}}),
        std::vector<std::string>{"warnings: expected " + json::array({a, b}).dump() + ", got null"});
}

TEST(LessonExpectation, ALongValueIsCutInTheMessage)
{
    const std::string longRule(400, 'x');
    const auto d = LessonExpectation::compare(json{{"rule", "short"}}, json{{"rule", longRule}});
    ASSERT_EQ(d.size(), 1u);
    EXPECT_EQ(d[0], "rule: expected \"short\", got \"" + std::string(156, 'x') + "...");
}

TEST(LessonExpectation, MissingSideNamesTheFirstSideWithoutAnObject)
{
    using ps::lessons::LessonSide;
    EXPECT_EQ(
        LessonExpectation::missingSide(json{{"broken", json::object()}, {"fixed", json::object()}}), std::nullopt);
    EXPECT_EQ(LessonExpectation::missingSide(json{{"broken", json::object()}}), LessonSide::Fixed);
    EXPECT_EQ(LessonExpectation::missingSide(json{{"broken", 1}, {"fixed", json::object()}}), LessonSide::Broken);
    EXPECT_EQ(LessonExpectation::missingSide(json::array()), LessonSide::Broken);
    EXPECT_EQ(LessonExpectation::missingSide(json()), LessonSide::Broken);
    EXPECT_EQ(ps::lessons::toString(LessonSide::Fixed), "fixed");
}

TEST(LessonExpectation, TheWordsALearnerReads)
{
    const json c = stable()["captures"][0];
    EXPECT_EQ(LessonExpectation::violationText(c["violation"]), "inv 1 constant-tensor, line 17");
    EXPECT_EQ(LessonExpectation::violationText(c["warnings"][0]), "inv 4 data-dependent-branch, helper.py:12");
    EXPECT_EQ(LessonExpectation::violationText(json{{"invariant", nullptr}, {"rule", nullptr}, {"line", nullptr}}),
        "(no rule)");
    EXPECT_EQ(LessonExpectation::violationText(nullptr), "-");

    EXPECT_EQ(LessonExpectation::verifyText(c["verify"]), "mismatch, differs from eager, grads differ");
    EXPECT_EQ(LessonExpectation::verifyText(
                  json{{"status", "ok"}, {"matches_eager", true}, {"buffers_match", false}, {"inputs_match", false}}),
        "ok, matches eager, buffers differ, mutated inputs differ");
    EXPECT_EQ(LessonExpectation::verifyText(json::object()), "?");
    EXPECT_EQ(LessonExpectation::verifyText(nullptr), "-");

    EXPECT_EQ(LessonExpectation::runtimeText(c["verify"]["runtime"]), "ok, matches eager");
    EXPECT_EQ(LessonExpectation::runtimeText(
                  json{{"status", "violation"}, {"invariant", 7}, {"rule", "effect-order"}, {"line", 3}}),
        "violation: inv 7 effect-order, line 3");
    EXPECT_EQ(LessonExpectation::runtimeText(nullptr), "-");
}

TEST(LessonExpectation, FindingsComeInTheOrderALearnerReadsThem)
{
    json r = report();
    r["violation"] = violation(2, "runtime-structure", location(kScript, 4), "the script broke");
    r["captures"][0]["violation"]["fix"] = "Pass the tensor in as an argument.";
    r["captures"][0]["verify"]["runtime"]["violation"]
        = violation(7, "effect-order", location(kScript, 3), std::string(400, 'y'));
    const auto f = LessonExpectation::findings(r, kScript);
    ASSERT_EQ(f.size(), 4u);
    EXPECT_EQ(f[0].what, "violation (inv 2 runtime-structure, line 4)");
    EXPECT_EQ(f[0].message, "the script broke");
    EXPECT_EQ(f[1].what, "violation (inv 1 constant-tensor, line 17)");
    EXPECT_EQ(f[1].message, "a tensor is closed over");  // the first line only
    EXPECT_EQ(f[1].fix, "Pass the tensor in as an argument.");
    EXPECT_EQ(f[2].what, "runtime violation (inv 7 effect-order, line 3)");
    EXPECT_EQ(f[2].message, std::string(297, 'y') + "...");
    EXPECT_EQ(f[3].what, "warning (inv 4 data-dependent-branch, helper.py:12)");
    EXPECT_EQ(f[3].fix, "");

    // our one line, where the worker wrote one, before torch's message: a shape rejection names
    // the branch behind it
    r["captures"][0]["verify"]["runtime"]["violation"]["summary"]
        = "the artifact holds only the path fn took for x.shape[0] <= 2: `if x.shape[0] > 2:` at s.py:9";
    EXPECT_EQ(LessonExpectation::findings(r, kScript)[2].message,
        "the artifact holds only the path fn took for x.shape[0] <= 2: `if x.shape[0] > 2:` at s.py:9");

    // a violation without a message is not a finding
    r["violation"].erase("message");
    EXPECT_EQ(LessonExpectation::findings(r, kScript).size(), 3u);
}

TEST(LessonExpectation, FieldAndTextReadAnyShape)
{
    EXPECT_EQ(LessonExpectation::field(json{{"a", 1}}, "a"), 1);
    EXPECT_TRUE(LessonExpectation::field(json{{"a", 1}}, "b").is_null());
    EXPECT_TRUE(LessonExpectation::field(json::array({1, 2}), "a").is_null());
    EXPECT_TRUE(LessonExpectation::field(json("a"), "a").is_null());
    EXPECT_EQ(LessonExpectation::text(json("s"), "?"), "s");
    EXPECT_EQ(LessonExpectation::text(json(3), "?"), "?");
    EXPECT_EQ(LessonExpectation::text(json(), ""), "");
}

TEST(LessonExpectation, ReportsOfAnyShapeNeverThrow)
{
    const std::vector<json> odd = {
        json(),
        json::array({1, "two", nullptr}),
        json(42),
        json("a report"),
        json::object(),
        json{{"status", 3}, {"violation", "none"}, {"captures", "all of them"}},
        json{{"status", nullptr}, {"violation", json::array()}, {"captures", {{"fn", 1}}}},
        json{{"captures", 7}},
        json{{"status", nullptr}, {"violation", {{"location", {{"file", 3}, {"line", 5}}}}}},
        json{{"captures", {nullptr, 1, "c", json::array()}}},
        json{{"captures",
            {{{"status", 1},
                 {"violation", {{"invariant", "one"}, {"rule", 2}, {"location", "broken.py:3"}, {"message", 5}}},
                 {"verify", json::array({1})}, {"warnings", {{"rule", "x"}}}},
                {{"violation", {{"location", {{"line", "17"}}}, {"message", nullptr}, {"fix", 3}}},
                    {"verify", {{"status", false}, {"matches_eager", "yes"}, {"runtime", {{"violation", 1}}}}},
                    {"warnings", {1, "w", {{"message", json::array()}}}}},
                {{"verify", {{"runtime", {{"status", 1}, {"violation", {{"location", json::array()}}}}}}},
                    {"warnings", "none"}}}}},
    };
    const json expected = json::parse(R"({"status": "ok", "violation": null,
        "captures": [{"status": "ok", "violation": {"invariant": 1, "rule": "r", "line": 3},
                      "verify": {"status": "ok", "runtime": {"status": "ok"}}, "warnings": []}]})");
    for (const json& r : odd) {
        SCOPED_TRACE(r.dump());
        json s;
        EXPECT_NO_THROW(s = LessonExpectation::stableFields(r, kScript));
        EXPECT_NO_THROW(LessonExpectation::findings(r, kScript));
        // the report itself, and its stable fields, against an expectation and as one
        EXPECT_NO_THROW(LessonExpectation::compare(expected, r));
        EXPECT_NO_THROW(LessonExpectation::compare(expected, s));
        EXPECT_NO_THROW(LessonExpectation::compare(r, expected));
        EXPECT_NO_THROW(LessonExpectation::missingSide(r));
        for (const auto& c : LessonExpectation::field(s, "captures")) {
            EXPECT_NO_THROW(LessonExpectation::violationText(LessonExpectation::field(c, "violation")));
            EXPECT_NO_THROW(LessonExpectation::verifyText(LessonExpectation::field(c, "verify")));
            EXPECT_NO_THROW(LessonExpectation::runtimeText(
                LessonExpectation::field(LessonExpectation::field(c, "verify"), "runtime")));
        }
        EXPECT_NO_THROW(LessonExpectation::violationText(r));
        EXPECT_NO_THROW(LessonExpectation::verifyText(r));
        EXPECT_NO_THROW(LessonExpectation::runtimeText(r));
    }
    // an odd report reads as nothing found rather than as an error
    EXPECT_EQ(LessonExpectation::stableFields(json::array({1}), kScript),
        (json{{"status", nullptr}, {"violation", nullptr}, {"captures", json::array()}}));
}
