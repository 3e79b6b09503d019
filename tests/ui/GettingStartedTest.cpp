// A new user's first minutes: Run on the starter script without a Save dialog, File > Open in a
// sensible folder, File > Examples opening a copy of a shipped example.
#include "UiTestSupport.h"

#include "ui/editor/EditorTabs.h"
#include "ui/editor/ScriptEditor.h"
#include "ui/editor/ScriptLocations.h"
#include "ui/editor/UnsavedScript.h"
#include "ui/graph/GraphView.h"
#include "ui/library/LibraryView.h"
#include "ui/report/ReportHeader.h"
#include "ui/report/ReportView.h"
#include "ui/run/LogView.h"
#include "ui/window/ExamplesMenu.h"

#include <QAction>
#include <QApplication>
#include <QCheckBox>
#include <QDir>
#include <QFile>
#include <QFileDialog>
#include <QFileInfo>
#include <QMenuBar>
#include <QSettings>
#include <QTest>
#include <QTimer>
#include <QToolBar>

#include <gtest/gtest.h>

using namespace ps::uitest;

namespace {

/// Closes every modal dialog that comes up while it lives, and counts them.
class DialogWatch {
public:
    DialogWatch()
    {
        m_timer.setInterval(50);
        QObject::connect(&m_timer, &QTimer::timeout, [this]() {
            if (QWidget* modal = QApplication::activeModalWidget()) {
                titles << modal->windowTitle();
                modal->close();
            }
        });
        m_timer.start();
    }
    QStringList titles;

private:
    QTimer m_timer;
};

QAction* fileAction(ps::ui::MainWindow& window, const QString& text)
{
    for (QAction* menu : window.menuBar()->actions())
        if (menu->menu() && menu->text() == "&File")
            for (QAction* a : menu->menu()->actions())
                if (a->text() == text)
                    return a;
    return nullptr;
}

TEST(UiGettingStarted, RunOnTheStarterScriptRunsItWithoutASaveDialog)
{
    QSettings().clear();
    TempDir dir;
    ps::ui::MainWindow window(windowOptions(dir));
    window.show();
    ASSERT_TRUE(QTest::qWaitForWindowExposed(&window));
    ASSERT_TRUE(window.editor()->filePath().isEmpty());
    ASSERT_TRUE(window.editor()->text().contains("def fn"));
    EXPECT_EQ(window.runAction()->shortcut(), QKeySequence(Qt::CTRL | Qt::Key_R));
    window.setBackendChoice("eager");
    window.editor()->setText(window.editor()->text() + "\n# edited, never saved\n");

    DialogWatch dialogs;
    const auto run = runAndWait(window);
    ASSERT_TRUE(run);
    EXPECT_TRUE(dialogs.titles.isEmpty()) << dialogs.titles.join(", ").toStdString();
    EXPECT_EQ(run->report.status, ps::model::RunStatus::Ok) << run->report.message;
    const QString script = QString::fromStdString(run->report.script);
    EXPECT_TRUE(ps::ui::UnsavedScript::isUnsavedCopy(script)) << script.toStdString();
    EXPECT_EQ(ps::ui::UnsavedScript::displayName(script), "untitled.py (unsaved)");
    EXPECT_NE(run->scriptText.find("# edited, never saved"), std::string::npos);
    EXPECT_TRUE(window.logView()->toPlainText().contains("untitled.py (unsaved)"));
    EXPECT_TRUE(window.report()->header()->identityText().startsWith("untitled.py (unsaved)"))
        << window.report()->header()->identityText().toStdString();
    // The editor's script stays untitled and modified: nothing was saved for the user.
    EXPECT_TRUE(window.editor()->filePath().isEmpty());
    EXPECT_TRUE(window.editor()->isModified());
    ASSERT_TRUE(run->report.runId.has_value());
    EXPECT_EQ(window.libraryView()->runIdAt(0), *run->report.runId);
    EXPECT_TRUE(window.libraryView()->details().contains("untitled.py (unsaved)"))
        << window.libraryView()->details().toStdString();
    // Its graph still leads to the editor's lines: fn's `return` line has nodes.
    const int returnLine = window.editor()->text().left(window.editor()->text().indexOf("return")).count('\n') + 1;
    ASSERT_TRUE(waitFor([&]() { return !window.report()->graphView()->layoutPending(); }, 10000));
    emit window.editor()->lineClicked(returnLine);
    EXPECT_FALSE(window.report()->graphView()->selectedNodes().isEmpty()) << "line " << returnLine;

    // A second run gets a fresh copy; the first one is gone.
    const auto again = runAndWait(window);
    ASSERT_TRUE(again);
    EXPECT_NE(again->report.script, run->report.script);
    EXPECT_FALSE(QFileInfo::exists(script));
}

TEST(UiGettingStarted, OpenStartsInTheLastFolderElseTheExamples)
{
    QSettings().clear();
    TempDir dir;
    const QString examples = ps::ui::ScriptLocations::examplesDir();
    ASSERT_TRUE(QFileInfo(examples + "/mlp_inference.py").isFile()) << examples.toStdString();
    EXPECT_EQ(ps::ui::ScriptLocations::startDir(), examples);

    ps::ui::MainWindow window(windowOptions(dir, false));
    window.show();
    ASSERT_TRUE(QTest::qWaitForWindowExposed(&window));
    QAction* open = fileAction(window, "&Open…");
    ASSERT_NE(open, nullptr);
    // The dialog that comes up: its folder, then cancelled.
    const auto openedIn = [&]() {
        QString folder;
        QTimer::singleShot(100, [&]() {
            waitFor([]() { return QApplication::activeModalWidget() != nullptr; }, 5000);
            if (auto* dialog = qobject_cast<QFileDialog*>(QApplication::activeModalWidget())) {
                folder = dialog->directory().absolutePath();
                dialog->reject();
            }
        });
        open->trigger();
        return folder;
    };
    const QString cwd = QDir::currentPath();
    EXPECT_EQ(openedIn(), QDir(examples).absolutePath());
    EXPECT_NE(openedIn(), cwd);

    // A script opened from elsewhere makes that folder the one Open starts in.
    const QString other = dir.write("mine.py", tinyScript());
    ps::ui::ScriptLocations::remember(other);
    EXPECT_EQ(openedIn(), QFileInfo(other).absolutePath());
    // A folder that has gone since: the examples again.
    QSettings().setValue("files/lastDir", dir.file("gone"));
    EXPECT_EQ(ps::ui::ScriptLocations::startDir(), examples);
}

TEST(UiGettingStarted, FileExamplesOpensACopyOfAShippedExample)
{
    QSettings().clear();
    TempDir dir;
    ps::ui::MainWindow window(windowOptions(dir));
    window.show();
    ASSERT_TRUE(QTest::qWaitForWindowExposed(&window));
    auto* menu = window.findChild<ps::ui::ExamplesMenu*>();
    ASSERT_NE(menu, nullptr);
    EXPECT_EQ(fileAction(window, "&Examples"), menu->menuAction());
    QStringList names;
    QAction* violating = nullptr;
    for (QAction* a : menu->actions()) {
        names << a->text();
        if (a->text() == "violation_closed_over_tensor.py")
            violating = a;
    }
    for (const char* name :
        {"plain_function.py", "mlp_inference.py", "training_step.py", "violation_closed_over_tensor.py"})
        EXPECT_TRUE(names.contains(name)) << name << " in " << names.join(", ").toStdString();
    ASSERT_NE(violating, nullptr);
    EXPECT_FALSE(violating->toolTip().isEmpty());

    const QString shipped = violating->data().toString();
    QFile file(shipped);
    ASSERT_TRUE(file.open(QIODevice::ReadOnly));
    const QByteArray before = file.readAll();
    file.close();
    violating->trigger();
    EXPECT_TRUE(window.editor()->filePath().isEmpty());
    EXPECT_FALSE(window.editor()->isModified());
    EXPECT_EQ(window.editor()->text().toUtf8(), before);

    window.editor()->insertAt("# my change\n", 0, 0);
    DialogWatch dialogs;
    const auto run = runAndWait(window);
    ASSERT_TRUE(run);
    EXPECT_TRUE(dialogs.titles.isEmpty()) << dialogs.titles.join(", ").toStdString();
    EXPECT_EQ(run->report.status, ps::model::RunStatus::Violation) << run->report.message;
    ASSERT_TRUE(file.open(QIODevice::ReadOnly));
    EXPECT_EQ(file.readAll(), before);  // the shipped file is never written
    // Edited, it ran from its copy: said as unsaved, by the example's name.
    const QString script = QString::fromStdString(run->report.script);
    EXPECT_TRUE(ps::ui::UnsavedScript::isUnsavedCopy(script)) << script.toStdString();
    EXPECT_EQ(QFileInfo(script).fileName(), "violation_closed_over_tensor.py");
}

TEST(UiGettingStarted, AnExampleGoesByItsOwnNameFromTheTitleToTheLibrary)
{
    QSettings().clear();
    TempDir dir;
    ps::ui::MainWindow window(windowOptions(dir));
    window.show();
    ASSERT_TRUE(QTest::qWaitForWindowExposed(&window));
    auto* menu = window.findChild<ps::ui::ExamplesMenu*>();
    ASSERT_NE(menu, nullptr);
    QAction* mlp = nullptr;
    for (QAction* a : menu->actions())
        if (a->text() == "mlp_inference.py")
            mlp = a;
    ASSERT_NE(mlp, nullptr);
    mlp->trigger();
    EXPECT_TRUE(window.windowTitle().startsWith("mlp_inference.py[*] (example)")) << window.windowTitle().toStdString();
    EXPECT_TRUE(window.editor()->filePath().isEmpty());

    window.setBackendChoice("eager");
    const auto run = runAndWait(window);
    ASSERT_TRUE(run);
    // Unedited, it ran from the example's own file: the run, its messages and its row name it.
    const QString script = QString::fromStdString(run->report.script);
    EXPECT_FALSE(ps::ui::UnsavedScript::isUnsavedCopy(script)) << script.toStdString();
    EXPECT_EQ(QFileInfo(script).absoluteFilePath(), QFileInfo(mlp->data().toString()).absoluteFilePath());
    const QString identity = window.report()->header()->identityText();
    EXPECT_TRUE(identity.startsWith("mlp_inference.py")) << identity.toStdString();
    EXPECT_FALSE(identity.contains("unsaved")) << identity.toStdString();
    EXPECT_TRUE(window.report()->staleReason().isEmpty()) << window.report()->staleReason().toStdString();
    auto* tabs = window.findChild<ps::ui::EditorTabs*>();
    ASSERT_NE(tabs, nullptr);
    EXPECT_EQ(tabs->tabText(0), "mlp_inference.py");
    ASSERT_TRUE(run->report.runId.has_value());
    const ps::ui::StoredRun* row = window.libraryView()->run(*run->report.runId);
    ASSERT_NE(row, nullptr);
    EXPECT_EQ(row->name, "mlp_inference");

    // Save As offers the example's name in the user's folder, never the installed examples.
    QSettings().setValue("files/lastDir", ps::ui::ScriptLocations::examplesDir());
    QString offered;
    QTimer::singleShot(100, [&]() {
        waitFor([]() { return QApplication::activeModalWidget() != nullptr; }, 5000);
        if (auto* dialog = qobject_cast<QFileDialog*>(QApplication::activeModalWidget())) {
            offered = dialog->directory().absolutePath() + "/" + dialog->selectedFiles().value(0).section('/', -1);
            dialog->reject();
        }
    });
    QAction* saveAs = fileAction(window, "Save &As…");
    ASSERT_NE(saveAs, nullptr);
    EXPECT_EQ(saveAs->shortcut(), QKeySequence(Qt::CTRL | Qt::SHIFT | Qt::Key_S)) << "not empty on X11";
    saveAs->trigger();
    EXPECT_TRUE(offered.endsWith("/mlp_inference.py")) << offered.toStdString();
    EXPECT_FALSE(offered.startsWith(QDir(ps::ui::ScriptLocations::examplesDir()).absolutePath()))
        << offered.toStdString();

    // Another example opened: the report says whose it is and whose the editor's script is.
    for (QAction* a : menu->actions())
        if (a->text() == "plain_function.py")
            a->trigger();
    EXPECT_TRUE(window.report()->staleReason().contains("not of plain_function.py in the editor"))
        << window.report()->staleReason().toStdString();

    // New goes back to untitled.py.
    QAction* newScript = fileAction(window, "&New Script");
    ASSERT_NE(newScript, nullptr);
    newScript->trigger();
    EXPECT_TRUE(window.windowTitle().startsWith("untitled.py[*] — ")) << window.windowTitle().toStdString();
}

}  // namespace

