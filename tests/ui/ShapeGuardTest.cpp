// A runtime shape rejection where the user reads the script: after a real run of a script whose
// fn branches on a size and whose runtime_inputs use another batch, the editor marks the branch
// line (not the runtime_inputs line) with the guard in the tooltip, and the Violations tab says
// which guard and where runtime_inputs called it.
#include "UiTestSupport.h"

#include "model/Specialisation.h"
#include "ui/editor/EditorMarkers.h"
#include "ui/editor/ScriptEditor.h"
#include "ui/report/ReportView.h"
#include "ui/report/ViolationsView.h"
#include "ui/window/MainWindow.h"

#include <QTreeWidget>

#include <gtest/gtest.h>

using namespace ps::uitest;

namespace {

const char* kShapeGuardScript = "import torch\n"                                   // 1
                                "\n"                                               // 2
                                "backend = \"eager\"\n"                            // 3
                                "\n"                                               // 4
                                "\n"                                               // 5
                                "def fn(x):\n"                                     // 6
                                "    if x.shape[0] > 2:\n"                         // 7
                                "        return x.sin()\n"                         // 8
                                "    return x.cos()\n"                             // 9
                                "\n"                                               // 10
                                "\n"                                               // 11
                                "example_inputs = lambda: (torch.randn(2, 3),)\n"  // 12
                                "\n"                                               // 13
                                "\n"                                               // 14
                                "def runtime_inputs():\n"                          // 15
                                "    return (torch.randn(4, 3),)\n";               // 16

}  // namespace

TEST(UiShapeGuard, TheEditorMarksTheShapeBranchBehindARuntimeRejection)
{
    TempDir dir;
    const QString script = dir.write("wrong.py", kShapeGuardScript);
    ps::ui::MainWindow window(windowOptions(dir));
    window.resize(1400, 900);
    window.show();
    ASSERT_TRUE(window.openPath(script));
    const auto run = runAndWait(window);
    ASSERT_TRUE(run);
    ASSERT_EQ(run->report.status, ps::model::RunStatus::Violation) << run->report.message;
    const auto& capture = run->report.captures.at(0);
    ASSERT_TRUE(capture.specialisation);
    EXPECT_EQ(capture.specialisation->status, ps::model::Specialisation::Status::Found);

    auto* markers = window.editor()->markers();
    EXPECT_EQ(markers->markedLines(/*warning=*/false), QList<int>{7});
    EXPECT_TRUE(markers->hasSquiggle(7, false));
    const QString tip = markers->hoverText(7);
    EXPECT_TRUE(tip.contains("input-shape")) << tip.toStdString();
    EXPECT_TRUE(tip.contains("x.shape[0] &lt;= 2")) << tip.toStdString();
    EXPECT_TRUE(tip.contains("if x.shape[0] &gt; 2:")) << tip.toStdString();
    EXPECT_TRUE(markers->hoverText(15).isEmpty());

    auto* violations = window.report()->violationsView();
    int row = -1;
    for (int i = 0; i < violations->count(); ++i)
        if (violations->entries()[i].rule == "input-shape")
            row = i;
    ASSERT_GE(row, 0);
    EXPECT_EQ(violations->entries()[row].line, 7);
    EXPECT_EQ(violations->entries()[row].guard, "x.shape[0] <= 2");
    EXPECT_EQ(violations->entries()[row].calledLine, 15);
    violations->list()->setCurrentItem(violations->list()->topLevelItem(row));
    const QString details = violations->detailsText();
    EXPECT_TRUE(details.contains("Shape guard")) << details.toStdString();
    EXPECT_TRUE(details.contains("called with other sizes at line 15")) << details.toStdString();
}
