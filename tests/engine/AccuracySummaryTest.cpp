// The run summary says the accuracy verdict with both errors against float64, and what
// verification skipped to stay within its budget; a drifting run's first line says so.
#include "commands/ReportPrinter.h"
#include "model/Report.h"

#include <gtest/gtest.h>

using ps::commands::ReportPrinter;
using ps::model::Report;

namespace {

nlohmann::json driftReport()
{
    const nlohmann::json accuracy
        = {{"verdict", "numerics drift"}, {"reference", "float64"}, {"judged", 60}, {"eager_error", 5.9e-6},
            {"artifact_error", 1.2e-2}, {"ratio", 2033.9}, {"message", "numerics drift in 60 of 62 gradients: ..."}};
    const nlohmann::json verify = {{"ran", true}, {"status", "drift"}, {"matches_eager", false}, {"accuracy", accuracy},
        {"budget", {{"deep", false}, {"skipped", {"perturbed trial small"}}, {"how", "run with --deep-verify"}}},
        {"load_no_cache", {{"ran", false}, {"reason", "only with --deep-verify"}}}};
    return {{"schema", 1}, {"script", "/s.py"}, {"status", "ok"},
        {"message", "resnet18_training: numerics drift in 60 of 62 gradients: ..."},
        {"captures",
            {{{"name", "resnet18_training"}, {"backend", "inductor"}, {"tracer", "make_fx"}, {"status", "ok"},
                {"violation", nullptr}, {"outcome", nullptr}, {"warnings", nlohmann::json::array()},
                {"artifact", nullptr}, {"verify", verify}, {"timings_s", {{"load", 0.1}}}}}}};
}

}  // namespace

TEST(AccuracySummary, DriftIsTheVerdictWithBothErrors)
{
    const std::string s = ReportPrinter::summary(Report::fromJson(driftReport()));
    EXPECT_EQ(s.rfind("/s.py: numerics drift: resnet18_training: numerics drift in 60 of 62", 0), 0u) << s;
    EXPECT_NE(s.find("accuracy: numerics drift (against float64: artifact 0.012, eager 5.9e-06, 2.03e+03x)"),
        std::string::npos)
        << s;
    EXPECT_NE(
        s.find("verify: skipped perturbed trial small, load without cache (run with --deep-verify)"), std::string::npos)
        << s;
}

TEST(AccuracySummary, AMatchWithinToleranceSaysMatches)
{
    auto j = driftReport();
    auto& v = j["captures"][0]["verify"];
    v["status"] = "ok";
    v["accuracy"]
        = {{"verdict", "matches"}, {"reference", "tolerance"}, {"eager_error", nullptr}, {"artifact_error", nullptr}};
    v.erase("budget");
    v["load_no_cache"] = {{"ran", true}};
    const std::string s = ReportPrinter::summary(Report::fromJson(j));
    EXPECT_EQ(s.rfind("/s.py: ok", 0), 0u) << s;
    EXPECT_NE(s.find("    accuracy: matches\n"), std::string::npos) << s;
    EXPECT_EQ(s.find("verify: skipped"), std::string::npos) << s;
}

// Where the drift starts: the accuracy line names drift_starts as the run's message does, an element
// of a node of several outputs by that node, each with its module from the graph.
TEST(AccuracySummary, TheDriftLineNamesWhereItStarts)
{
    auto j = driftReport();
    auto& cap = j["captures"][0];
    cap["verify"]["accuracy"]["drift_starts"] = {"getitem_88", "getitem_90", "mm"};
    cap["verify"]["accuracy"]["nodes"]
        = {{{"node", "getitem_88"}, {"error", 0.01}, {"eager_error", 2.7e-6}, {"leaves_band", true}}};
    cap["verify"]["accuracy"]["localise"] = {{"status", "done"}, {"observed", 165}, {"seconds", 5.7}};
    cap["graph"] = {{"node_list",
        {{{"name", "native_batch_norm_backward_4"}, {"target", "aten.native_batch_norm_backward.default"},
             {"inputs", nlohmann::json::array()},
             {"module", {{"path", "model.layer4.0.bn1"}, {"type", "BatchNorm2d"}}}},
            {{"name", "getitem_88"}, {"target", "getitem"}, {"inputs", {"native_batch_norm_backward_4"}},
                {"module", {{"path", "model.layer4.0.bn1"}, {"type", "BatchNorm2d"}}}},
            {{"name", "getitem_90"}, {"target", "getitem"}, {"inputs", {"native_batch_norm_backward_4"}}},
            {{"name", "mm"}, {"target", "aten.mm.default"}, {"inputs", nlohmann::json::array()},
                {"module", nullptr}}}}};
    const std::string s = ReportPrinter::summary(Report::fromJson(j));
    EXPECT_NE(s.find("accuracy: numerics drift (against float64: artifact 0.012, eager 5.9e-06, 2.03e+03x); drift "
                     "starts at native_batch_norm_backward_4 (model.layer4.0.bn1), mm\n"),
        std::string::npos)
        << s;
}

TEST(AccuracySummary, ALocalisationNotDoneSaysWhy)
{
    auto j = driftReport();
    j["captures"][0]["verify"]["accuracy"]["localise"]
        = {{"status", "skipped"}, {"reason", "over 10 s"}, {"observed", 0}, {"seconds", 0}};
    const std::string s = ReportPrinter::summary(Report::fromJson(j));
    EXPECT_NE(s.find("2.03e+03x); where it starts: skipped (over 10 s)\n"), std::string::npos) << s;
}
