// Where a capture's precompile time went, in the window: the Verify tab's stacked bar (one
// segment per phase, a legend, a tooltip with seconds and %), shown whether or not the capture
// was verified, and File > Export Compile Trace's file, a Chrome trace Perfetto opens.
#include "ui/report/CompileProfileBar.h"
#include "UiTestSupport.h"
#include "ui/report/CompileTraceExport.h"
#include "ui/report/VerifyView.h"
#include "ui/run/RunDocument.h"

#include <QAbstractTextDocumentLayout>
#include <QApplication>
#include <QFile>
#include <QHeaderView>
#include <QTemporaryDir>
#include <QTextBlock>
#include <QTextDocument>
#include <QTextLayout>
#include <QTreeWidget>

#include <gtest/gtest.h>

using ps::model::CompilePhase;
using ps::ui::CompileProfileBar;
using ps::ui::CompileTraceExport;
using ps::ui::RunDocument;
using ps::ui::VerifyView;

namespace {

nlohmann::json capture(bool profiled, bool verified)
{
    nlohmann::json c = {{"name", "mlp"}, {"backend", "inductor"}, {"tracer", "make_fx"}, {"status", "ok"},
        {"violation", nullptr}, {"outcome", nullptr}, {"warnings", nlohmann::json::array()}, {"artifact", nullptr},
        {"verify", verified ? nlohmann::json{{"ran", true}, {"status", "ok"}, {"matches_eager", true}} : nullptr},
        {"timings_s", {{"precompile", 5.9}}}};
    if (profiled) {
        c["compile_profile"] = {{{"phase", "tracing"}, {"seconds", 0.4}}, {{"phase", "aot_autograd"}, {"seconds", 0.6}},
            {{"phase", "inductor_lowering"}, {"seconds", 0.7}}, {{"phase", "code_generation"}, {"seconds", 3.9}},
            {{"phase", "cache"}, {"seconds", 0.2}}, {{"phase", "imports"}, {"seconds", 0.05}},
            {{"phase", "other"}, {"seconds", 0.05}}};
        c["compile_trace"] = {{"torch_events", true}, {"seconds", 5.89},
            {"threads", {{{"id", 4242}, {"name", "precompile"}, {"main", true}}}},
            {"events",
                {{{"name", "code_gen"}, {"cat", "torch"}, {"phase", "code_generation"}, {"start_s", 1.9},
                    {"dur_s", 3.9}, {"thread", 0}}}},
            {"fxgraph_cache", {{"hit", 0}, {"miss", 1}, {"bypass", 0}}}};
    }
    return c;
}

std::shared_ptr<const RunDocument> runOf(const nlohmann::json& c)
{
    auto run = std::make_shared<RunDocument>();
    run->report = ps::model::Report::fromJson(
        {{"schema", 1}, {"script", "/s/mlp.py"}, {"status", "ok"}, {"message", ""}, {"captures", {c}}});
    return run;
}

}  // namespace

TEST(UiCompileProfileBar, TheVerifyTabShowsEachPhaseAsASegmentWithLegendAndTooltip)
{
    VerifyView view;
    view.resize(1000, 600);
    view.show();
    view.setCapture(runOf(capture(true, true)), 0);
    const CompileProfileBar* bar = view.compileBar();
    ASSERT_NE(bar, nullptr);
    ASSERT_TRUE(bar->isVisible());
    EXPECT_EQ(bar->titleText(), "Compile 5.9 s · 99 % named · FX graph cache miss (kernels generated)");
    const QString legend = bar->legendText();
    for (const char* words : {"tracing 0.4 s", "aot_autograd 0.6 s", "inductor lowering 0.7 s", "code generation 3.9 s",
             "cache 0.2 s", "imports 50 ms", "other 50 ms"})
        EXPECT_TRUE(legend.contains(QString::fromUtf8(words))) << legend.toStdString() << " lacks " << words;

    const auto segments = bar->segments();
    ASSERT_EQ(segments.size(), 7u);
    double width = 0;
    for (const auto& s : segments)
        width += s.rect.width();
    EXPECT_NEAR(width, bar->width(), 1.0) << "the segments fill the bar";
    const auto& codegen = segments[3];
    EXPECT_EQ(codegen.phase, CompilePhase::CodeGeneration);
    EXPECT_NEAR(codegen.rect.width() / bar->width(), 3.9 / 5.9, 0.01) << "its width is its share";
    EXPECT_NE(codegen.colour, segments[2].colour);
    EXPECT_EQ(bar->toolTipAt(codegen.rect.center().toPoint()), "code generation: 3.9 s (66 % of the precompile time)");
    EXPECT_EQ(bar->toolTipAt(QPoint(1, static_cast<int>(codegen.rect.bottom()) + 30)), "");
}

