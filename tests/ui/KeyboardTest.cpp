// The window from the keyboard: F6 / Ctrl+Tab between the panes, Tab in the editor indents and
// Esc then Tab leaves it, Ctrl+Shift+L shows and focuses the library, and Help > Keyboard
// Shortcuts lists what the actions say.
#include "UiTestSupport.h"
#include "ui/lessons/LessonsWindow.h"
#include "ui/library/LibraryActions.h"
#include <QToolBar>

#include "graph/GraphModel.h"
#include "ui/editor/ScriptEditor.h"
#include "ui/graph/GraphCanvas.h"
#include "ui/graph/GraphView.h"
#include "ui/library/LibraryView.h"
#include "ui/library/RunStore.h"
#include "ui/report/ReportView.h"
#include "ui/run/LogView.h"
#include "ui/window/PaneCycler.h"
#include "ui/window/ShortcutsDialog.h"

#include <QAction>
#include <QApplication>
#include <QDockWidget>
#include <QLineEdit>
#include <QMenu>
#include <QMenuBar>
#include <QSettings>
#include <QTest>
#include <QTimer>
#include <QTreeView>

#include <gtest/gtest.h>

using namespace ps::uitest;

namespace {

class UiKeyboard : public ::testing::Test {
protected:
    void SetUp() override
    {
        QSettings().clear();
        window = std::make_unique<ps::ui::MainWindow>(windowOptions(dir, /*prewarm=*/false));
        window->resize(1400, 900);
        window->show();
        ASSERT_TRUE(QTest::qWaitForWindowActive(window.get()));
    }

    /// Presses `key` where the focus is, as a user would.
    void press(int key, Qt::KeyboardModifiers modifiers = Qt::NoModifier)
    {
        QWidget* target = QApplication::focusWidget() ? QApplication::focusWidget() : window.get();
        QTest::keyClick(target, static_cast<Qt::Key>(key), modifiers);
        QCoreApplication::processEvents();
    }

    QString pane() const { return window->panes()->paneName(window->panes()->currentPane()); }

    void focusEditor()
    {
        window->editor()->setFocus();
        ASSERT_TRUE(waitFor([&]() { return window->editor()->hasFocus(); }, 2000));
    }

    QAction* menuAction(const QString& menu, const QString& text) const
    {
        for (QAction* top : window->menuBar()->actions())
            if (top->menu() && top->text().remove('&') == menu)
                for (QAction* a : top->menu()->actions())
                    if (a->text().remove('&') == text)
                        return a;
        return nullptr;
    }

    /// A stored run of a 60-node graph in three modules, shown on the Graph tab.
    ps::ui::GraphView* showGraph()
    {
        const QString script = dir.write("s.py", "x = 1\n");
        ps::ui::RunStore store(dir.file("library.sqlite3"));
        QString error;
        const qint64 id
            = store.insert(syntheticRun(script.toStdString(), syntheticGraph(120, script.toStdString(), 1)), &error);
        EXPECT_GT(id, 0) << error.toStdString();
        window->libraryView()->reload();
        EXPECT_TRUE(window->openStoredRun(id));
        window->report()->tabs()->setCurrentIndex(ps::ui::ReportView::GraphTab);
        auto* graph = window->report()->graphView();
        EXPECT_TRUE(waitFor([&]() { return !graph->layoutPending() && graph->message().isEmpty(); }, 60000));
        return graph;
    }

