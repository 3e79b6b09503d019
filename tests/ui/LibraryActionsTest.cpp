// The library dock's actions over a real library file in a temporary folder: columns, the
// details line, the context menu, export, import, trust, delete and opening a run's script.
#include "UiTestSupport.h"

#include "ui/editor/ScriptEditor.h"
#include "ui/library/LibraryActions.h"
#include "ui/library/LibraryView.h"
#include "ui/library/RunStore.h"
#include "ui/report/ReportView.h"

#include <QAction>
#include <QApplication>
#include <QDir>
#include <QDockWidget>
#include <QFile>
#include <QFileDialog>
#include <QFileInfo>
#include <QHeaderView>
#include <QLabel>
#include <QMenu>
#include <QSettings>
#include <QStyle>
#include <QTest>
#include <QTimer>
#include <QToolBar>
#include <QTreeView>

#include <gtest/gtest.h>

using namespace ps::uitest;
using ps::ui::LibraryView;

namespace {

std::string readWhole(const QString& path)
{
    QFile f(path);
    return f.open(QIODevice::ReadOnly) ? f.readAll().toStdString() : std::string();
}

class UiLibraryActions : public ::testing::Test {
protected:
    void SetUp() override
    {
        QSettings().clear();
        ps::ui::RunStore store(dir.file("library.sqlite3"));
        ASSERT_TRUE(store.isOpen()) << store.error().toStdString();
        QString error;
        script = dir.write("alpha.py", "x = 1\n");
        const std::string s = script.toStdString();
        for (const auto& [name, status] : std::vector<std::pair<std::string, std::string>>{
                 {"alpha", "ok"}, {"bravo", "violation"}, {"charlie", "ok"}}) {
            auto run = syntheticRun(s, syntheticGraph(12, s, 1), status, name);
            run.scriptText = "x = 1\n";
            if (name == "charlie") {  // real bytes: an import checks the cache's code_hash
                run.artifacts[0].pythonCode = readWhole(sourcePath("tests/library/fixtures/sin_plus_one.py"));
                run.artifacts[0].cache = readWhole(sourcePath("tests/library/fixtures/sin_plus_one.cache"));
            }
            const qint64 id = store.insert(run, &error);
            ASSERT_GT(id, 0) << error.toStdString();
            ids.push_back(id);
        }
    }

    /// A window on the library, shown, its dock at the width it opens with.
    std::unique_ptr<ps::ui::MainWindow> window()
    {
        auto w = std::make_unique<ps::ui::MainWindow>(windowOptions(dir, false));
        w->resize(1280, 800);
        w->show();
        EXPECT_TRUE(QTest::qWaitForWindowExposed(w.get()));
        return w;
    }

    /// Prompts that answer without a dialog; `asked` counts the confirmations asked for.
    ps::ui::LibraryActions::Prompts prompts(const QString& folder, const QString& file, bool yes)
    {
        ps::ui::LibraryActions::Prompts p;
        p.exportFolder = [folder](QWidget*) { return folder; };
        p.importFile = [file](QWidget*) { return file; };
        p.confirm = [this, yes](QWidget*, const QString&, const QString& text) {
            lastQuestion = text;
            ++asked;
            return yes;
        };
        p.showFolder = [this](const QString& f) {
            shownFolder = f;
            return true;
        };
        return p;
    }

    static int rowOf(const LibraryView* lib, qint64 id)
    {
        for (int r = 0; r < lib->rowCount(); ++r)
            if (lib->runIdAt(r) == id)
                return r;
        return -1;
    }

    static void click(LibraryView* lib, qint64 id)
    {
        QTreeView* view = lib->view();
        const QRect rect = view->visualRect(view->model()->index(rowOf(lib, id), LibraryView::NameColumn));
        ASSERT_TRUE(rect.isValid());
        QTest::mouseClick(view->viewport(), Qt::LeftButton, {}, rect.center());
    }

