// Run > Run On: a script runs on another host over ssh (a real sshd the test starts itself,
// TestSshServer), the window says where, the choice is remembered per folder, and a host that
// refuses the login is one line with nothing stored; Add Host's Check Host says what a run there
// would have, or why not, without blocking the window, and the dialog may close during it.
// PS_SHOT_DIR=DIR saves the window after the remote run there (run_on_host.png) and the dialog
// after a check that passed and one that was refused (add_host_checked.png, add_host_refused.png).
#include "UiTestSupport.h"

#include "TestSshServer.h"
#include "model/JsonFields.h"
#include "ui/common/NoticeBar.h"
#include "ui/library/LibraryView.h"
#include "ui/report/ReportHeader.h"
#include "ui/report/ReportView.h"
#include "ui/run/AddHostDialog.h"
#include "ui/run/RunHostControl.h"
#include "ui/run/RunHostSetting.h"
#include "ui/run/WorkerClient.h"
#include "ui/window/MainWindow.h"

#include <QAction>
#include <QDir>
#include <QMenu>
#include <QProgressBar>
#include <QPushButton>
#include <QSettings>
#include <QTest>
#include <QThreadPool>

#include <gtest/gtest.h>

#include <cstdlib>
#include <filesystem>
#include <memory>

using namespace ps::uitest;
using ps::test::TestSshServer;

namespace {

class UiRunOn : public ::testing::Test {
protected:
    void SetUp() override
    {
        QSettings().clear();
        ASSERT_EQ(server.problem(), "");
        ::setenv("PS_SSH_COMMAND", server.sshCommand().c_str(), 1);
    }
    void TearDown() override
    {
        ::unsetenv("PS_SSH_COMMAND");
        QSettings().clear();
    }
    /// The studio "there" is this build's: the folder of its precompile-studio.
    ps::remote::RemoteTarget host(const char* name) const
    {
        return {name, std::filesystem::path(PS_TEST_STUDIO).parent_path().string(), "", ""};
    }
    QString script() const
    {
        QDir().mkpath(dir.file("project"));
        return dir.write("project/plain.py",
            "import torch\n\n\ndef fn(x, y):\n    return torch.sin(x) * y\n\n\n"
            "example_inputs = (torch.randn(4, 4), torch.randn(4, 4))\nbackend = \"eager\"\n");
    }
    QStringList menuChecked(ps::ui::MainWindow& window) const
    {
        QStringList checked;
        for (QAction* a : window.hosts()->menu()->actions())
            if (a->isChecked())
                checked << a->text();
        return checked;
    }

    TestSshServer server;
    TempDir dir;
};

}  // namespace

TEST_F(UiRunOn, AnAddedHostRunsTheScriptThereAndTheWindowSaysSo)
{
    ps::ui::MainWindow window(windowOptions(dir, /*prewarm=*/false));
    window.show();
    ASSERT_TRUE(QTest::qWaitForWindowExposed(&window));
    const QString path = script();
    ASSERT_TRUE(window.openPath(path));
    EXPECT_EQ(menuChecked(window), QStringList{QStringLiteral("This Computer")});

    window.hosts()->addHost(host(TestSshServer::kHost));
    EXPECT_EQ(menuChecked(window), QStringList{QString::fromLatin1(TestSshServer::kHost)});
    // Run is offered again once the worker for the new place is in (a moment).
    ASSERT_TRUE(waitFor([&] { return window.runAction()->isEnabled(); }, 30000));
    EXPECT_TRUE(window.workerText().contains(TestSshServer::kHost)) << window.workerText().toStdString();

    const auto run = runAndWait(window);
    ASSERT_TRUE(run);
    ASSERT_EQ(run->report.status, ps::model::RunStatus::Ok) << run->report.message;
    ASSERT_TRUE(run->report.runId.has_value()) << run->storeError().toStdString();
    EXPECT_EQ(ps::model::JsonFields::text(run->report.extra()["worker"], "host"), TestSshServer::kHost);
    const QString facts = window.report()->header()->factsText();
    EXPECT_TRUE(facts.contains(QStringLiteral("ran on %1 · torch").arg(TestSshServer::kHost))) << facts.toStdString();
    EXPECT_EQ(window.libraryView()->rowCount(), 1);
    // The worker kept warm for the next run is there too, and the status bar says what it has.
    EXPECT_TRUE(waitFor([&] { return window.worker()->state() == ps::ui::WorkerClient::State::Ready; }, 120000));
    EXPECT_TRUE(window.workerText().startsWith(QStringLiteral("worker: %1 · torch").arg(TestSshServer::kHost)))
        << window.workerText().toStdString();

    if (const QString shots = qEnvironmentVariable("PS_SHOT_DIR"); !shots.isEmpty()) {
        window.resize(1280, 800);
        savePicture(window, shots + "/run_on_host.png");
    }

    // Remembered for the folder: another window on the same script runs there again.
    ps::ui::RunHostSetting setting;
    ASSERT_TRUE(setting.forScript(path).has_value());
    EXPECT_EQ(setting.forScript(path)->host, TestSshServer::kHost);
    EXPECT_FALSE(setting.forScript(dir.file("elsewhere/x.py")).has_value());

    // Back to this computer: the next worker is local.
    window.hosts()->choose(QString());
    EXPECT_EQ(menuChecked(window), QStringList{QStringLiteral("This Computer")});
    EXPECT_FALSE(window.workerText().contains(TestSshServer::kHost)) << window.workerText().toStdString();
}

