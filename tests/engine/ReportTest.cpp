#include "commands/ArtifactExport.h"
#include "model/Report.h"

#include <gtest/gtest.h>

using ps::model::Report;

namespace {
nlohmann::json workerReport(const std::string& status)
{
    return {{"schema", 1},
            {"script", "/s.py"},
            {"status", status},
            {"message", "m"},
            {"captures",
             {{{"name", "fn"},
               {"backend", "eager"},
               {"tracer", "make_fx"},
               {"status", status == "ok" ? "ok" : "violation"},
               {"violation", status == "ok" ? nlohmann::json(nullptr)
                                            : nlohmann::json{{"invariant", 1},
                                                             {"kind", "PrecompileError"},
                                                             {"message", "first\nsecond"},
                                                             {"location", {{"file", "/s.py"}, {"line", 7}}}}},
               {"artifact", nullptr},
               {"graph", {{"nodes", 12}}},
               {"timings_s", {{"script", 0.5}, {"precompile", 2.0}}}}}}};
}
} // namespace

TEST(Report, ExitCodesFollowTheStatus)
{
    EXPECT_EQ(Report::fromJson(workerReport("ok")).exitCode(), 0);
    EXPECT_EQ(Report::fromJson(workerReport("violation")).exitCode(), 1);
    EXPECT_EQ(Report::failed("/s.py", "error", "no fn").exitCode(), 2);
    EXPECT_EQ(Report::failed("/s.py", "timeout", "t").exitCode(), 2);
    EXPECT_EQ(Report::failed("/s.py", "worker_died", "d").exitCode(), 2);
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

TEST(ArtifactExport, FileStemsAreSafe)
{
    EXPECT_EQ(ps::commands::ArtifactExport::fileStem("train step/1"), "train_step_1");
    EXPECT_EQ(ps::commands::ArtifactExport::fileStem(".."), "capture..");
    EXPECT_EQ(ps::commands::ArtifactExport::fileStem(""), "capture");
}
