#include "model/Report.h"

#include <gtest/gtest.h>

using ps::model::Report;
using ps::model::RunStatus;

namespace {
nlohmann::json workerReport(const std::string& status)
{
    return {{"schema", 1}, {"script", "/s.py"}, {"status", status}, {"message", "m"},
        {"captures",
            {{{"name", "fn"}, {"backend", "eager"}, {"tracer", "make_fx"},
                {"status", status == "ok" || status == "mismatch" ? status : "violation"},
                {"violation",
                    status == "ok" ? nlohmann::json(nullptr)
                                   : nlohmann::json{{"invariant", 1}, {"kind", "PrecompileError"},
                                       {"message", "first\nsecond"}, {"location", {{"file", "/s.py"}, {"line", 7}}}}},
                {"artifact", nullptr}, {"graph", {{"nodes", 12}}},
                {"timings_s", {{"script", 0.5}, {"precompile", 2.0}}}}}}};
}
}  // namespace

TEST(Report, ExitCodesFollowTheStatus)
{
    EXPECT_EQ(Report::fromJson(workerReport("ok")).exitCode(), 0);
    EXPECT_EQ(Report::fromJson(workerReport("violation")).exitCode(), 1);
    EXPECT_EQ(Report::fromJson(workerReport("mismatch")).exitCode(), 1);
    EXPECT_EQ(Report::failed("/s.py", RunStatus::Violation, "a mismatched pair loaded").exitCode(), 1);
    EXPECT_EQ(Report::failed("/s.py", RunStatus::Error, "no fn").exitCode(), 2);
    EXPECT_EQ(Report::failed("/s.py", RunStatus::Timeout, "t").exitCode(), 2);
    EXPECT_EQ(Report::failed("/s.py", RunStatus::WorkerDied, "d").exitCode(), 2);
    EXPECT_EQ(Report::failed("/s.py", RunStatus::ProtocolError, "p").exitCode(), 2);
    EXPECT_EQ(Report::failed("/s.py", RunStatus::Cancelled, "c").exitCode(), 2);
}

TEST(Report, AnOkRunThatWasNotStoredIsNotOk)
{
    Report r = Report::fromJson(workerReport("ok"));
    EXPECT_EQ(r.verdict(), ps::model::RunVerdict::Ok);
    r.storeError = "library.sqlite3: the file is read-only";
    EXPECT_EQ(r.exitCode(), 3);
    EXPECT_EQ(r.verdict(), ps::model::RunVerdict::NotStored);
    EXPECT_FALSE(r.allGood());
    // A failed run keeps its own verdict and code; the report still says it was not stored.
    Report v = Report::fromJson(workerReport("violation"));
    v.storeError = "busy";
    EXPECT_EQ(v.exitCode(), 1);
    EXPECT_EQ(v.verdict(), ps::model::RunVerdict::Violation);
    EXPECT_EQ(v.toJson()["store_error"], "busy");
    EXPECT_EQ(v.toJson()["stored"], false);
}

TEST(Report, AnOkRunWhoseArtifactDriftedSaysSoButExitsZero)
{
    auto j = workerReport("ok");
    j["captures"][0]["verify"] = {{"ran", true}, {"status", "drift"}, {"matches_eager", false}};
    Report r = Report::fromJson(j);
    EXPECT_TRUE(r.captures[0].drifted());
    EXPECT_EQ(r.verdict(), ps::model::RunVerdict::NumericsDrift);
    EXPECT_EQ(r.exitCode(), 0);
    EXPECT_EQ(r.toJson()["captures"][0]["verify"]["status"], "drift");
    r.storeError = "busy";  // not stored comes first: it changes the exit code
    EXPECT_EQ(r.verdict(), ps::model::RunVerdict::NotStored);
    j["captures"][0]["verify"]["status"] = "ok";
    EXPECT_EQ(Report::fromJson(j).verdict(), ps::model::RunVerdict::Ok);
}

TEST(Report, StatusesAreTypedAndRoundTrip)
{
    for (const char* word :
        {"ok", "mismatch", "violation", "error", "timeout", "worker_died", "cancelled", "protocol_error"}) {
        auto j = workerReport("ok");
        j["status"] = word;
        const Report r = Report::fromJson(j);
        ASSERT_TRUE(ps::model::runStatusFromString(word).has_value()) << word;
        EXPECT_EQ(r.status, *ps::model::runStatusFromString(word));
        EXPECT_EQ(r.toJson()["status"], word);
    }
    auto mismatch = workerReport("mismatch");
    EXPECT_EQ(Report::fromJson(mismatch).captures[0].status, ps::model::CaptureStatus::Mismatch);
    EXPECT_EQ(Report::fromJson(mismatch).toJson()["captures"][0]["status"], "mismatch");
}

TEST(Report, AnUnknownStatusReadsAsAnErrorThatSaysSo)
{
    auto j = workerReport("ok");
    j["status"] = "okay";
    j["captures"][0]["status"] = 7;
    const Report r = Report::fromJson(j);
    EXPECT_EQ(r.status, RunStatus::Error);
    EXPECT_NE(r.message.find("'okay'"), std::string::npos) << r.message;
    EXPECT_EQ(r.captures[0].status, ps::model::CaptureStatus::Error);
    EXPECT_NE(r.exitCode(), 0);
}

TEST(Report, FieldsOfTheWrongTypeReadAsAbsent)
{
    const Report r = Report::fromJson(nlohmann::json{
        {"status", "ok"}, {"script", 3}, {"captures", {1, "x", nullptr}}, {"stored", "yes"}, {"run_id", "7"}});
    EXPECT_EQ(r.script, "");
    EXPECT_TRUE(r.captures.empty());
    EXPECT_FALSE(r.stored);
    EXPECT_FALSE(r.runId.has_value());
    EXPECT_EQ(Report::fromJson(nlohmann::json::array()).status, RunStatus::Error);
}

TEST(Report, StartFailureIsTyped)
{
    Report r = Report::failed("/s.py", RunStatus::Error, "the studio's Python environment is missing");
    r.startFailure = ps::model::StartFailure::Environment;
    const auto j = r.toJson();
    EXPECT_EQ(j["start_failure"], "environment");
    EXPECT_EQ(Report::fromJson(j).startFailure, ps::model::StartFailure::Environment);
}

TEST(Report, KeepsFieldsItDoesNotModel)
{
    auto j = workerReport("violation");
    j["future_field"] = "kept";
    const Report r = Report::fromJson(j);
    const auto back = r.toJson();
    EXPECT_EQ(back["future_field"], "kept");
    EXPECT_EQ(back["captures"][0]["graph"]["nodes"], 12);
    EXPECT_EQ(back["schema"], 1);
    EXPECT_TRUE(back["run_id"].is_null());
}

TEST(Report, ViolationOneLineNamesFileLineAndInvariant)
{
    const Report r = Report::fromJson(workerReport("violation"));
    ASSERT_TRUE(r.captures[0].violation.has_value());
    EXPECT_EQ(r.captures[0].violation->oneLine(), "/s.py:7: invariant 1: PrecompileError: first");
    EXPECT_DOUBLE_EQ(r.captures[0].timings.at("precompile"), 2.0);
}