    TempDir dir;
    QString script;
    std::vector<qint64> ids;
    int asked = 0;
    QString lastQuestion;
    QString shownFolder;
};

TEST_F(UiLibraryActions, OutcomeNameBackendAndTimeFitTheDockAndTheHeaderShowsTheRest)
{
    // The dock at its narrowest (ui/WorkbenchLayout: 230 px on the left of a wide window).
    ps::ui::RunStore store(dir.file("library.sqlite3"));
    LibraryView standalone;
    standalone.resize(230, 500);
    standalone.setStore(&store);
    standalone.show();
    ASSERT_TRUE(QTest::qWaitForWindowExposed(&standalone));
    const auto w = window();
    for (LibraryView* lib : {&standalone, w->libraryView()}) {
        ASSERT_EQ(lib->rowCount(), 3);
        for (auto c :
            {LibraryView::OutcomeColumn, LibraryView::NameColumn, LibraryView::BackendColumn, LibraryView::TimeColumn})
            EXPECT_TRUE(lib->isColumnShown(c)) << c;
        for (auto c :
            {LibraryView::StatusColumn, LibraryView::MessageColumn, LibraryView::IdColumn, LibraryView::ScriptColumn})
            EXPECT_FALSE(lib->isColumnShown(c)) << c;
        // The four columns are all in view, none squeezed to nothing; the name is readable.
        QHeaderView* header = lib->view()->header();
        const int viewport = lib->view()->viewport()->width();
        for (int c = LibraryView::OutcomeColumn; c <= LibraryView::TimeColumn; ++c) {
            EXPECT_GE(header->sectionSize(c), 18) << c;
            EXPECT_LE(header->sectionPosition(c) + header->sectionSize(c), viewport + 1)
                << c << " ends at " << header->sectionPosition(c) + header->sectionSize(c) << " of " << viewport
                << "; widths " << header->sectionSize(0) << " " << header->sectionSize(1) << " "
                << header->sectionSize(2) << " " << header->sectionSize(3);
        }
        EXPECT_GE(header->sectionSize(LibraryView::NameColumn), 48);
        EXPECT_EQ(header->sectionResizeMode(LibraryView::NameColumn), QHeaderView::Interactive);
    }
    LibraryView* lib = &standalone;
    QHeaderView* header = lib->view()->header();

    // The header's context menu shows the hidden columns.
    emit header->customContextMenuRequested(QPoint(10, 5));
    QMenu* menu = nullptr;
    ASSERT_TRUE(waitFor(
        [&]() {
            for (QWidget* top : QApplication::topLevelWidgets())
                if (auto* m = qobject_cast<QMenu*>(top); m && m->isVisible())
                    menu = m;
            return menu != nullptr;
        },
        2000));
    QAction* message = nullptr;
    for (QAction* a : menu->actions())
        if (a->text() == "Message")
            message = a;
    ASSERT_NE(message, nullptr);
    EXPECT_FALSE(message->isChecked());
    message->trigger();
    EXPECT_TRUE(lib->isColumnShown(LibraryView::MessageColumn));
    menu->close();
}

TEST_F(UiLibraryActions, ASingleClickShowsTheDetailsLine)
{
    auto w = window();
    LibraryView* lib = w->libraryView();
    EXPECT_EQ(lib->details(), "");
    click(lib, ids[0]);
    const QString details = lib->details();
    EXPECT_TRUE(details.contains(QString("run #%1 alpha: ok").arg(ids[0]))) << details.toStdString();
    for (const char* part : {"alpha.py", "eager", "1 capture", "stored 20", "trusted"})
        EXPECT_TRUE(details.contains(part)) << part << " in " << details.toStdString();
    // On one line (cut with "…" where the dock is narrow), the whole of it in the tooltip.
    bool shown = false;
    for (const QLabel* label : lib->findChildren<QLabel*>())
        shown |= label->isVisible() && label->toolTip() == QString(details).replace('\n', " · ")
            && !label->text().contains('\n');
    EXPECT_TRUE(shown);
    click(lib, ids[1]);
    // Every synthetic run is named after its script (alpha.py); this one is the violation.
    EXPECT_TRUE(lib->details().contains(QString("run #%1 alpha: violation").arg(ids[1])))
        << lib->details().toStdString();
    EXPECT_TRUE(lib->details().contains("0 bytes"))
        << lib->details().toStdString();  // a violation keeps none  // a violation keeps no bytes
}

// In a 1280x800 window the library sits at the bottom beside the log: its rows, not its tools,
// get the height (it showed three or four).
TEST_F(UiLibraryActions, At1280TheLibraryShowsItsRows)
{
    auto w = window();
    LibraryView* lib = w->libraryView();
    click(lib, ids[1]);  // a run selected: its details shown too
    QApplication::processEvents();
    if (const QString shots = qEnvironmentVariable("PS_SHOT_DIR"); !shots.isEmpty())
        w->grab().save(shots + "/library_1280.png");
    QTreeView* view = lib->view();
    ASSERT_GT(lib->rowCount(), 0);
    const int rowHeight = view->visualRect(view->model()->index(0, 0)).height();
    ASSERT_GT(rowHeight, 0);
    EXPECT_GE(view->viewport()->height() / rowHeight, 6) << "the library shows only a few rows";
}

TEST_F(UiLibraryActions, TheContextMenuOffersTheActionsForTheRowUnderTheMouse)
{
    auto w = window();
    LibraryView* lib = w->libraryView();
    QTreeView* view = lib->view();
    const QRect rect = view->visualRect(view->model()->index(rowOf(lib, ids[2]), LibraryView::NameColumn));
    QMenu* menu = lib->popupContextMenu(rect.center());
    ASSERT_NE(menu, nullptr);
    EXPECT_EQ(lib->selectedRuns(), QList<qint64>{ids[2]});
    QStringList texts;
    for (QAction* a : menu->actions())
        if (!a->isSeparator())
            texts << a->text().remove('&');
    EXPECT_EQ(texts.join(", ").toStdString(),
        "Open Run, Open Script in Editor, Show Script Folder, Compare Two Runs, Compare with Current Run, Export…, "
        "Check On…, Make Repro…, Trust, Delete…");
    EXPECT_FALSE(lib->actions()->compareAction()->isEnabled());  // one run selected
    EXPECT_TRUE(lib->actions()->exportAction()->isEnabled());
    EXPECT_TRUE(lib->actions()->checkOnAction()->isEnabled());
    EXPECT_TRUE(lib->actions()->makeReproAction()->isEnabled());
    EXPECT_TRUE(lib->actions()->deleteAction()->isEnabled());
    EXPECT_FALSE(lib->actions()->trustAction()->isEnabled());  // a run of ours is trusted
    menu->close();
    // On a row at the screen's bottom the menu opens upwards, whole, from the click.
    const QRect screen = lib->screen()->availableGeometry();
    const QPoint bottomLeft = view->viewport()->mapToGlobal(rect.center());
    const QPoint nearBottom(rect.center().x(), rect.center().y() + (screen.bottom() - 4 - bottomLeft.y()));
    QMenu* low = lib->popupContextMenu(nearBottom);
    ASSERT_NE(low, nullptr);
    ASSERT_TRUE(waitFor([&]() { return low->isVisible(); }, 5000));
    EXPECT_LE(low->geometry().bottom(), screen.bottom() - 3);
    EXPECT_LE(low->geometry().bottom(), view->viewport()->mapToGlobal(nearBottom).y() + 1) << "opens upwards";
    EXPECT_GE(low->geometry().top(), screen.top());
    low->close();
    // The toolbar carries the same actions.
    EXPECT_TRUE(lib->toolBar()->actions().contains(lib->actions()->exportAction()));
    EXPECT_TRUE(lib->toolBar()->actions().contains(lib->actions()->importAction()));
    EXPECT_TRUE(lib->toolBar()->actions().contains(lib->actions()->compareAction()));
}

TEST_F(UiLibraryActions, ExportImportAndTrustRoundTripAsTheCliDoes)
{
    auto w = window();
    LibraryView* lib = w->libraryView();
    const QString out = dir.file("exported");
    lib->actions()->setPrompts(prompts(out, out + "/alpha.py", true));
    lib->selectRun(ids[2]);
    lib->actions()->exportAction()->trigger();
    EXPECT_FALSE(lib->messageIsError()) << lib->message().toStdString();
    // Named as the row is (alpha), not as its capture (charlie).
    for (const char* ext : {".py", ".cache", ".json"})
        EXPECT_TRUE(QFileInfo::exists(out + "/alpha" + ext)) << ext;
    EXPECT_TRUE(lib->message().contains("alpha.py")) << lib->message().toStdString();

    lib->actions()->importAction()->trigger();
    ASSERT_FALSE(lib->messageIsError()) << lib->message().toStdString();
    ASSERT_EQ(lib->rowCount(), 4);
    const QList<qint64> selected = lib->selectedRuns();
    ASSERT_EQ(selected.size(), 1);
    const qint64 imported = selected.front();
    EXPECT_FALSE(lib->run(imported)->trusted);
    EXPECT_TRUE(lib->details().contains("imported · not trusted: imported")) << lib->details().toStdString();
    ASSERT_TRUE(lib->actions()->trustAction()->isEnabled());
    lib->actions()->trustAction()->trigger();
    EXPECT_EQ(asked, 1);
    EXPECT_TRUE(lastQuestion.contains("executable"));
    EXPECT_TRUE(lib->run(imported)->trusted);
    EXPECT_TRUE(lib->details().contains("imported · trusted")) << lib->details().toStdString();
    EXPECT_FALSE(lib->actions()->trustAction()->isEnabled());
}

TEST_F(UiLibraryActions, FailuresAreOneLineAndChangeNothing)
{
    auto w = window();
    LibraryView* lib = w->libraryView();
    const QString junk = dir.write("junk.py", "print('not an export')\n");
    lib->actions()->setPrompts(prompts(dir.file("out"), junk, true));
    lib->selectRun(ids[1]);  // a violation: nothing to export
    lib->actions()->exportAction()->trigger();
    EXPECT_TRUE(lib->messageIsError());
    EXPECT_TRUE(lib->message().startsWith(QString("Run #%1 was not exported: ").arg(ids[1])))
        << lib->message().toStdString();
    EXPECT_FALSE(lib->message().contains('\n'));
    EXPECT_FALSE(QFileInfo::exists(dir.file("out/bravo.py")));

    lib->actions()->importAction()->trigger();
    EXPECT_TRUE(lib->messageIsError());
    EXPECT_TRUE(lib->message().startsWith("junk.py was not imported: ")) << lib->message().toStdString();
    EXPECT_FALSE(lib->message().contains('\n'));
    EXPECT_EQ(lib->rowCount(), 3);

    QString error;
    EXPECT_FALSE(w->store()->trust(999999, &error));
    EXPECT_FALSE(error.isEmpty());
    EXPECT_FALSE(lib->actions()->removeRuns({999999}));
    EXPECT_TRUE(lib->message().startsWith("Run #999999 was not deleted: ")) << lib->message().toStdString();
    EXPECT_EQ(lib->rowCount(), 3);
}

TEST_F(UiLibraryActions, DeleteAsksFirstAndRemovesOnlyTheSelectedRuns)
{
    auto w = window();
    LibraryView* lib = w->libraryView();
    lib->actions()->setPrompts(prompts(QString(), QString(), false));
    lib->selectRun(ids[0]);
    lib->actions()->deleteAction()->trigger();
    EXPECT_EQ(asked, 1);
    EXPECT_TRUE(lastQuestion.contains(QString("run #%1 (alpha)").arg(ids[0]))) << lastQuestion.toStdString();
    EXPECT_EQ(lib->rowCount(), 3);  // said no

    lib->actions()->setPrompts(prompts(QString(), QString(), true));
    // Two runs at once, by the Delete key in the list.
    lib->selectRun(ids[0]);
    lib->view()->selectionModel()->select(
        lib->view()->model()->index(rowOf(lib, ids[1]), 0), QItemSelectionModel::Select | QItemSelectionModel::Rows);
    ASSERT_EQ(lib->selectedRuns().size(), 2);
    w->activateWindow();
    lib->view()->setFocus();
    QTest::keyClick(lib->view(), Qt::Key_Delete);
    EXPECT_EQ(asked, 2);
    EXPECT_TRUE(lastQuestion.contains("2 runs")) << lastQuestion.toStdString();
    ASSERT_EQ(lib->rowCount(), 1);
    EXPECT_EQ(lib->runIdAt(0), ids[2]);
    EXPECT_FALSE(lib->messageIsError());
    EXPECT_TRUE(lib->message().contains("gc")) << lib->message().toStdString();
    // A fresh look at the file agrees.
    ps::ui::RunStore again(dir.file("library.sqlite3"));
    QString error;
    EXPECT_EQ(again.list("", std::nullopt, &error).size(), 1u);
}

TEST_F(UiLibraryActions, OpenScriptShowsTheFileOrTheTextTheRunRan)
{
    auto w = window();
    LibraryView* lib = w->libraryView();
    lib->actions()->setPrompts(prompts(QString(), QString(), true));
    lib->selectRun(ids[0]);
    ASSERT_TRUE(lib->actions()->scriptAction()->isEnabled());
    lib->actions()->scriptAction()->trigger();
    EXPECT_EQ(QFileInfo(w->editor()->filePath()).canonicalFilePath(), QFileInfo(script).canonicalFilePath());
    lib->actions()->folderAction()->trigger();
    EXPECT_EQ(shownFolder, QFileInfo(script).absolutePath());

    // The file changed since: the script as it ran comes up as an unsaved copy.
    dir.write("alpha.py", "x = 2  # changed\n");
    w->editor()->newScript();
    lib->actions()->scriptAction()->trigger();
    EXPECT_TRUE(w->editor()->filePath().isEmpty());
    EXPECT_EQ(w->editor()->text(), "x = 1\n");
    EXPECT_TRUE(lib->message().contains("has changed since")) << lib->message().toStdString();

    // Gone: the same, and Show Script Folder is off.
    QFile::remove(script);
    lib->reload();
    EXPECT_FALSE(lib->actions()->folderAction()->isEnabled());
    lib->actions()->scriptAction()->trigger();
    EXPECT_EQ(w->editor()->text(), "x = 1\n");
    EXPECT_TRUE(lib->message().contains("is gone")) << lib->message().toStdString();
}

}  // namespace