TEST(UiGettingStarted, VerifyIsASettingThatLooksLikeOne)
{
    QSettings().clear();
    TempDir dir;
    ps::ui::MainWindow window(windowOptions(dir, false));
    window.show();
    ASSERT_TRUE(QTest::qWaitForWindowExposed(&window));
    // The tool bar shows a check box, not a button that reads like a command.
    auto* toggle = window.findChild<QCheckBox*>("verifyToggle");
    ASSERT_NE(toggle, nullptr);
    EXPECT_TRUE(toggle->isVisible());
    EXPECT_TRUE(toggle->isChecked());
    EXPECT_TRUE(toggle->toolTip().startsWith("When checked")) << toggle->toolTip().toStdString();
    QAction* menuItem = nullptr;
    for (QAction* a : window.findChildren<QAction*>())
        if (a->text() == "&Verify Each Run")
            menuItem = a;
    ASSERT_NE(menuItem, nullptr);
    EXPECT_TRUE(menuItem->isCheckable());
    EXPECT_TRUE(menuItem->isChecked());
    for (QToolBar* bar : window.findChildren<QToolBar*>())
        for (QAction* a : bar->actions())
            EXPECT_NE(a, menuItem) << "the setting is not a tool button";

    QTest::mouseClick(toggle, Qt::LeftButton, {}, QPoint(4, toggle->height() / 2));
    EXPECT_FALSE(menuItem->isChecked());
    menuItem->trigger();
    EXPECT_TRUE(toggle->isChecked());
}
