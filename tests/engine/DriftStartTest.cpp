// model::DriftStart: where a drift starts has one name in every view. A start observed on an
// element of a node of several outputs is named by that node, with its module, once; the
// elements are kept beside it; older reports that named the getitem read the same.

#include "model/DriftStart.h"

#include <gtest/gtest.h>
#include <nlohmann/json.hpp>

namespace ps::model {
namespace {

nlohmann::json batchNormGraph()
{
    const nlohmann::json bn = {{"path", "model.layer4.0.bn1"}, {"type", "BatchNorm2d"}};
    return {{"node_list",
        {{{"name", "native_batch_norm_backward_14"}, {"target", "aten.native_batch_norm_backward.default"},
             {"inputs", nlohmann::json::array()}, {"module", bn}},
            {{"name", "getitem_148"}, {"target", "getitem"}, {"inputs", {"native_batch_norm_backward_14"}}},
            {{"name", "getitem_150"}, {"target", "getitem"}, {"inputs", {"native_batch_norm_backward_14"}}},
            {{"name", "mm"}, {"target", "aten.mm.default"}, {"inputs", nlohmann::json::array()},
                {"module", nullptr}}}}};
}

TEST(DriftStart, AnOlderReportsGetitemsAreNamedByTheirNodeOnce)
{
    Verification::Accuracy a;
    a.driftStarts = {"getitem_148", "getitem_150", "mm"};
    const auto starts = DriftStart::of(a, batchNormGraph());
    ASSERT_EQ(starts.size(), 2u);
    EXPECT_EQ(starts[0].node, "native_batch_norm_backward_14");
    EXPECT_EQ(starts[0].module, "model.layer4.0.bn1");
    EXPECT_EQ(starts[0].via, (std::vector<std::string>{"getitem_148", "getitem_150"}));
    EXPECT_EQ(starts[1].label(), "mm");
    EXPECT_EQ(DriftStart::phrase(starts), "native_batch_norm_backward_14 (model.layer4.0.bn1), mm");
}

TEST(DriftStart, AReportNamingTheNodeKeepsItsElementsBeside)
{
    Verification::Accuracy a;
    a.driftStarts = {"native_batch_norm_backward_14"};
    a.driftStartsVia["native_batch_norm_backward_14"] = {"getitem_148", "getitem_150"};
    const auto starts = DriftStart::of(a, batchNormGraph());
    ASSERT_EQ(starts.size(), 1u);
    EXPECT_EQ(starts[0].label(), "native_batch_norm_backward_14 (model.layer4.0.bn1)");
    EXPECT_EQ(starts[0].via, (std::vector<std::string>{"getitem_148", "getitem_150"}));
}

TEST(DriftStart, APhraseNamesThreeAndCountsTheRestThroughTheViewsEscaping)
{
    Verification::Accuracy a;
    a.driftStarts = {"a", "b", "c\x1b", "d", "e"};
    const auto starts = DriftStart::of(a, nlohmann::json());  // no graph: the names as they are
    EXPECT_EQ(DriftStart::phrase(starts, [](std::string_view s) { return "[" + std::string(s) + "]"; }),
        "[a], [b], [c\x1b] and 2 more");
}

}  // namespace
}  // namespace ps::model
