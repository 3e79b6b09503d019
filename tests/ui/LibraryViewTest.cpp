// The library dock over a real library file: list, search, filter, sort, open a past run; a
// read-only library is browsed, its writing actions off.
#include "UiTestSupport.h"

#include "ui/editor/ScriptEditor.h"

#include "ui/compare/CompareView.h"

#include "ui/common/NoticeBar.h"
#include "ui/graph/GraphView.h"
#include "ui/library/LibraryActions.h"
#include "ui/library/LibraryView.h"
#include "ui/library/RunStore.h"
#include "ui/report/ReportView.h"
#include "ui/report/SourceView.h"
#include "ui/report/ViolationsView.h"

#include "library/core/ArtifactLibrary.h"

#include <QAction>
#include <QFont>
#include <QLabel>
#include <QSettings>
#include <QTabWidget>
#include <QTest>
#include <QTreeView>

#include <gtest/gtest.h>

#include <sys/stat.h>

using namespace ps::uitest;

namespace {

class UiLibrary : public ::testing::Test {
protected:
    void SetUp() override
    {
        QSettings().clear();
        ps::ui::RunStore store(dir.file("library.sqlite3"));
        ASSERT_TRUE(store.isOpen()) << store.error().toStdString();
        QString error;
        const std::string s = dir.write("alpha.py", "x = 1\n").toStdString();
        for (const auto& [name, status] : std::vector<std::pair<std::string, std::string>>{
                 {"alpha", "ok"}, {"bravo", "violation"}, {"charlie", "ok"}}) {
            const qint64 id = store.insert(syntheticRun(s, syntheticGraph(40, s, 1), status, name), &error);
            ASSERT_GT(id, 0) << error.toStdString();
            ids.push_back(id);
        }
    }
    TempDir dir;
    std::vector<qint64> ids;
};

TEST_F(UiLibrary, ListsSearchesFiltersAndSorts)
{
    ps::ui::MainWindow window(windowOptions(dir, false));
    auto* lib = window.libraryView();
    ASSERT_EQ(lib->rowCount(), 3);
    EXPECT_EQ(lib->runIdAt(0), ids[2]);  // newest first
    lib->setStatusFilter(ps::model::RunStatus::Violation);
    ASSERT_EQ(lib->rowCount(), 1);
    EXPECT_EQ(lib->runIdAt(0), ids[1]);
    lib->setStatusFilter(std::nullopt);
    lib->setSearch("charlie");
    ASSERT_EQ(lib->rowCount(), 1);
    EXPECT_EQ(lib->runIdAt(0), ids[2]);
    lib->setSearch("synthetic violation");
    ASSERT_EQ(lib->rowCount(), 1);
    lib->setSearch("");
    lib->sortBy("status", Qt::AscendingOrder);
    EXPECT_EQ(lib->statusAt(0), "violation");
    lib->sortBy("time", Qt::AscendingOrder);
    EXPECT_EQ(lib->runIdAt(0), ids[0]);
}

TEST_F(UiLibrary, AnEmptyListSaysWhatTheLibraryIsForOrThatNothingMatches)
{
    ps::ui::RunStore empty(dir.file("empty.sqlite3"));
    ps::ui::LibraryView lib;
    lib.resize(400, 300);
    lib.setStore(&empty);
    lib.show();
    ASSERT_TRUE(QTest::qWaitForWindowExposed(&lib));
    auto* hint = lib.findChild<QLabel*>("libraryEmptyHint");
    ASSERT_NE(hint, nullptr);
    EXPECT_TRUE(hint->isVisible());
    EXPECT_TRUE(hint->text().startsWith("No runs yet")) << hint->text().toStdString();
    EXPECT_TRUE(hint->text().contains("File > Examples"));
    EXPECT_GT(hint->width(), 200);

    ps::ui::RunStore full(dir.file("library.sqlite3"));
    lib.setStore(&full);
    EXPECT_FALSE(hint->isVisible());
    lib.setSearch("no such run anywhere");
    ASSERT_EQ(lib.rowCount(), 0);
    EXPECT_TRUE(hint->isVisible());
    EXPECT_TRUE(hint->text().startsWith("No run matches")) << hint->text().toStdString();
}

TEST_F(UiLibrary, DoubleClickOpensAPastRun)
{
    ps::ui::MainWindow window(windowOptions(dir, false));
    window.show();
    ASSERT_TRUE(QTest::qWaitForWindowExposed(&window));
    bool shown = false;
    QObject::connect(&window, &ps::ui::MainWindow::runShown, [&]() { shown = true; });
    auto* view = window.libraryView()->view();
    window.libraryView()->setStatusFilter(ps::model::RunStatus::Violation);
    const QRect rect = view->visualRect(view->model()->index(0, 1));
    ASSERT_TRUE(rect.isValid());
    bool doubled = false;
    QObject::connect(view, &QTreeView::doubleClicked, [&]() { doubled = true; });
    // QAbstractItemView acts on a double click only after a press on the same row.
    QTest::mouseClick(view->viewport(), Qt::LeftButton, {}, rect.center());
    QTest::mouseDClick(view->viewport(), Qt::LeftButton, {}, rect.center());
    EXPECT_TRUE(doubled) << rect.x() << "," << rect.y() << " visible " << view->isVisible();
    ASSERT_TRUE(waitFor([&]() { return shown; }, 5000));
    EXPECT_EQ(*window.report()->run()->report.runId, ids[1]);
    EXPECT_EQ(window.report()->violationsView()->count(), 1);
    EXPECT_EQ(window.report()->violationsView()->entries().front().invariant, 1);
    EXPECT_EQ(window.report()->tabs()->currentIndex(), ps::ui::ReportView::ViolationsTab);
    EXPECT_FALSE(window.report()->sourceView()->message().isEmpty());  // a violation has no python_code
    // "Compare with Current Run": on for another run than the one shown, off for that one.
    QAction* compareCurrent = window.libraryView()->actions()->compareCurrentAction();
    window.libraryView()->setStatusFilter(std::nullopt);  // every run listed
    window.libraryView()->selectRun(ids[1]);
    EXPECT_FALSE(compareCurrent->isEnabled());
    window.libraryView()->selectRun(ids[0]);
    EXPECT_TRUE(compareCurrent->isEnabled()) << compareCurrent->toolTip().toStdString();
    // Showing the selected run turns it off (the selection did not change).
    ASSERT_TRUE(window.openStoredRun(ids[0]));
    EXPECT_FALSE(compareCurrent->isEnabled());
    window.libraryView()->selectRun(ids[1]);

    ASSERT_TRUE(window.openStoredRun(ids[0]));
    ASSERT_TRUE(waitFor([&]() { return !window.report()->graphView()->layoutPending(); }, 10000));
    EXPECT_EQ(window.report()->tabText(ps::ui::ReportView::GraphTab), "Graph (41)");
    EXPECT_FALSE(window.openStoredRun(999999));
    EXPECT_TRUE(window.notice()->text().contains("999999"));
}

// Enter with two runs selected means Compare: neither run is opened, the editor keeps its script.
TEST_F(UiLibrary, EnterOnTwoSelectedRunsComparesThemAndOpensNeither)
{
    ps::ui::MainWindow window(windowOptions(dir, false));
    window.show();
    ASSERT_TRUE(QTest::qWaitForWindowExposed(&window));
    const QString editing = window.editor()->filePath();
    const QString text = window.editor()->text();
    bool shown = false;
    QObject::connect(&window, &ps::ui::MainWindow::runShown, [&]() { shown = true; });
    auto* view = window.libraryView()->view();
    view->setFocus();
    view->selectionModel()->setCurrentIndex(
        view->model()->index(0, 0), QItemSelectionModel::ClearAndSelect | QItemSelectionModel::Rows);
    view->selectionModel()->select(view->model()->index(1, 0), QItemSelectionModel::Select | QItemSelectionModel::Rows);
    ASSERT_EQ(window.libraryView()->selectedRuns().size(), 2);
    QTest::keyClick(view, Qt::Key_Return);
    const auto compared = window.libraryView()->actions()->compareWindows();
    ASSERT_EQ(compared.size(), 1);
    EXPECT_FALSE(shown) << "Enter opened one of the two runs";
    EXPECT_EQ(window.editor()->filePath(), editing);
    EXPECT_EQ(window.editor()->text(), text);
    compared.front()->close();
}

TEST_F(UiLibrary, WhereAndByAppearWhenRunsComeFromElsewhereAndOthersRunsAreMarked)
{
    {
        ps::ui::MainWindow window(windowOptions(dir, false));
        auto* lib = window.libraryView();
        // One place, one person: the columns would say nothing.
        EXPECT_FALSE(lib->isColumnShown(ps::ui::LibraryView::WhereColumn));
        EXPECT_FALSE(lib->isColumnShown(ps::ui::LibraryView::ByColumn));
    }
    {
        // A run made on a GPU server and stored by a colleague (as `library copy` keeps it).
        ps::library::ArtifactLibrary library(dir.file("library.sqlite3").toStdString());
        ps::library::NewRun run;
        run.report = {{"schema", 1}, {"status", "ok"}, {"script", "/home/alice/model.py"},
            {"captures", nlohmann::json::array()},
            {"worker",
                {{"host", "gpu-box"}, {"hostname", "gpu-box.lab"}, {"torch", "2.14.1+cu130"},
                    {"devices", {{{"index", 0}, {"name", "NVIDIA H200"}}}}}}};
        run.storedBy = ps::library::Identity{"team_writer", "alice"};
        ids.push_back(library.insert(run));
    }
    ps::ui::MainWindow window(windowOptions(dir, false));
    auto* lib = window.libraryView();
    ASSERT_EQ(lib->rowCount(), 4);
    EXPECT_TRUE(lib->isColumnShown(ps::ui::LibraryView::WhereColumn));
    EXPECT_TRUE(lib->isColumnShown(ps::ui::LibraryView::ByColumn));
    auto* view = lib->findChild<QTreeView*>();
    ASSERT_NE(view, nullptr);
    const QAbstractItemModel* model = view->model();
    ASSERT_EQ(lib->runIdAt(0), ids.back());
    EXPECT_EQ(model->index(0, ps::ui::LibraryView::WhereColumn).data().toString(),
        QString::fromUtf8("gpu-box \u00b7 1x NVIDIA H200"));
    EXPECT_EQ(model->index(0, ps::ui::LibraryView::ByColumn).data().toString(), "alice");
    EXPECT_TRUE(model->index(0, ps::ui::LibraryView::NameColumn).data(Qt::FontRole).value<QFont>().italic());
    // One's own runs are not marked.
    EXPECT_FALSE(model->index(1, ps::ui::LibraryView::NameColumn).data(Qt::FontRole).value<QFont>().italic());
    lib->selectRun(ids.back());
    EXPECT_TRUE(lib->details().contains("by alice (role team_writer)")) << lib->details().toStdString();
    EXPECT_TRUE(lib->details().contains(QString::fromUtf8("ran on gpu-box \u00b7 1x NVIDIA H200")))
        << lib->details().toStdString();
}

TEST_F(UiLibrary, AReadOnlyLibraryIsBrowsedAndARunSaysNotStored)
{
    // The library file and its folder made read-only (chmod a-w), as on a shared or archived
    // library; put back at the end so that the folder can be removed.
    const QString script = dir.write("tiny.py", tinyScript());
    const std::string file = dir.file("library.sqlite3").toStdString(), folder = dir.path().toStdString();
    struct Restore {
        std::string file, folder;
        ~Restore()
        {
            ::chmod(folder.c_str(), 0700);
            ::chmod(file.c_str(), 0600);
        }
    } restore{file, folder};
    ASSERT_EQ(::chmod(file.c_str(), 0444), 0);
    ASSERT_EQ(::chmod(folder.c_str(), 0555), 0);
    struct stat before { };
    ASSERT_EQ(::stat(file.c_str(), &before), 0);

    ps::ui::MainWindow window(windowOptions(dir));
    window.show();
    ASSERT_TRUE(QTest::qWaitForWindowExposed(&window));
    ASSERT_TRUE(window.store()->isOpen()) << window.store()->error().toStdString();
    EXPECT_FALSE(window.store()->readOnlyReason().isEmpty());
    EXPECT_TRUE(window.libraryView()->problem().isEmpty()) << window.libraryView()->problem().toStdString();
    ASSERT_EQ(window.libraryView()->rowCount(), 3);
    EXPECT_EQ(window.libraryView()->runIdAt(0), ids[2]);
    bool saysReadOnly = false;
    for (const QLabel* label : window.libraryView()->findChildren<QLabel*>())
        saysReadOnly |= label->text().contains("(read-only)");
    EXPECT_TRUE(saysReadOnly);
    // What would write is off, and says why; export (it only reads) stays on.
    window.libraryView()->selectRun(ids[0]);
    auto* actions = window.libraryView()->actions();
    for (QAction* write : {actions->importAction(), actions->deleteAction(), actions->trustAction()}) {
        EXPECT_FALSE(write->isEnabled()) << write->text().toStdString();
        EXPECT_TRUE(write->toolTip().contains("read-only")) << write->toolTip().toStdString();
    }
    EXPECT_TRUE(actions->exportAction()->isEnabled());
    ASSERT_TRUE(window.openStoredRun(ids[0]));  // a past run opens from it too

    // A run goes through the real worker; the library refuses it, and the window says so.
    ASSERT_TRUE(window.openPath(script));
    const auto run = runAndWait(window);
    ASSERT_TRUE(run);
    EXPECT_EQ(run->report.status, ps::model::RunStatus::Ok) << run->report.message;
    EXPECT_FALSE(run->report.runId.has_value());
    ASSERT_TRUE(run->report.storeError.has_value());
    EXPECT_NE(run->report.storeError->find("read-only"), std::string::npos) << *run->report.storeError;
    EXPECT_EQ(run->report.verdict(), ps::model::RunVerdict::NotStored);
    EXPECT_TRUE(window.stageText().contains("not stored")) << window.stageText().toStdString();
    EXPECT_TRUE(window.notice()->text().contains("not stored")) << window.notice()->text().toStdString();
    EXPECT_EQ(window.libraryView()->rowCount(), 3);

    struct stat after { };
    ASSERT_EQ(::stat(file.c_str(), &after), 0);
    EXPECT_EQ(after.st_size, before.st_size);
    EXPECT_EQ(after.st_mtim.tv_sec, before.st_mtim.tv_sec);
    EXPECT_EQ(after.st_mtim.tv_nsec, before.st_mtim.tv_nsec);
}

}  // namespace