TEST_F(UiRunOn, AHostThatRefusesTheLoginIsOneLineAndNothingIsStored)
{
    ps::ui::MainWindow window(windowOptions(dir, /*prewarm=*/false));
    window.show();
    ASSERT_TRUE(QTest::qWaitForWindowExposed(&window));
    ASSERT_TRUE(window.openPath(script()));
    window.hosts()->addHost(host(TestSshServer::kBadKeyHost));
    ASSERT_TRUE(waitFor([&] { return window.runAction()->isEnabled(); }, 30000));
    const auto run = runAndWait(window);
    ASSERT_TRUE(run);
    EXPECT_EQ(run->report.startFailure, ps::model::StartFailure::Authentication) << run->report.message;
    EXPECT_FALSE(run->report.runId.has_value());
    EXPECT_EQ(window.libraryView()->rowCount(), 0);
    const QString notice = window.notice()->text();
    EXPECT_TRUE(notice.contains(QStringLiteral("%1 refused the login").arg(TestSshServer::kBadKeyHost)))
        << notice.toStdString();
    EXPECT_FALSE(notice.contains(QStringLiteral("bootstrap.sh"))) << notice.toStdString();
    EXPECT_FALSE(window.isRunning());
    EXPECT_TRUE(window.runAction()->isEnabled());
}

TEST_F(UiRunOn, TheAddHostDialogRefusesWhatIsNotADestination)
{
    ps::ui::AddHostDialog dialog;
    dialog.setTarget({"-oProxyCommand=touch /tmp/x", "", "", ""});
    EXPECT_FALSE(dialog.problem().isEmpty());
    dialog.setTarget({"me@gpu-box", "/opt/studio", "~/project", ""});
    EXPECT_TRUE(dialog.problem().isEmpty());
    EXPECT_EQ(dialog.target().remoteStudio, "/opt/studio");
}

