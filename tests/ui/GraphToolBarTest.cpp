// The graph's toolbar at the widths a 1280x800 window gives it: the legend shows whole entries
// (never a word cut in the middle, as "forwa" was) and says how many more there are; the match
// count is never cut; a new graph starts with an empty search.
#include "UiTestSupport.h"

#include "graph/GraphModel.h"
#include "ui/graph/GraphToolBar.h"
#include "ui/graph/GraphView.h"

#include <QApplication>
#include <QLabel>
#include <QLineEdit>
#include <QTest>
#include <gtest/gtest.h>

using ps::ui::GraphToolBar;

namespace {

const std::vector<std::pair<std::string, int>> kPhases
    = {{"forward", 12}, {"backward", 15}, {"input", 6}, {"output", 1}};

QLabel* legendLabel(GraphToolBar& bar)
{
    // the legend is the label whose tooltip lists the entries
    for (QLabel* label : bar.findChildren<QLabel*>())
        if (label->toolTip().contains(QStringLiteral("forward (12)")))
            return label;
    return nullptr;
}

}  // namespace

TEST(UiGraphToolBar, ANarrowLegendShowsWholeEntriesAndHowManyMore)
{
    GraphToolBar bar;
    bar.resize(560, 80);
    bar.show();
    bar.setLegend(kPhases, ps::graph::Lens::Kind);
    QApplication::processEvents();
    QLabel* legend = legendLabel(bar);
    ASSERT_NE(legend, nullptr);
    ASSERT_LT(bar.legendShown(), 4) << "560 px cannot hold the lens box, depth, buttons and four entries";
    // "+N more", or "+N" where even that does not fit: never a word cut
    EXPECT_TRUE(legend->text().contains(QStringLiteral("+%1").arg(4 - bar.legendShown())))
        << legend->text().toStdString();
    // what is drawn fits: no entry runs past the label's edge
    EXPECT_LE(legend->sizeHint().width(), legend->width() + 4);

    bar.resize(1600, 80);
    QApplication::processEvents();
    EXPECT_EQ(bar.legendShown(), 4);
    EXPECT_FALSE(legend->text().contains(QStringLiteral("more")));
}

TEST(UiGraphToolBar, TheMatchCountIsNeverCut)
{
    GraphToolBar bar;
    bar.resize(560, 80);
    bar.show();
    bar.setMatches({1, 2}, true);
    QApplication::processEvents();
    QLabel* count = nullptr;
    for (QLabel* label : bar.findChildren<QLabel*>())
        if (label->text() == QStringLiteral("2 matches"))
            count = label;
    ASSERT_NE(count, nullptr);
    EXPECT_GE(count->width(), count->sizeHint().width());
}

TEST(UiGraphToolBar, ALongSummaryEndsInAnEllipsisWithTheWholeTextInItsTooltip)
{
    GraphToolBar bar;
    bar.resize(700, 80);
    bar.show();
    const QString text = QStringLiteral(
        "8 nodes · 7 edges · 3 inputs · 5 layers · partial: precompile stopped before the capture ended");
    bar.setSummary(text);
    QApplication::processEvents();
    QLabel* summary = nullptr;
    for (QLabel* label : bar.findChildren<QLabel*>())
        if (label->toolTip() == text)
            summary = label;
    ASSERT_NE(summary, nullptr);
    EXPECT_EQ(bar.summary(), text);
    EXPECT_TRUE(summary->text().endsWith(QStringLiteral("…"))) << summary->text().toStdString();
    EXPECT_LE(summary->fontMetrics().horizontalAdvance(summary->text()), summary->width());
    bar.resize(1800, 80);
    QApplication::processEvents();
    EXPECT_EQ(summary->text(), text);
}

namespace {

/// The toolbar's summary: the label whose tooltip counts the nodes.
const QLabel* summaryLabel(const GraphToolBar& bar)
{
    for (const QLabel* label : bar.findChildren<QLabel*>())
        if (label->toolTip().contains(QStringLiteral("nodes")))
            return label;
    return nullptr;
}

}  // namespace

TEST(UiGraphToolBar, CountsReadInTheRightNumber)
{
    nlohmann::json json = ps::uitest::syntheticGraph(3, "/s/one.py", 1);
    nlohmann::json& first = json["node_list"][0];
    first["op"] = "call_function";  // one placeholder left: p1
    first["target"] = "aten.zeros.default";
    first["kind"] = "compute";
    const auto graph = ps::graph::GraphModel::fromJson(json);
    GraphToolBar bar;
    bar.resize(1200, 80);
    bar.setSummary(graph, 1, 1);
    const QLabel* label = summaryLabel(bar);
    ASSERT_NE(label, nullptr);
    const QString summary = label->toolTip();
    EXPECT_TRUE(summary.startsWith("4 nodes · ")) << summary.toStdString();
    EXPECT_TRUE(summary.contains(" · 1 input · 1 layer · 1 collapsed module")) << summary.toStdString();
    EXPECT_FALSE(summary.contains("Partial")) << summary.toStdString();

    // A partial graph says so first, where a narrow toolbar does not cut it.
    json["complete"] = false;
    bar.setSummary(ps::graph::GraphModel::fromJson(json), 1, 1);
    const QString shown = summaryLabel(bar)->text();
    EXPECT_TRUE(shown.startsWith("Partial graph · ")) << shown.toStdString();
    EXPECT_FALSE(summary.contains("(s)")) << summary.toStdString();
}

TEST(UiGraphToolBar, ANewGraphStartsWithAnEmptySearch)
{
    // The search belongs to the graph searched: another graph (a new run, another capture) does
    // not inherit its query or its "no match"; what is typed while no graph is shown (a run
    // going) searches the next graph when it opens.
    ps::ui::GraphView view;
    view.resize(900, 600);
    view.show();
    ASSERT_TRUE(QTest::qWaitForWindowExposed(&view));
    const auto open = [&view](int nodes) {
        view.setGraph(std::make_shared<const ps::graph::GraphModel>(
            ps::graph::GraphModel::fromJson(ps::uitest::syntheticGraph(nodes, "/s.py", 5))));
        return ps::uitest::waitFor([&view]() { return view.moduleTree() && !view.layoutPending(); }, 20000);
    };
    auto* box = view.findChild<QLineEdit*>(QStringLiteral("graphSearch"));
    ASSERT_NE(box, nullptr);
    ASSERT_TRUE(open(12));
    view.setSearch(QStringLiteral("op3"));
    ASSERT_GT(view.matchCount(), 0);
    ASSERT_TRUE(open(20));
    EXPECT_EQ(box->text(), QString());
    EXPECT_EQ(view.matchCount(), 0);
    EXPECT_FALSE(view.findChild<QLabel*>(QStringLiteral("graphMatchCount"))->text().contains("match"));

    view.clear(QStringLiteral("Running…"));
    QTest::keyClicks(box, QStringLiteral("op1"));
    ASSERT_TRUE(open(12));
    EXPECT_EQ(box->text(), QStringLiteral("op1"));
    EXPECT_GT(view.matchCount(), 0);
}
