// The Source tab at the size a 1280x800 window gives it: the outline of python_code's sections
// shows their names whole, beside the code.
#include "UiTestSupport.h"

#include "ui/report/SourceView.h"
#include "ui/run/RunDocument.h"

#include <QTest>
#include <QTreeWidget>

#include <gtest/gtest.h>

using namespace ps::uitest;

TEST(UiSourceView, TheOutlineShowsTheSectionNamesWholeAt1280)
{
    // An inductor run's sections, as the worker names them.
    const std::vector<std::pair<std::string, std::string>> sections = {{"header", "Header"},
        {"graph_function", "1. Compiled graph (inductor)"}, {"inner", "Inner Inductor output code"},
        {"aot", "AOTAutograd runtime wrapper"}, {"calling", "Calling-convention wrapper"}, {"driver", "Driver"}};
    nlohmann::json list = nlohmann::json::array();
    int line = 1;
    std::string code;
    for (const auto& [kind, title] : sections) {
        list.push_back({{"kind", kind}, {"title", title}, {"start", line}, {"end", line + 9}, {"parent", nullptr}});
        for (int i = 0; i < 10; ++i)
            code += "# " + title + "\n";
        line += 10;
    }
    ps::ui::RunDocument doc = syntheticRun("/s/train.py", syntheticGraph(12, "/s/train.py", 3));
    nlohmann::json report = doc.report.toJson();
    report["captures"][0]["lowering"]["sections"] = list;
    report["captures"][0]["lowering"].erase("node_lines");
    doc.report = ps::model::Report::fromJson(report);
    doc.artifacts[0].pythonCode = code;

    ps::ui::SourceView view;
    view.resize(806, 445);
    view.show();
    ASSERT_TRUE(QTest::qWaitForWindowExposed(&view));
    view.setCapture(std::make_shared<const ps::ui::RunDocument>(doc), 0);
    auto* outline = view.findChild<QTreeWidget*>();
    ASSERT_NE(outline, nullptr);
    ASSERT_TRUE(waitForSettled([&]() { return outline->columnWidth(0); }, 5000));
    EXPECT_GE(outline->columnWidth(0), static_cast<const QAbstractItemView*>(outline)->sizeHintForColumn(0))
        << "a section name is cut";
    EXPECT_LE(outline->width(), 806 / 2) << "the code keeps most of the tab";
}
