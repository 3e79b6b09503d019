// A node's stack in the Graph tab's details: every frame listed innermost first and clickable;
// the run's script goes to the editor's line, any other file (a library's) opens read-only in
// a viewer tab beside the editor at the line.
#include "UiTestSupport.h"

#include "graph/GraphModel.h"
#include "model/RunStatus.h"
#include "ui/common/NoticeBar.h"
#include "ui/editor/EditorTabs.h"
#include "ui/editor/ScriptEditor.h"
#include "ui/editor/SourceViewerTab.h"
#include "ui/graph/GraphDetailsFormatter.h"
#include "ui/graph/GraphView.h"
#include "ui/library/RunStore.h"
#include "ui/report/ReportView.h"
#include "ui/run/RunDocument.h"

#include <QComboBox>
#include <QDir>
#include <QSettings>
#include <QTabBar>
#include <QTabWidget>
#include <QTest>
#include <QTextBrowser>

#include <gtest/gtest.h>

using namespace ps::uitest;
using Link = ps::ui::GraphDetailsFormatter::Link;

namespace {

const char* kStackScript = "import torch\n"                 // 1
                           "\n"                             // 2
                           "def fn(model, x):\n"            // 3
                           "    return model(x)  # HERE\n"  // 4
                           "\n"
                           "example_inputs = ()\n";

/// A stand-in for torchvision's models/resnet.py: line N says which line it is, and line 268
/// is the one a resnet18's first convolution comes from.
QString resnetText()
{
    QString text;
    for (int line = 1; line <= 300; ++line)
        text += line == 268 ? QStringLiteral("        x = self.conv1(x)\n")
            : line == 269   ? QStringLiteral("        x = self.bn1(x)\n")
                            : QStringLiteral("        pass  # line %1\n").arg(line);
    return text;
}

nlohmann::json stackGraphFor(const std::string& script, const std::string& resnet)
{
    auto node = [](const char* name, const char* op, const char* target, const char* kind,
                    std::vector<std::string> inputs, nlohmann::json stack) {
        nlohmann::json n = {{"name", name}, {"op", op}, {"target", target}, {"kind", kind}, {"inputs", inputs},
            {"shape", {1, 64, 16, 16}}, {"dtype", "float32"}, {"module", nullptr}};
        if (!stack.is_null())
            n["stack"] = stack;
        return n;
    };
    nlohmann::json frames = {{{"file", "/gone/torch/nn/modules/conv.py"}, {"line", 560}, {"function", "_conv_forward"},
                                 {"code", "return F.conv2d("}, {"owner", "torch"}, {"package", "torch"}},
        {{"file", resnet}, {"line", 268}, {"function", "_forward_impl"}, {"code", "x = self.conv1(x)"},
            {"owner", "package"}, {"package", "torchvision"}},
        {{"file", script}, {"line", 4}, {"function", "fn"}, {"code", "return model(x)  # HERE"}, {"owner", "user"}},
        {{"file", resnet}, {"line", 269}, {"function", "_forward_impl"}, {"code", "x = self.bn1(x)"},
            {"owner", "package"}, {"package", "torchvision"}}};
    nlohmann::json list = {node("x", "placeholder", "x", "input", {}, nullptr),
        node("convolution", "call_function", "aten.convolution.default", "compute", {"x"}, {0, 1, 2}),
        node("batch_norm", "call_function", "aten._native_batch_norm_legit_no_training.default", "compute",
            {"convolution"}, {3, 2}),
        node("output", "output", "output", "output", {"batch_norm"}, nullptr)};
    return {{"nodes", 4}, {"complete", true}, {"node_list", list}, {"frames", frames}};
}

class UiNodeStack : public ::testing::Test {
protected:
    void SetUp() override
    {
        QSettings().clear();
        QSettings().setValue(QStringLiteral("graph/sidePanel"), true);
        script = dir.write("model.py", kStackScript);
        ASSERT_TRUE(QDir(dir.path()).mkpath("site-packages/torchvision/models"));
        resnet = dir.write("site-packages/torchvision/models/resnet.py", resnetText().toUtf8());
        ps::ui::RunStore store(dir.file("library.sqlite3"));
        ASSERT_TRUE(store.isOpen()) << store.error().toStdString();
        QString error;
        runId = store.insert(
            syntheticRun(script.toStdString(), stackGraphFor(script.toStdString(), resnet.toStdString())), &error);
        ASSERT_GT(runId, 0) << error.toStdString();
    }