TEST(UiCompileProfileBar, IsShownForACaptureThatWasNotVerifiedAndHiddenForAnOlderReport)
{
    VerifyView view;
    view.resize(1000, 600);
    view.show();
    view.setCapture(runOf(capture(true, false)), 0);
    EXPECT_TRUE(view.compileBar()->isVisible());
    EXPECT_EQ(view.compileBar()->segments().size(), 7u);

    view.setCapture(runOf(capture(false, true)), 0);
    EXPECT_FALSE(view.compileBar()->isVisible());
    EXPECT_TRUE(view.compileBar()->segments().empty());
}

TEST(UiCompileProfileBar, ExportCompileTraceWritesAChromeTrace)
{
    QTemporaryDir dir;
    const QString path = dir.filePath("mlp-compile-trace.json");
    ASSERT_EQ(CompileTraceExport::write(*runOf(capture(true, true)), path), "");
    QFile file(path);
    ASSERT_TRUE(file.open(QIODevice::ReadOnly));
    const auto trace = nlohmann::json::parse(file.readAll().toStdString());
    ASSERT_TRUE(trace["traceEvents"].is_array());
    int complete = 0;
    for (const auto& e : trace["traceEvents"])
        if (e["ph"] == "X") {
            ++complete;
            EXPECT_TRUE(e.contains("ts") && e.contains("dur") && e.contains("pid") && e.contains("tid")) << e.dump();
        }
    EXPECT_EQ(complete, 7 + 2) << "the phases, the precompile span and code_gen";

    EXPECT_NE(CompileTraceExport::write(*runOf(capture(false, true)), dir.filePath("none.json")), "");
    EXPECT_FALSE(QFile::exists(dir.filePath("none.json")));
}

// At the size a 1280x800 window gives the Verify tab (about 806x445), on resnet18's training step
// that drifts, profiled: the compared values show more than a few rows, and no legend entry is
// split over two lines ("1.0" on one, "s" on the next).
TEST(UiCompileProfileBar, At1280TheComparedValuesReadAndNoLegendEntryIsSplit)
{
    QFile f(ps::uitest::sourcePath(QStringLiteral("tests/fixtures/graphs/resnet18_training_drift.json")));
    ASSERT_TRUE(f.open(QIODevice::ReadOnly));
    nlohmann::json c = nlohmann::json::parse(f.readAll().toStdString())["capture"];
    const auto profiled = capture(true, true);
    c["compile_profile"] = profiled["compile_profile"];
    c["compile_trace"] = profiled["compile_trace"];
    c["timings_s"] = {{"precompile", 5.9}, {"load", 0.05}, {"call", 0.012}, {"call_eager", 0.02}};
    VerifyView view;
    view.resize(806, 445);
    view.show();
    view.setCapture(runOf(c), 0);
    QApplication::processEvents();
    if (const QString dir = qEnvironmentVariable("PS_SHOT_DIR"); !dir.isEmpty())
        view.grab().save(dir + "/verify_1280.png");
    auto* rows = view.findChild<QTreeWidget*>();
    ASSERT_NE(rows, nullptr);
    ASSERT_GE(rows->topLevelItemCount(), 6);
    const int rowHeight = rows->visualItemRect(rows->topLevelItem(0)).height();
    ASSERT_GT(rowHeight, 0);
    EXPECT_GE(rows->viewport()->height() / rowHeight, 6) << "the compared values show only a few rows";
    // A long name is cut in the middle: the dtypes are in view (they were pushed off by the names).
    EXPECT_LT(rows->header()->sectionViewportPosition(7) + 20, rows->viewport()->width());
    // The timings are said in the summary; their charts come back where the tab is tall enough.
    EXPECT_TRUE(view.summaryText().contains(QStringLiteral("call 12 ms"))) << view.summaryText().toStdString();
    auto* chart = view.findChild<QWidget*>(QStringLiteral("verifyChart"));
    ASSERT_NE(chart, nullptr);
    EXPECT_FALSE(chart->isVisible());
    view.resize(1100, 900);
    QApplication::processEvents();
    EXPECT_TRUE(chart->isVisible());
    view.resize(806, 445);
    QApplication::processEvents();

    // The legend laid out at the bar's width: every line starts with an entry's swatch.
    const CompileProfileBar* bar = view.compileBar();
    ASSERT_TRUE(bar->isVisible());
    for (const int width : {bar->width(), 420, 300}) {
        QTextDocument doc;
        doc.setDefaultFont(bar->font());
        doc.setHtml(bar->legendHtml());
        doc.setTextWidth(width);
        doc.documentLayout();  // lays it out
        for (QTextBlock b = doc.begin(); b.isValid(); b = b.next())
            for (int i = 0; i < b.layout()->lineCount(); ++i) {
                const QTextLine line = b.layout()->lineAt(i);
                const QString text = b.text().mid(line.textStart(), line.textLength()).trimmed();
                EXPECT_TRUE(text.startsWith(QStringLiteral("■")))
                    << "at " << width << " a line starts: " << text.toStdString();
            }
    }
}
