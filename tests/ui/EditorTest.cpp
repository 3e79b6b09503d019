// The editor's desktop habits: Ctrl+S, recent files, drag and drop, find, settings kept.
#include "UiTestSupport.h"

#include "ui/editor/FindBar.h"
#include "ui/editor/ScriptEditor.h"
#include "ui/editor/ScriptFile.h"

#include <QAction>
#include <QFile>
#include <QMenuBar>
#include <QMimeData>
#include <QScrollBar>
#include <QSettings>
#include <QTest>
#include <QUrl>

#include <gtest/gtest.h>

using namespace ps::uitest;

namespace {

class UiEditor : public ::testing::Test {
protected:
    void SetUp() override { QSettings().clear(); }
    TempDir dir;
};

QString readAll(const QString& path)
{
    QFile f(path);
    return f.open(QIODevice::ReadOnly) ? QString::fromUtf8(f.readAll()) : QString();
}

TEST_F(UiEditor, CtrlSSavesAndTheTitleShowsTheChange)
{
    const QString path = dir.write("s.py", tinyScript());
    ps::ui::MainWindow window(windowOptions(dir, false));
    window.show();
    ASSERT_TRUE(QTest::qWaitForWindowExposed(&window));
    ASSERT_TRUE(window.openPath(path));
    auto* editor = window.editor();
    editor->setFocus();
    editor->setCursorPosition(0, 0);
    QTest::keyClicks(editor->viewport(), "# edited");
    QTest::keyClick(editor->viewport(), Qt::Key_Return);
    EXPECT_TRUE(editor->isModified());
    EXPECT_TRUE(window.isWindowModified());
    EXPECT_TRUE(window.windowTitle().startsWith("s.py"));
    QTest::keySequence(&window, QKeySequence::Save);
    EXPECT_FALSE(editor->isModified());
    EXPECT_TRUE(readAll(path).startsWith("# edited\n")) << readAll(path).toStdString();
}

TEST_F(UiEditor, RecentFilesAndSettingsAreKeptAcrossWindows)
{
    const QString a = dir.write("a.py", tinyScript());
    const QString b = dir.write("b.py", tinyScript());
    {
        auto options = windowOptions(dir, false);
        ps::ui::MainWindow window(options);
        window.show();
        ASSERT_TRUE(window.openPath(a));
        ASSERT_TRUE(window.openPath(b));
        window.setBackendChoice("eager");
        window.setTracerChoice("dynamo");
        EXPECT_EQ(
            window.recentFiles(), (QStringList{QFileInfo(b).absoluteFilePath(), QFileInfo(a).absoluteFilePath()}));
        window.close();
    }
    auto options = windowOptions(dir, false);
    options.restoreState = true;
    ps::ui::MainWindow again(options);
    EXPECT_EQ(again.editor()->filePath(), QFileInfo(b).absoluteFilePath());
    EXPECT_EQ(again.backendChoice(), "eager");
    EXPECT_EQ(again.tracerChoice(), "dynamo");
    EXPECT_EQ(again.recentFiles().size(), 2);
}

TEST_F(UiEditor, MenusShowTheShortcuts)
{
    ps::ui::MainWindow window(windowOptions(dir, false));
    QStringList shortcuts;
    for (QAction* menu : window.menuBar()->actions())
        for (QAction* a : menu->menu()->actions())
            if (!a->shortcut().isEmpty())
                shortcuts << a->text().remove('&') + "=" + a->shortcut().toString();
    for (const char* expected : {"Run=Ctrl+R", "Save=Ctrl+S", "Open…=Ctrl+O", "Find…=Ctrl+F", "Cancel Run=Ctrl+."})
        EXPECT_TRUE(shortcuts.contains(expected)) << expected << " not in " << shortcuts.join(" ").toStdString();
}

TEST_F(UiEditor, AFileDroppedOnTheEditorOpens)
{
    const QString path = dir.write("dropped.py", "x = 1\n");
    ps::ui::MainWindow window(windowOptions(dir, false));
    window.show();
    ASSERT_TRUE(QTest::qWaitForWindowExposed(&window));
    QMimeData mime;
    mime.setUrls({QUrl::fromLocalFile(path)});
    auto* target = window.editor()->viewport();
    QDragEnterEvent enter(QPoint(10, 10), Qt::CopyAction, &mime, Qt::LeftButton, Qt::NoModifier);
    QCoreApplication::sendEvent(target, &enter);
    EXPECT_TRUE(enter.isAccepted());
    QDropEvent drop(QPointF(10, 10), Qt::CopyAction, &mime, Qt::LeftButton, Qt::NoModifier);
    QCoreApplication::sendEvent(target, &drop);
    EXPECT_EQ(window.editor()->filePath(), QFileInfo(path).absoluteFilePath());
    EXPECT_EQ(window.editor()->text(), "x = 1\n");
}

TEST_F(UiEditor, FindBarFindsAndWraps)
{
    ps::ui::ScriptEditor editor;
    ps::ui::FindBar find(&editor);
    editor.setText("alpha\nbeta\nalpha beta\n");
    find.setText("beta");
    ASSERT_TRUE(find.findNext());
    int line, index;
    editor.getCursorPosition(&line, &index);
    EXPECT_EQ(line, 1);
    ASSERT_TRUE(find.findNext());
    editor.getCursorPosition(&line, &index);
    EXPECT_EQ(line, 2);
    ASSERT_TRUE(find.findNext());  // wraps
    editor.getCursorPosition(&line, &index);
    EXPECT_EQ(line, 1);
    find.setText("gamma");
    EXPECT_FALSE(find.findNext());
    EXPECT_EQ(find.status(), "not found");
}

}  // namespace

TEST_F(UiEditor, ShortCodeHasNoHorizontalScrollBar)
{
    ps::ui::ScriptEditor editor;
    editor.resize(600, 400);
    editor.show();
    ASSERT_TRUE(QTest::qWaitForWindowExposed(&editor));
    editor.newScript();
    QScrollBar* bar = editor.horizontalScrollBar();
    ASSERT_TRUE(waitForSettled([&]() { return bar->isVisible(); }, 5000));
    EXPECT_FALSE(bar->isVisible()) << "range " << bar->maximum();
    // A line wider than the editor brings it; opening a short file again takes it away.
    editor.setText("x = '" + QString(300, 'a') + "'\n");
    editor.setCursorPosition(0, 300);
    ASSERT_TRUE(waitFor([&]() { return bar->isVisible(); }, 5000));
    ASSERT_TRUE(editor.open(dir.write("short.py", "x = 1\n")).status == ps::ui::ScriptFile::Status::Editable);
    ASSERT_TRUE(waitForSettled([&]() { return bar->isVisible(); }, 5000));
    EXPECT_FALSE(bar->isVisible());
}
