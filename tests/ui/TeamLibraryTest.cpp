// The window on a team library (PostgreSQL, the suite's own server): opened from --library, its
// runs marked when others stored them; a run made while the server is away is kept in the local
// library, and Push Kept Runs sends it when the server is back, exactly once.
// PS_SHOT_DIR=DIR saves the window after the push (team_library_pushed.png).
#include "UiTestSupport.h"

#include "TestPostgresServer.h"

#include "ui/common/NoticeBar.h"
#include "ui/library/LibraryActions.h"
#include "ui/library/LibraryView.h"
#include "ui/library/RunStore.h"
#include "ui/window/MainWindow.h"

#include "library/core/ArtifactLibrary.h"

#include <QAbstractButton>
#include <QAction>
#include <QDockWidget>
#include <QLabel>
#include <QLineEdit>
#include <QSettings>
#include <QSignalSpy>
#include <QTest>

#include <gtest/gtest.h>

#include <memory>

using namespace ps::uitest;
using ps::test::TestPostgresServer;

namespace {

class UiTeamLibrary : public ::testing::Test {
protected:
    static void SetUpTestSuite() { server = std::make_unique<TestPostgresServer>(); }
    static void TearDownTestSuite() { server.reset(); }
    void SetUp() override
    {
        QSettings().clear();
        ASSERT_EQ(server->problem(), "");
        if (!server->running())
            server->start();
        database = std::string("ui_") + ::testing::UnitTest::GetInstance()->current_test_info()->name();
        for (char& c : database)
            c = static_cast<char>(std::tolower(static_cast<unsigned char>(c)));
        server->createDatabase(database);
        server->createRole(database + "_bob", database, TestPostgresServer::Access::Owner);
        team = server->connectionString(database, database + "_bob");
        // The local library, where runs wait while the team library is away.
        qputenv("XDG_DATA_HOME", dir.path().toUtf8());
    }
    void TearDown() override { qunsetenv("XDG_DATA_HOME"); }

    ps::ui::MainWindowOptions options() const
    {
        auto o = windowOptions(dir, false);
        o.libraryPath = QString::fromStdString(team);
        return o;
    }