TEST_F(UiRunOn, CheckHostSaysWhatARunThereWouldHaveOrWhyNot)
{
    ps::ui::AddHostDialog dialog;
    dialog.show();
    ASSERT_TRUE(QTest::qWaitForWindowExposed(&dialog));
    auto* button = dialog.findChild<QPushButton*>(QStringLiteral("checkHost"));
    ASSERT_NE(button, nullptr);
    auto check = [&](const ps::remote::RemoteTarget& target) {
        dialog.setTarget(target);
        button->click();
        // Off the window's thread: the click is back at once, the dialog busy meanwhile.
        EXPECT_TRUE(dialog.checking());
        EXPECT_FALSE(button->isEnabled());
        EXPECT_TRUE(dialog.findChild<QProgressBar*>()->isVisible());
        EXPECT_TRUE(dialog.checkText().startsWith(QStringLiteral("Checking"))) << dialog.checkText().toStdString();
        EXPECT_TRUE(waitFor([&] { return !dialog.checking(); }, 150000));
        EXPECT_TRUE(button->isEnabled());
        EXPECT_FALSE(dialog.findChild<QProgressBar*>()->isVisible());
    };

    check(host(TestSshServer::kHost));
    EXPECT_TRUE(dialog.checkPassed()) << dialog.checkText().toStdString();
    EXPECT_TRUE(dialog.checkText().startsWith(QStringLiteral("✓ %1 · torch ").arg(TestSshServer::kHost)))
        << dialog.checkText().toStdString();
    if (const QString shots = qEnvironmentVariable("PS_SHOT_DIR"); !shots.isEmpty()) {
        savePicture(dialog, shots + "/add_host_checked.png");
    }

    // Each failure named, in one line.
    check(host(TestSshServer::kBadKeyHost));
    EXPECT_FALSE(dialog.checkPassed());
    EXPECT_EQ(dialog.checkFailure(), ps::model::StartFailure::Authentication) << dialog.checkText().toStdString();
    EXPECT_TRUE(dialog.checkText().startsWith(
        QStringLiteral("✗ Login refused: %1 refused the login").arg(TestSshServer::kBadKeyHost)))
        << dialog.checkText().toStdString();
    if (const QString shots = qEnvironmentVariable("PS_SHOT_DIR"); !shots.isEmpty())
        dialog.grab().save(shots + "/add_host_refused.png");
    check(host(TestSshServer::kClosedHost));
    EXPECT_EQ(dialog.checkFailure(), ps::model::StartFailure::Unreachable) << dialog.checkText().toStdString();
    EXPECT_TRUE(dialog.checkText().startsWith(QStringLiteral("✗ Unreachable: "))) << dialog.checkText().toStdString();
    check({TestSshServer::kHost, dir.file("no-studio-here").toStdString(), "", ""});
    EXPECT_EQ(dialog.checkFailure(), ps::model::StartFailure::NoStudio) << dialog.checkText().toStdString();
    EXPECT_TRUE(dialog.checkText().startsWith(QStringLiteral("✗ No studio there: ")))
        << dialog.checkText().toStdString();

    // An edit makes the line stale: it goes.
    dialog.setTarget(host(TestSshServer::kHost));
    EXPECT_EQ(dialog.checkText(), QString());
    EXPECT_FALSE(dialog.checkFailure().has_value());
}

TEST_F(UiRunOn, ClosingAddHostDuringACheckIsSafe)
{
    for (const bool destroy : {false, true}) {
        SCOPED_TRACE(destroy ? "deleted" : "closed");
        auto dialog = std::make_unique<ps::ui::AddHostDialog>();
        dialog->show();
        ASSERT_TRUE(QTest::qWaitForWindowExposed(dialog.get()));
        dialog->setTarget(host(TestSshServer::kHost));
        dialog->checkHost();
        ASSERT_TRUE(dialog->checking());
        // The check is under way on the host: its relay started a worker there.
        ASSERT_TRUE(waitFor([&] { return !server.relays().empty() || !dialog->checking(); }, 30000));
        EXPECT_TRUE(dialog->checking()) << "the check ended before the dialog closed: "
                                        << dialog->checkText().toStdString();
        if (destroy)
            dialog.reset();
        else
            dialog->reject();
        if (dialog) {
            EXPECT_FALSE(dialog->checking());
        }
        // ssh killed: the relay and its worker end there, long before a worker's torch import would.
        EXPECT_TRUE(server.waitUntilNoSessionProcess(20)) << "the check went on after the dialog closed";
        // The check's thread ended and reached nothing that is gone.
        EXPECT_TRUE(waitFor([&] { return QThreadPool::globalInstance()->activeThreadCount() == 0; }, 20000));
        // what the thread queued before it ended is delivered now, before the dialog is read
        QCoreApplication::sendPostedEvents();
        QCoreApplication::processEvents();
        if (dialog) {
            EXPECT_EQ(dialog->checkText(),
                QStringLiteral("Checking %1: ssh, the studio there, its worker importing torch…")
                    .arg(TestSshServer::kHost))
                << "a closed dialog shows no result of the check it cancelled";
        }
    }
}
