// Where a runtime shape rejection comes from (captures[i].specialisation): the model reads the
// guard and its line, the rejection keeps the runtime_inputs line beside it, and `run`'s summary
// names both; a report without the field (an older studio's) reads and prints as before.
#include "model/Specialisation.h"
#include "commands/ReportPrinter.h"
#include "model/Report.h"

#include <nlohmann/json.hpp>

#include <gtest/gtest.h>

using ps::commands::ReportPrinter;
using ps::model::Report;
using ps::model::Specialisation;

namespace {

/// A capture whose runtime call was rejected, as the worker reports it for a shape branch.
nlohmann::json rejectedRun(const nlohmann::json& specialisation, const nlohmann::json& details)
{
    const nlohmann::json guardLine = {{"file", "/w/wrong.py"}, {"line", 7}};
    const nlohmann::json violation = {{"invariant", 3}, {"rule", "input-shape"}, {"kind", "PrecompileError"},
        {"phase", "call"}, {"message", "precompile: a runtime input has shape (4, 3) but ..."},
        {"summary", "the artifact holds only the path fn took for x.shape[0] <= 2: ..."}, {"location", guardLine},
        {"details", details}};
    nlohmann::json capture = {{"name", "fn"}, {"backend", "eager"}, {"tracer", "make_fx"}, {"status", "violation"},
        {"outcome",
            {{"where", "runtime"}, {"invariant", 3}, {"rule", "input-shape"}, {"kind", "PrecompileError"},
                {"message", violation["summary"]}, {"location", guardLine}}},
        {"violation", nullptr}, {"warnings", nlohmann::json::array()}, {"artifact", nullptr},
        {"verify",
            {{"ran", true}, {"status", "ok"}, {"matches_eager", true},
                {"runtime", {{"status", "violation"}, {"violation", violation}}}}},
        {"timings_s", {{"specialise", 0.09}}}};
    if (!specialisation.is_null())
        capture["specialisation"] = specialisation;
    return {{"schema", 1}, {"script", "/w/wrong.py"}, {"status", "violation"}, {"message", "fn: rejected"},
        {"captures", {capture}}};
}

const nlohmann::json kFound = {{"status", "found"}, {"mode", "size-oblivious"},
    {"guards",
        {{{"expr", "x.shape[1] == 3"}, {"false_at_runtime", false},
             {"location", {{"file", "/w/wrong.py"}, {"line", 9}, {"code", "return x @ w"}}}},
            {{"expr", "x.shape[0] <= 2"}, {"false_at_runtime", true},
                {"location", {{"file", "/w/wrong.py"}, {"line", 7}, {"code", "if x.shape[0] > 2:"}}}}}}};

const nlohmann::json kDetails
    = {{"guard", "x.shape[0] <= 2"}, {"runtime_location", {{"file", "/w/wrong.py"}, {"line", 15}}}};

}  // namespace

TEST(Specialisation, TheBrokenGuardAndItsLineAreRead)
{
    const Report report = Report::fromJson(rejectedRun(kFound, kDetails));
    const auto& c = report.captures.at(0);
    ASSERT_TRUE(c.specialisation);
    EXPECT_EQ(c.specialisation->status, Specialisation::Status::Found);
    ASSERT_EQ(c.specialisation->guards.size(), 2u);
    const auto* g = c.specialisation->broken();
    ASSERT_NE(g, nullptr);
    EXPECT_EQ(g->expr, "x.shape[0] <= 2");
    ASSERT_TRUE(g->location);
    EXPECT_EQ(g->location->line, 7);
    EXPECT_EQ(g->code, "if x.shape[0] > 2:");
    // the rejection itself carries the guard and keeps the runtime_inputs line
    const auto& v = c.verify->runtime->violation;
    ASSERT_TRUE(v);
    EXPECT_EQ(v->location->line, 7);
    EXPECT_EQ(v->guard, "x.shape[0] <= 2");
    ASSERT_TRUE(v->calledAt);
    EXPECT_EQ(v->calledAt->line, 15);
    // and the report goes out as it came in
    EXPECT_EQ(report.toJson()["captures"][0]["specialisation"], kFound);
}

TEST(Specialisation, RunSummaryNamesTheGuardLineAndTheRuntimeInputsLine)
{
    const std::string summary = ReportPrinter::summary(Report::fromJson(rejectedRun(kFound, kDetails)));
    EXPECT_NE(summary.find("runtime: /w/wrong.py:7: invariant 3: PrecompileError: the artifact holds only the path "
                           "fn took for x.shape[0] <= 2"),
        std::string::npos)
        << summary;
    EXPECT_NE(summary.find("    shape guard: x.shape[0] <= 2, false at the runtime sizes, at wrong.py:7: if "
                           "x.shape[0] > 2:\n"),
        std::string::npos)
        << summary;
    EXPECT_NE(summary.find("    runtime_inputs: /w/wrong.py:15\n"), std::string::npos) << summary;
}

TEST(Specialisation, AFailedOrStaticOnlyTraceIsSaidNotHidden)
{
    const nlohmann::json failed = {{"status", "failed"}, {"guards", nlohmann::json::array()},
        {"reason", "the symbolic trace failed: RuntimeError: .numpy() is not supported"}};
    std::string summary = ReportPrinter::summary(Report::fromJson(rejectedRun(failed, nlohmann::json::object())));
    EXPECT_NE(summary.find("    shape guard: not found: the symbolic trace failed: RuntimeError: .numpy()"),
        std::string::npos)
        << summary;
    EXPECT_EQ(summary.find("runtime_inputs:"), std::string::npos) << summary;

    const nlohmann::json none = {{"status", "none"}, {"guards", nlohmann::json::array()}};
    summary = ReportPrinter::summary(Report::fromJson(rejectedRun(none, nlohmann::json::object())));
    EXPECT_NE(summary.find("only because precompile captures static shapes"), std::string::npos) << summary;
}

TEST(Specialisation, AnOlderReportHasNoneAndPrintsNone)
{
    const Report report = Report::fromJson(rejectedRun(nullptr, nlohmann::json::object()));
    EXPECT_FALSE(report.captures.at(0).specialisation);
    EXPECT_TRUE(report.captures.at(0).verify->runtime->violation->guard.empty());
    EXPECT_FALSE(report.captures.at(0).verify->runtime->violation->calledAt);
    EXPECT_EQ(ReportPrinter::summary(report).find("shape guard"), std::string::npos);
    // an unknown status reads as no specialisation, never as a guard
    EXPECT_FALSE(Specialisation::fromJson({{"status", "maybe"}, {"guards", nlohmann::json::array()}}));
}