    static std::unique_ptr<TestPostgresServer> server;
    std::string database, team;
    TempDir dir;
};

std::unique_ptr<TestPostgresServer> UiTeamLibrary::server;

TEST_F(UiTeamLibrary, OpensFromTheCommandLineAndMarksOthersRuns)
{
    {
        // Alice's run, copied in from her laptop with who stored it (as `library copy` keeps it).
        ps::library::ArtifactLibrary alice(team);
        ps::library::NewRun run;
        run.report = {
            {"schema", 1}, {"status", "ok"}, {"script", "/home/alice/mlp.py"}, {"captures", nlohmann::json::array()}};
        run.storedBy = ps::library::Identity{"", "alice"};
        alice.insert(run);
    }
    ps::ui::MainWindow window(options());
    ASSERT_TRUE(window.store()->isOpen()) << window.store()->error().toStdString();
    auto* lib = window.libraryView();
    ASSERT_EQ(lib->rowCount(), 1);
    EXPECT_TRUE(lib->isColumnShown(ps::ui::LibraryView::ByColumn));
    // The dock names the team library without anything secret, not as a file.
    const QString title = window.findChild<QDockWidget*>("libraryDock")->windowTitle();
    EXPECT_TRUE(title.contains(QString::fromStdString(database))) << title.toStdString();
}

TEST_F(UiTeamLibrary, ARunWhileTheServerIsAwayIsKeptAndPushedOnceWhenItIsBack)
{
    const QString script = dir.write("tiny.py", tinyScript());
    ps::ui::MainWindow window(options());
    ASSERT_TRUE(window.store()->isOpen()) << window.store()->error().toStdString();
    ASSERT_TRUE(window.openPath(script));
    server->stop();
    const auto run = runAndWait(window);
    ASSERT_TRUE(run);
    EXPECT_EQ(run->report.status, ps::model::RunStatus::Ok) << run->report.message;
    EXPECT_EQ(run->report.verdict(), ps::model::RunVerdict::NotStored);
    const QString notice = window.notice()->text();
    EXPECT_TRUE(notice.contains("kept in")) << notice.toStdString();
    EXPECT_TRUE(window.notice()->actionLabels().contains("Push Kept Runs")) << notice.toStdString();
    EXPECT_EQ(ps::ui::RunStore::keptRunCount(ps::ui::RunStore::defaultPath()), 1);

    // Pushing while it is still away keeps the run, and says so.
    QSignalSpy first(&window, &ps::ui::MainWindow::keptRunsPushed);
    ASSERT_TRUE(window.notice()->trigger("Push Kept Runs"));
    ASSERT_TRUE(first.wait(30000));
    EXPECT_TRUE(window.notice()->text().contains("still cannot be reached")) << window.notice()->text().toStdString();
    EXPECT_EQ(ps::ui::RunStore::keptRunCount(ps::ui::RunStore::defaultPath()), 1);

    server->start();
    QSignalSpy pushed(&window, &ps::ui::MainWindow::keptRunsPushed);
    ASSERT_TRUE(window.pushKeptRunsAction()->isEnabled());
    window.pushKeptRunsAction()->trigger();
    ASSERT_TRUE(pushed.wait(30000));
    EXPECT_TRUE(window.notice()->text().contains("Pushed 1 kept run")) << window.notice()->text().toStdString();
    EXPECT_EQ(ps::ui::RunStore::keptRunCount(ps::ui::RunStore::defaultPath()), 0);
    EXPECT_EQ(server->exec("SELECT count(*) FROM runs", database).at(0).at(0), "1");
    window.pushKeptRunsAction()->trigger();  // again: nothing twice
    ASSERT_TRUE(pushed.wait(30000));
    EXPECT_EQ(server->exec("SELECT count(*) FROM runs", database).at(0).at(0), "1");
    // The dock, on the team library again, lists it, as one's own run.
    EXPECT_EQ(window.libraryView()->rowCount(), 1);
    EXPECT_FALSE(window.libraryView()->isColumnShown(ps::ui::LibraryView::ByColumn));
    if (const QString shots = qEnvironmentVariable("PS_SHOT_DIR"); !shots.isEmpty()) {
        window.resize(1280, 800);
        window.show();
        ps::uitest::savePicture(window, shots + "/team_library_pushed.png");
    }
}

/// Every text a person can see on the window and its children: titles, tooltips, status tips,
/// labels, fields, buttons, actions, the notice.
QStringList everyShownText(QWidget& window)
{
    QStringList texts;
    QList<QWidget*> widgets = window.findChildren<QWidget*>();
    widgets.prepend(&window);
    for (QWidget* w : widgets) {
        texts << w->windowTitle() << w->toolTip() << w->statusTip() << w->accessibleName();
        if (auto* label = qobject_cast<QLabel*>(w))
            texts << label->text();
        if (auto* field = qobject_cast<QLineEdit*>(w))
            texts << field->text() << field->placeholderText();
        if (auto* button = qobject_cast<QAbstractButton*>(w))
            texts << button->text();
        for (QAction* action : w->actions())
            texts << action->text() << action->toolTip() << action->statusTip();
    }
    return texts;
}

TEST_F(UiTeamLibrary, APasswordInTheLocationIsNeverShownOrKept)
{
    const QString secret = QStringLiteral("S3cretPw-in-the-uri");
    QString withPassword = QString::fromStdString(team);
    withPassword.insert(withPassword.indexOf('@'), ":" + secret);
    const QString unreachable = "postgresql://bob:" + secret + "@127.0.0.1:1/lab?connect_timeout=5";
    for (const QString& location : {withPassword, unreachable}) {
        QSettings().clear();
        auto o = windowOptions(dir, false);
        o.libraryPath = location;
        ps::ui::MainWindow window(o);
        EXPECT_EQ(window.store()->isOpen(), location == withPassword) << window.store()->error().toStdString();
        if (window.store()->isOpen()) {
            // A run stored there, so its notices and rows are on the window too; and the
            // location is remembered as a setting without its password.
            ASSERT_TRUE(window.openLibrary(location));
            ASSERT_TRUE(window.openPath(dir.write("tiny.py", tinyScript())));
            const auto run = runAndWait(window);
            ASSERT_TRUE(run);
            EXPECT_EQ(run->report.verdict(), ps::model::RunVerdict::Ok) << run->report.message;
            const QString kept = QSettings().value(QStringLiteral("library/path")).toString();
            EXPECT_FALSE(kept.isEmpty());
            EXPECT_FALSE(kept.contains(secret)) << kept.toStdString();
            EXPECT_FALSE(kept.contains("***")) << kept.toStdString();
        }
        int masked = 0;
        for (const QString& text : everyShownText(window)) {
            EXPECT_FALSE(text.contains(secret)) << text.toStdString();
            masked += text.contains("***") ? 1 : 0;
        }
        if (location == unreachable) {
            EXPECT_GT(masked, 0) << "the unreachable location is named, masked";
        }
    }
}

TEST_F(UiTeamLibrary, SomeoneElsesScriptDoesNotRunHereUntilYouTrustTheRun)
{
    qint64 id = 0;
    {
        // Alice's run, with its script: on bob's machine it is alice's code.
        ps::library::ArtifactLibrary alice(team);
        ps::library::NewRun run;
        run.report = {
            {"schema", 1}, {"status", "ok"}, {"script", "/home/alice/tiny.py"}, {"captures", nlohmann::json::array()}};
        run.scriptText = tinyScript().toStdString();
        run.storedBy = ps::library::Identity{"", "alice"};
        id = alice.insert(run);
    }
    ps::ui::MainWindow window(options());
    ASSERT_TRUE(window.store()->isOpen()) << window.store()->error().toStdString();
    auto* lib = window.libraryView();
    ASSERT_EQ(lib->rowCount(), 1);
    ASSERT_FALSE(lib->run(id)->trusted);
    EXPECT_TRUE(lib->run(id)->untrustedBecause.contains("stored by alice"))
        << lib->run(id)->untrustedBecause.toStdString();
    ASSERT_TRUE(lib->actions()->openScript(id));

    // Run refuses it, saying whose it is and what to do; nothing ran.
    QSignalSpy finished(&window, &ps::ui::MainWindow::runFinished);
    window.runAction()->trigger();
    const QString notice = window.notice()->text();
    EXPECT_TRUE(notice.contains("Not run: this is the script of run #" + QString::number(id))) << notice.toStdString();
    EXPECT_TRUE(notice.contains("stored by alice")) << notice.toStdString();
    QTest::qWait(200);
    EXPECT_EQ(finished.count(), 0);

    // Trusted (for bob alone, in bob's own list): the same copy runs.
    ps::ui::LibraryActions::Prompts yes;
    yes.confirm = [](QWidget*, const QString&, const QString&) { return true; };
    lib->actions()->setPrompts(yes);
    lib->selectRun(id);
    ASSERT_TRUE(lib->actions()->trustAction()->isEnabled());
    lib->actions()->trustAction()->trigger();
    EXPECT_TRUE(lib->run(id)->trusted);
    const auto run = runAndWait(window);
    ASSERT_TRUE(run);
    EXPECT_EQ(run->report.status, ps::model::RunStatus::Ok) << run->report.message;
}

}  // namespace