namespace {

/// How many rows of the list can be seen whole.
int rowsInView(LibraryView* lib)
{
    QTreeView* view = lib->view();
    const int row = view->visualRect(view->model()->index(0, LibraryView::NameColumn)).height();
    return row > 0 ? view->viewport()->height() / row : 0;
}

}  // namespace

TEST_F(UiLibraryActions, AnExportMessageIsOneLineAndTheListKeepsItsRows)
{
    auto w = window();
    LibraryView* lib = w->libraryView();
    ASSERT_TRUE(waitForSettled([&]() { return rowsInView(lib); }, 5000));
    const int before = rowsInView(lib);
    ASSERT_GE(before, 3);
    const QString out = dir.file("a folder with a long name, as exports often have/and another one below it");
    lib->actions()->setPrompts(prompts(out, QString(), true));
    lib->selectRun(ids[2]);
    lib->actions()->exportAction()->trigger();
    ASSERT_FALSE(lib->messageIsError()) << lib->message().toStdString();
    ASSERT_TRUE(waitForSettled([&]() { return rowsInView(lib); }, 5000));
    auto* message = lib->findChild<QLabel*>("libraryMessage");
    ASSERT_NE(message, nullptr);
    EXPECT_LE(message->height(), message->fontMetrics().lineSpacing() * 3 / 2 + 2 * message->margin() + 4);
    EXPECT_EQ(message->toolTip(), lib->message());  // the whole text is a hover away
    // At 1280x800 the dock is a strip under the editor: the details line and the message
    // together may cost it three rows, not all but one.
    EXPECT_GE(rowsInView(lib), 3) << "from " << before;
}