    /// Opens the run on its Graph tab, `node` selected.
    void openOn(ps::ui::MainWindow& window, const char* node)
    {
        window.show();
        ASSERT_TRUE(QTest::qWaitForWindowExposed(&window));
        ASSERT_TRUE(window.openStoredRun(runId));
        graph = window.report()->graphView();
        window.report()->tabs()->setCurrentIndex(ps::ui::ReportView::GraphTab);
        ASSERT_TRUE(waitFor([&]() { return graph->moduleTree() && !graph->layoutPending(); }, 10000));
        index = window.report()->currentGraph()->indexOf(node);
        ASSERT_GE(index, 0);
        graph->selectNodes({index}, false);
    }

    /// Clicks the details pane's link to frame `frame` of the selected node, after checking the
    /// pane shows it.
    void clickFrame(int frame)
    {
        auto* pane = graph->findChild<QTextBrowser*>(QStringLiteral("graphDetails"));
        ASSERT_NE(pane, nullptr);
        const QUrl url = ps::ui::GraphDetailsFormatter::link(Link::Frame, index, frame);
        ASSERT_TRUE(pane->toHtml().contains("href=\"" + url.toString() + "\"")) << url.toString().toStdString();
        emit pane->anchorClicked(url);
    }

    TempDir dir;
    QString script, resnet;
    qint64 runId = 0;
    ps::ui::GraphView* graph = nullptr;
    int index = -1;
};

TEST_F(UiNodeStack, DetailsListTheFramesInnermostFirst)
{
    ps::ui::MainWindow window(windowOptions(dir, /*prewarm=*/false));
    openOn(window, "convolution");
    const QString text = graph->detailsText();
    const auto conv = text.indexOf("conv.py:560"), lib = text.indexOf("resnet.py:268"),
               user = text.indexOf("model.py:4");
    ASSERT_GE(conv, 0) << text.toStdString();
    ASSERT_GT(lib, conv) << text.toStdString();
    ASSERT_GT(user, lib) << text.toStdString();
    EXPECT_TRUE(text.contains("x = self.conv1(x)")) << text.toStdString();
    EXPECT_TRUE(text.contains("torchvision")) << text.toStdString();
    EXPECT_TRUE(text.contains("_forward_impl")) << text.toStdString();
}

TEST_F(UiNodeStack, ALibraryFrameOpensItsFileReadOnlyInAViewerTabAtTheLine)
{
    ps::ui::MainWindow window(windowOptions(dir, /*prewarm=*/false));
    openOn(window, "convolution");
    auto* tabs = window.editorTabs();
    EXPECT_EQ(tabs->viewerCount(), 0);
    EXPECT_FALSE(tabs->tabBar()->isVisible()) << "no viewer: the editor looks as it always did";

    clickFrame(1);  // torchvision/models/resnet.py:268
    ASSERT_EQ(tabs->viewerCount(), 1);
    auto* viewer = qobject_cast<ps::ui::SourceViewerTab*>(tabs->currentWidget());
    ASSERT_NE(viewer, nullptr) << "the viewer's tab is the one shown";
    EXPECT_EQ(viewer->filePath(), QFileInfo(resnet).absoluteFilePath());
    EXPECT_TRUE(viewer->isReadOnly());
    EXPECT_EQ(viewer->highlightedLine(), 268);
    int line = -1, col = -1;
    viewer->getCursorPosition(&line, &col);
    EXPECT_EQ(line + 1, 268);
    EXPECT_EQ(viewer->text(line), QStringLiteral("        x = self.conv1(x)\n"));
    EXPECT_TRUE(waitFor([&]() { return viewer->isVisible(); }, 2000));
    EXPECT_LE(viewer->firstVisibleLine(), 268);
    EXPECT_GT(viewer->firstVisibleLine(), 200) << "scrolled to the line";
    EXPECT_TRUE(tabs->tabBar()->isVisible());
    EXPECT_EQ(tabs->tabText(tabs->currentIndex()), QStringLiteral("resnet.py"));
    EXPECT_EQ(window.editor()->filePath(), QFileInfo(script).absoluteFilePath()) << "the script stays open";

    // The same file again: its tab, at the other line.
    index = window.report()->currentGraph()->indexOf("batch_norm");
    graph->selectNodes({index}, false);
    clickFrame(0);  // resnet.py:269
    EXPECT_EQ(tabs->viewerCount(), 1);
    EXPECT_EQ(viewer->highlightedLine(), 269);

    // The run's script: the editor's tab, at the line.
    clickFrame(1);  // model.py:4
    EXPECT_EQ(tabs->currentIndex(), 0);
    window.editor()->getCursorPosition(&line, &col);
    EXPECT_EQ(line + 1, 4);
    EXPECT_EQ(window.editor()->highlightedLines(), QList<int>{4});

    // Another script opened while a viewer is in front: the script's tab comes to the front.
    clickFrame(0);  // resnet.py again, in front
    ASSERT_EQ(tabs->currentWidget(), viewer);
    ASSERT_TRUE(window.openPath(dir.write("another.py", tinyScript())));
    EXPECT_EQ(tabs->currentIndex(), 0) << "resnet.py stayed in front of the script just opened";
    EXPECT_EQ(tabs->tabText(0), QStringLiteral("another.py"));

    // Closing the viewer's tab leaves the editor alone.
    emit tabs->tabCloseRequested(1);
    EXPECT_EQ(tabs->viewerCount(), 0);
    EXPECT_TRUE(waitFor([&]() { return !tabs->tabBar()->isVisible(); }, 2000));
}

TEST_F(UiNodeStack, AFrameWhoseFileIsGoneIsSaidNotOpened)
{
    ps::ui::MainWindow window(windowOptions(dir, /*prewarm=*/false));
    openOn(window, "convolution");
    clickFrame(0);  // /gone/torch/nn/modules/conv.py: recorded on another machine, say
    EXPECT_EQ(window.editorTabs()->viewerCount(), 0);
    EXPECT_EQ(window.editorTabs()->currentIndex(), 0);
    EXPECT_TRUE(window.notice()->text().contains("conv.py cannot be opened")) << window.notice()->text().toStdString();
}

TEST_F(UiNodeStack, ALibraryFileChangedSinceTheRunIsSaid)
{
    // The package was upgraded after the run: resnet.py's line 268 says something else now.
    QString text = resnetText();
    text.replace(QStringLiteral("        x = self.conv1(x)\n"), QStringLiteral("        x = self.stem(x)\n"));
    dir.write("site-packages/torchvision/models/resnet.py", text.toUtf8());
    ps::ui::MainWindow window(windowOptions(dir, /*prewarm=*/false));
    openOn(window, "convolution");
    clickFrame(1);
    ASSERT_EQ(window.editorTabs()->viewerCount(), 1) << "today's file is shown all the same";
    const QString notice = window.notice()->text();
    EXPECT_TRUE(notice.contains("resnet.py has changed since this run")) << notice.toStdString();
    EXPECT_TRUE(notice.contains("x = self.stem(x)")) << notice.toStdString();
    EXPECT_TRUE(notice.contains("x = self.conv1(x)")) << notice.toStdString();

    window.notice()->dismiss();
    index = window.report()->currentGraph()->indexOf("batch_norm");
    graph->selectNodes({index}, false);
    clickFrame(0);  // line 269 is as it was
    EXPECT_FALSE(window.notice()->isVisible()) << window.notice()->text().toStdString();
}

TEST_F(UiNodeStack, SearchBySourceFindsTheNodesOfALibraryLine)
{
    ps::ui::MainWindow window(windowOptions(dir, /*prewarm=*/false));
    openOn(window, "convolution");
    graph->setSearch(QStringLiteral("resnet.py:269"), ps::graph::SearchField::Source);
    EXPECT_EQ(graph->matchCount(), 1);
    graph->setSearch(QStringLiteral("model.py:4"), ps::graph::SearchField::Source);
    EXPECT_EQ(graph->matchCount(), 2);
}

TEST_F(UiNodeStack, ANodeWithoutAStackShowsNone)
{
    ps::ui::MainWindow window(windowOptions(dir, /*prewarm=*/false));
    openOn(window, "x");
    EXPECT_FALSE(graph->detailsText().contains("stack")) << graph->detailsText().toStdString();
}

TEST_F(UiNodeStack, TheSourceLensGroupsNodesByTheUsersLineOrAPackagesLine)
{
    ps::ui::MainWindow window(windowOptions(dir, /*prewarm=*/false));
    openOn(window, "convolution");
    const auto model = window.report()->currentGraph();
    const int conv = model->indexOf("convolution"), bn = model->indexOf("batch_norm");
    graph->expandAll();
    ASSERT_TRUE(waitFor([&]() { return !graph->layoutPending(); }, 10000));

    auto* scopes = graph->findChild<QComboBox*>(QStringLiteral("graphSourceScope"));
    ASSERT_NE(scopes, nullptr);
    EXPECT_FALSE(scopes->isVisible()) << "only the source lens has a scope";
    graph->setLens(ps::graph::Lens::Source);
    EXPECT_TRUE(waitFor([&]() { return scopes->isVisible(); }, 2000));
    QStringList offered;
    for (int i = 0; i < scopes->count(); ++i)
        offered << scopes->itemText(i);
    EXPECT_EQ(offered, (QStringList{"your code", "in torchvision", "in torch"}));

    // The user's code: both nodes come from fn's one line.
    EXPECT_EQ(graph->legend(), QStringList{"model.py:4 (2)"});
    EXPECT_EQ(graph->boxFill(conv), graph->boxFill(bn));

    // torchvision: each node by its own line of resnet.py, chosen in the box as a user would.
    scopes->setCurrentIndex(scopes->findData(QStringLiteral("torchvision")));
    EXPECT_EQ(graph->sourceScope(), QStringLiteral("torchvision"));
    EXPECT_EQ(graph->legend(), (QStringList{"resnet.py:268 (1)", "resnet.py:269 (1)"}));
    EXPECT_NE(graph->boxFill(conv), graph->boxFill(bn));

    // torch: only the convolution has a torch.nn frame.
    EXPECT_TRUE(graph->setSourceScope(QStringLiteral("torch")));
    EXPECT_EQ(graph->legend(), QStringList{"conv.py:560 (1)"});
    EXPECT_FALSE(graph->setSourceScope(QStringLiteral("numpy"))) << "not a package of these stacks";
}

// A real run: torchvision's resnet18 through the worker; its first convolution's stack names
// resnet.py's `x = self.conv1(x)`, and a click opens the installed file there.
TEST(UiNodeStackRun, AResnet18ConvolutionOpensTorchvisionsResnetPyAtItsLine)
{
    QSettings().clear();
    QSettings().setValue(QStringLiteral("graph/sidePanel"), true);
    TempDir dir;
    const QString script = dir.write("resnet_stack.py",
        "import torch\n"
        "import torchvision\n"
        "\n"
        "torch.manual_seed(0)\n"
        "model = torchvision.models.resnet18().eval()\n"
        "backend = 'eager'\n"
        "\n"
        "def fn(model, x):\n"
        "    with torch.no_grad():\n"
        "        return model(x)\n"
        "\n"
        "example_inputs = (model, torch.randn(1, 3, 32, 32))\n");
    ps::ui::MainWindow window(windowOptions(dir));
    window.show();
    ASSERT_TRUE(QTest::qWaitForWindowExposed(&window));
    ASSERT_TRUE(window.openPath(script));
    const auto run = runAndWait(window);
    ASSERT_NE(run, nullptr);
    ASSERT_EQ(run->report.status, ps::model::RunStatus::Ok) << run->report.message;
    auto* graph = window.report()->graphView();
    window.report()->tabs()->setCurrentIndex(ps::ui::ReportView::GraphTab);
    ASSERT_TRUE(waitFor([&]() { return graph->moduleTree() && !graph->layoutPending(); }, 30000));
    const auto model = window.report()->currentGraph();
    const int conv = model->indexOf("convolution");
    ASSERT_GE(conv, 0);
    const auto stack = model->stackOf(conv);
    int frame = -1;
    for (int k = 0; k < static_cast<int>(stack.size()); ++k)
        if (stack[static_cast<std::size_t>(k)]->file.ends_with("torchvision/models/resnet.py") && frame < 0)
            frame = k;
    ASSERT_GE(frame, 0) << "no resnet.py frame in the first convolution's stack";
    const auto& f = *stack[static_cast<std::size_t>(frame)];
    EXPECT_EQ(f.code, "x = self.conv1(x)");
    ASSERT_FALSE(stack.empty());
    EXPECT_EQ(stack.back()->line, 10) << "the user's `return model(x)` is outermost";

    graph->selectNodes({conv}, true);  // opens model.conv1's box: the details follow the layout
    const QString where = "resnet.py:" + QString::number(f.line);
    EXPECT_TRUE(waitFor([&]() { return !graph->layoutPending() && graph->detailsText().contains(where); }, 30000))
        << graph->detailsText().toStdString();
    auto* pane = graph->findChild<QTextBrowser*>(QStringLiteral("graphDetails"));
    const QUrl url = ps::ui::GraphDetailsFormatter::link(Link::Frame, conv, frame);
    ASSERT_TRUE(pane->toHtml().contains("href=\"" + url.toString() + "\""));
    emit pane->anchorClicked(url);
    auto* viewer = qobject_cast<ps::ui::SourceViewerTab*>(window.editorTabs()->currentWidget());
    ASSERT_NE(viewer, nullptr);
    EXPECT_TRUE(viewer->filePath().endsWith("torchvision/models/resnet.py")) << viewer->filePath().toStdString();
    EXPECT_TRUE(viewer->isReadOnly());
    EXPECT_EQ(viewer->highlightedLine(), f.line);
    EXPECT_EQ(viewer->text(f.line - 1).trimmed(), QStringLiteral("x = self.conv1(x)"));
}

}  // namespace