    TempDir dir;
    std::unique_ptr<ps::ui::MainWindow> window;
};

TEST_F(UiKeyboard, F6GoesRoundThePanesInOrderAndShiftF6Back)
{
    // A run on the Graph tab: the report's main widget is the canvas.
    const QString script = dir.write("s.py", "x = 1\n");
    qint64 id = 0;
    {
        ps::ui::RunStore store(dir.file("library.sqlite3"));
        QString error;
        id = store.insert(syntheticRun(script.toStdString(), syntheticGraph(20, script.toStdString(), 1)), &error);
        ASSERT_GT(id, 0) << error.toStdString();
    }
    ASSERT_TRUE(window->openStoredRun(id));
    window->report()->tabs()->setCurrentIndex(ps::ui::ReportView::GraphTab);
    auto* graph = window->report()->graphView();
    ASSERT_TRUE(waitFor([&]() { return !graph->layoutPending() && graph->message().isEmpty(); }, 60000))
        << "the graph is not shown: " << graph->message().toStdString();
    ASSERT_NO_FATAL_FAILURE(focusEditor());
    EXPECT_EQ(pane(), "Editor");
    QStringList forward, back;
    for (int i = 0; i < 4; ++i) {
        press(Qt::Key_F6);
        forward << pane();
    }
    // The Lessons dock is closed: it is skipped.
    EXPECT_EQ(forward, (QStringList{"Report", "Library", "Log", "Editor"}));
    for (int i = 0; i < 4; ++i) {
        press(Qt::Key_F6, Qt::ShiftModifier);
        back << pane();
    }
    EXPECT_EQ(back, (QStringList{"Log", "Library", "Report", "Editor"}));
    // Each pane's main widget takes the focus: the current tab's content, the library's list,
    // the log itself.
    press(Qt::Key_F6);
    EXPECT_EQ(QApplication::focusWidget(), window->report()->graphView()->canvas());
    press(Qt::Key_F6, Qt::ShiftModifier);
    press(Qt::Key_F6, Qt::ShiftModifier);
    EXPECT_EQ(QApplication::focusWidget(), window->logView());
    press(Qt::Key_F6, Qt::ShiftModifier);
    EXPECT_EQ(QApplication::focusWidget(), window->libraryView()->view());
}

TEST_F(UiKeyboard, CtrlTabLeavesTheEditorAndCtrlShiftTabComesBack)
{
    ASSERT_NO_FATAL_FAILURE(focusEditor());
    const QString text = window->editor()->text();
    press(Qt::Key_Tab, Qt::ControlModifier);
    EXPECT_EQ(pane(), "Report");
    press(Qt::Key_Tab, Qt::ControlModifier | Qt::ShiftModifier);
    EXPECT_EQ(pane(), "Editor");
    press(Qt::Key_Backtab, Qt::ControlModifier | Qt::ShiftModifier);  // as X11 sends it
    EXPECT_EQ(pane(), "Log");
    EXPECT_EQ(window->editor()->text(), text) << "a Ctrl+Tab typed into the script";
}

TEST_F(UiKeyboard, TabIndentsInTheEditorAndEscThenTabLeavesIt)
{
    auto* editor = window->editor();
    editor->setText("x = 1\n");
    ASSERT_NO_FATAL_FAILURE(focusEditor());
    editor->setCursorPosition(0, 0);
    press(Qt::Key_Tab);
    EXPECT_TRUE(editor->text().startsWith("    x = 1")) << editor->text().toStdString();
    EXPECT_EQ(pane(), "Editor");
    const QString indented = editor->text();
    press(Qt::Key_Escape);
    press(Qt::Key_Tab);
    EXPECT_EQ(pane(), "Report");
    EXPECT_EQ(editor->text(), indented);
    // Esc, then Shift+Tab: the pane before (the Shift pressed on its own keeps the Esc).
    ASSERT_NO_FATAL_FAILURE(focusEditor());
    press(Qt::Key_Escape);
    press(Qt::Key_Shift, Qt::ShiftModifier);
    press(Qt::Key_Backtab, Qt::ShiftModifier);
    EXPECT_EQ(pane(), "Log");
    // Esc, a letter, then Tab: the Esc is forgotten and Tab indents again.
    ASSERT_NO_FATAL_FAILURE(focusEditor());
    editor->setCursorPosition(1, 0);
    press(Qt::Key_Escape);
    press(Qt::Key_A);
    press(Qt::Key_Tab);
    EXPECT_EQ(pane(), "Editor");
}

TEST_F(UiKeyboard, CtrlShiftLShowsAndFocusesTheLibraryEvenWhenItWasClosed)
{
    ASSERT_NO_FATAL_FAILURE(focusEditor());
    auto* list = window->libraryView()->view();
    QDockWidget* dock = nullptr;
    for (QWidget* w = list; w && !dock; w = w->parentWidget())
        dock = qobject_cast<QDockWidget*>(w);
    ASSERT_NE(dock, nullptr);
    press(Qt::Key_L, Qt::ControlModifier | Qt::ShiftModifier);
    EXPECT_TRUE(dock->isVisible());
    EXPECT_EQ(QApplication::focusWidget(), list);
    press(Qt::Key_L, Qt::ControlModifier | Qt::ShiftModifier);  // again: still there (no toggle)
    EXPECT_TRUE(dock->isVisible());
    EXPECT_EQ(QApplication::focusWidget(), list);
    dock->hide();
    ASSERT_NO_FATAL_FAILURE(focusEditor());
    press(Qt::Key_L, Qt::ControlModifier | Qt::ShiftModifier);
    EXPECT_TRUE(dock->isVisible());
    EXPECT_EQ(QApplication::focusWidget(), list);
    press(Qt::Key_G, Qt::ControlModifier | Qt::ShiftModifier);
    EXPECT_EQ(QApplication::focusWidget(), window->logView());
}

TEST_F(UiKeyboard, TheEditorLeavesTheWindowsKeysToTheWindow)
{
    // Scintilla binds Ctrl+Shift+L (delete the line) and Ctrl+L (cut the line) by default: in
    // the editor they must do what the menus say, and the line delete moves to Ctrl+Shift+K.
    auto* editor = window->editor();
    editor->setText("a = 1\nb = 2\n");
    ASSERT_NO_FATAL_FAILURE(focusEditor());
    editor->setCursorPosition(0, 0);
    press(Qt::Key_L, Qt::ControlModifier | Qt::ShiftModifier);
    EXPECT_EQ(editor->text(), "a = 1\nb = 2\n");
    EXPECT_EQ(QApplication::focusWidget(), window->libraryView()->view());
    ASSERT_NO_FATAL_FAILURE(focusEditor());
    editor->setCursorPosition(0, 0);
    press(Qt::Key_K, Qt::ControlModifier | Qt::ShiftModifier);
    EXPECT_EQ(editor->text(), "b = 2\n");
    // Ctrl+L asks for a line (the dialog is closed as it opens) and cuts nothing.
    ASSERT_NO_FATAL_FAILURE(focusEditor());
    bool asked = false;
    QTimer::singleShot(300, [&asked]() {
        if (QWidget* dialog = QApplication::activeModalWidget()) {
            asked = true;
            dialog->close();
        }
    });
    press(Qt::Key_L, Qt::ControlModifier);
    EXPECT_TRUE(asked);
    EXPECT_EQ(editor->text(), "b = 2\n");
}

TEST_F(UiKeyboard, TheShortcutsListIsReadFromTheActions)
{
    QAction* open = menuAction("Help", "Keyboard Shortcuts");
    ASSERT_NE(open, nullptr);
    open->trigger();
    auto* dialog = window->findChild<ps::ui::ShortcutsDialog*>();
    ASSERT_NE(dialog, nullptr);
    EXPECT_TRUE(dialog->isVisible());
    EXPECT_EQ(dialog->keysFor("Run"), window->runAction()->shortcut().toString(QKeySequence::NativeText));
    EXPECT_EQ(dialog->keysFor("Run"), "Ctrl+R");
    EXPECT_EQ(dialog->keysFor("Next Pane"), "F6, Ctrl+Tab");
    EXPECT_EQ(dialog->keysFor("Go to the Library"), "Ctrl+Shift+L");
    EXPECT_FALSE(dialog->keysFor("Leave the editor for the next / previous pane").isEmpty());
    const int all = dialog->visibleRowCount();
    dialog->setFilter("F6");
    EXPECT_GE(dialog->visibleRowCount(), 2);
    EXPECT_LT(dialog->visibleRowCount(), all);

    // A shortcut changed is listed as it is now: the list is not written down anywhere.
    window->runAction()->setShortcut(QKeySequence(Qt::CTRL | Qt::SHIFT | Qt::Key_R));
    open->trigger();
    QCoreApplication::processEvents();
    const auto dialogs = window->findChildren<ps::ui::ShortcutsDialog*>();
    ASSERT_EQ(dialogs.size(), 1);
    EXPECT_EQ(dialogs.front()->keysFor("Run"), "Ctrl+Shift+R");
}

TEST_F(UiKeyboard, F1ListsTheGraphsTheLibrarysAndTheEditorsKeys)
{
    QAction* open = menuAction("Help", "Keyboard Shortcuts");
    ASSERT_NE(open, nullptr);
    EXPECT_EQ(open->shortcut(), QKeySequence(QKeySequence::HelpContents));
    open->trigger();
    auto* dialog = window->findChild<ps::ui::ShortcutsDialog*>();
    ASSERT_NE(dialog, nullptr);
    EXPECT_EQ(dialog->keysFor("Expand the selected module"), "Enter, Space, +");
    EXPECT_EQ(dialog->keysFor("Delete the selected runs"), "Delete");
    EXPECT_NE(dialog->groupOf("Delete…"), "Window") << "the library's Delete is listed as the window's";
    dialog->setFilter("node");
    EXPECT_GE(dialog->visibleRowCount(), 3);
    dialog->setFilter("library");
    EXPECT_GE(dialog->visibleRowCount(), 3);
    dialog->setFilter("compare");
    EXPECT_GE(dialog->visibleRowCount(), 2);
    EXPECT_EQ(dialog->keysFor("Swap the sides: compare with the other run as the base"), "Ctrl+Shift+X");
    EXPECT_EQ(dialog->keysFor("Close the Compare window"), "Esc");
    EXPECT_TRUE(dialog->keysFor("Compare two runs (select both in the library)").contains("Enter"));
}

// What F1 promises is reachable by keys: the library's tool buttons are in the Tab order, and
// Escape closes the Lessons window as it closes Compare.
TEST_F(UiKeyboard, TheLibrarysButtonsTakeTheFocusAndEscapeClosesLessons)
{
    auto* tools = window->libraryView()->findChild<QToolBar*>();
    ASSERT_NE(tools, nullptr);
    QAction* compare = window->libraryView()->actions()->compareAction();
    QWidget* button = tools->widgetForAction(compare);
    ASSERT_NE(button, nullptr);
    EXPECT_EQ(button->focusPolicy(), Qt::TabFocus);

    ps::ui::LessonsWindow lessons(QString(), /*prewarm=*/false);
    lessons.showAndRaise();
    ASSERT_TRUE(QTest::qWaitForWindowExposed(&lessons));
    lessons.activateWindow();
    QTest::keyClick(&lessons, Qt::Key_Escape);
    EXPECT_TRUE(waitFor([&]() { return !lessons.isVisible(); }, 2000)) << "Escape left Lessons open";
}

TEST_F(UiKeyboard, CtrlFFindsInThePaneThatHasTheFocus)
{
    auto* graph = showGraph();
    auto* canvas = graph->canvas();
    QTest::mouseClick(canvas->viewport(), Qt::LeftButton, {}, QPoint(5, 5));
    ASSERT_TRUE(waitFor([&]() { return canvas->hasFocus(); }, 2000)) << "a click on the graph takes the focus";
    press(Qt::Key_F, Qt::ControlModifier);
    EXPECT_TRUE(graph->isAncestorOf(QApplication::focusWidget()));
    EXPECT_TRUE(qobject_cast<QLineEdit*>(QApplication::focusWidget()) != nullptr);

    QTreeView* list = window->libraryView()->view();
    QTest::mouseClick(list->viewport(), Qt::LeftButton, {}, list->visualRect(list->model()->index(0, 1)).center());
    ASSERT_TRUE(waitFor([&]() { return list->hasFocus(); }, 2000));
    press(Qt::Key_F, Qt::ControlModifier);
    EXPECT_TRUE(window->libraryView()->isAncestorOf(QApplication::focusWidget()));
    EXPECT_TRUE(qobject_cast<QLineEdit*>(QApplication::focusWidget()) != nullptr);

    ASSERT_NO_FATAL_FAILURE(focusEditor());
    press(Qt::Key_F, Qt::ControlModifier);
    EXPECT_FALSE(window->libraryView()->isAncestorOf(QApplication::focusWidget()));
    EXPECT_FALSE(window->report()->isAncestorOf(QApplication::focusWidget()));
}

TEST_F(UiKeyboard, AltOneFocusesTheGraphAndTabLeadsFromItsSearchToTheCanvas)
{
    auto* graph = showGraph();
    ASSERT_NO_FATAL_FAILURE(focusEditor());
    window->report()->tabs()->setCurrentIndex(ps::ui::ReportView::SourceTab);
    press(Qt::Key_1, Qt::AltModifier);
    EXPECT_EQ(window->report()->tabs()->currentIndex(), int(ps::ui::ReportView::GraphTab));
    EXPECT_EQ(QApplication::focusWidget(), graph->canvas());
    // The pane with the focus is marked.
    EXPECT_EQ(window->panes()->markedPane(), window->panes()->currentPane());
    EXPECT_EQ(window->panes()->paneName(window->panes()->markedPane()), "Report");
    ASSERT_NO_FATAL_FAILURE(focusEditor());
    EXPECT_EQ(window->panes()->paneName(window->panes()->markedPane()), "Editor");

    graph->focusSearch();
    ASSERT_TRUE(waitFor([&]() { return qobject_cast<QLineEdit*>(QApplication::focusWidget()) != nullptr; }, 2000));
    press(Qt::Key_Tab);
    EXPECT_EQ(QApplication::focusWidget(), graph->canvas()) << "one Tab from the search to the canvas";
}

TEST_F(UiKeyboard, KeysExpandAndCollapseTheSelectedModule)
{
    auto* graph = showGraph();
    ASSERT_FALSE(graph->isExpanded("model.layers.1"));
    // The module's box, selected; Enter opens it and selects its first node.
    int firstNode = -1;
    for (std::size_t i = 0; i < graph->graph()->nodes().size() && firstNode < 0; ++i)
        if (graph->graph()->nodes()[i].modulePath == "model.layers.1")
            firstNode = int(i);
    ASSERT_GE(firstNode, 0);
    graph->selectNodes({firstNode}, false);
    graph->canvas()->setFocus();
    for (int key : {int(Qt::Key_Return), int(Qt::Key_Plus), int(Qt::Key_Space)}) {
        graph->collapseModule("model.layers.1");
        ASSERT_TRUE(waitFor([&]() { return !graph->layoutPending(); }, 30000));
        graph->selectNodes({firstNode}, false);
        press(key);
        ASSERT_TRUE(waitFor([&]() { return !graph->layoutPending(); }, 30000));
        EXPECT_TRUE(graph->isExpanded("model.layers.1")) << key;
        EXPECT_EQ(graph->selectedNodes(), QList<int>{firstNode}) << key;
    }
    // - closes it again around the selected node.
    press(Qt::Key_Minus);
    ASSERT_TRUE(waitFor([&]() { return !graph->layoutPending(); }, 30000));
    EXPECT_FALSE(graph->isExpanded("model.layers.1"));
}

}  // namespace