TEST_F(UiLibraryActions, ImportStartsInTheFolderJustExportedTo)
{
    auto w = window();
    LibraryView* lib = w->libraryView();
    // Export is not drawn as Save (the window's Save is the floppy).
    const QImage save = lib->style()->standardIcon(QStyle::SP_DialogSaveButton).pixmap(16).toImage();
    EXPECT_NE(lib->actions()->exportAction()->icon().pixmap(16).toImage(), save);
    const QString out = dir.file("exported");
    ASSERT_TRUE(lib->actions()->exportRun(ids[2], out));
    QString startedIn;
    QTimer::singleShot(0, [&]() {
        waitFor([]() { return qobject_cast<QFileDialog*>(QApplication::activeModalWidget()) != nullptr; }, 5000);
        if (auto* dialog = qobject_cast<QFileDialog*>(QApplication::activeModalWidget())) {
            startedIn = dialog->directory().absolutePath();
            dialog->reject();
        }
    });
    lib->actions()->importAction()->trigger();
    EXPECT_EQ(startedIn, QDir(out).absolutePath());
}

TEST_F(UiLibraryActions, ADeletedRunOnScreenSaysItIsGone)
{
    auto w = window();
    LibraryView* lib = w->libraryView();
    ASSERT_TRUE(w->openStoredRun(ids[0]));
    ASSERT_EQ(w->report()->staleReason(), QString());
    ASSERT_TRUE(lib->actions()->removeRuns({ids[1]}));
    EXPECT_EQ(w->report()->staleReason(), QString()) << "another run went";
    ASSERT_TRUE(lib->actions()->removeRuns({ids[0]}));
    EXPECT_TRUE(w->report()->staleReason().contains(QString("Run #%1 was deleted from the library").arg(ids[0])))
        << w->report()->staleReason().toStdString();
    // Another run shown: the note goes with the deleted one.
    ASSERT_TRUE(w->openStoredRun(ids[2]));
    EXPECT_EQ(w->report()->staleReason(), QString());
}
