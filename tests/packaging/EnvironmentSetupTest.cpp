// The window's side of `precompile-studio setup`: EnvironmentSetupDialog runs the real command
// (build/bin/precompile-studio) and shows its steps; the window offers it when the studio's
// environment is missing, and locates the worker again once one is there.
#include "UiTestSupport.h"

#include "ui/common/NoticeBar.h"
#include "ui/run/EnvironmentSetupDialog.h"
#include "ui/run/WorkerClient.h"
#include "ui/window/MainWindow.h"

#include <QFileInfo>
#include <QSignalSpy>

#include <gtest/gtest.h>

using namespace ps::uitest;

namespace {

bool finishes(ps::ui::EnvironmentSetupDialog& dialog)
{
    QSignalSpy finished(&dialog, &ps::ui::EnvironmentSetupDialog::finished);
    return finished.wait(180000);
}

}  // namespace

TEST(UiEnvironmentSetup, TheDialogShowsTheStepsAndEndsReady)
{
    TempDir dir;
    // Only an option, no package: pip has nothing to fetch, the flow is the real one.
    const QString requirements = dir.write("requirements.txt", "--no-index\n");
    ps::ui::EnvironmentSetupDialog dialog(QStringLiteral(PS_TEST_STUDIO));
    QSignalSpy ready(&dialog, &ps::ui::EnvironmentSetupDialog::environmentReady);
    dialog.start({"--python-env", dir.file("env"), "--requirements", requirements});
    ASSERT_TRUE(finishes(dialog)) << dialog.logText().toStdString();
    EXPECT_TRUE(dialog.succeeded()) << dialog.statusText().toStdString() << "\n" << dialog.logText().toStdString();
    EXPECT_EQ(ready.count(), 1);
    EXPECT_EQ(dialog.step(), 3);
    EXPECT_TRUE(dialog.logText().contains("[setup] 1/3")) << dialog.logText().toStdString();
    EXPECT_TRUE(dialog.logText().contains("[setup] 3/3"));
    EXPECT_TRUE(dialog.statusText().contains("ready")) << dialog.statusText().toStdString();
    EXPECT_TRUE(QFileInfo::exists(dir.file("env/.complete")));
}

TEST(UiEnvironmentSetup, AFailedSetupSaysWhyAndIsNotReady)
{
    TempDir dir;
    const QString requirements = dir.write("requirements.txt", "--no-index\nps-no-such-package==1.0\n");
    ps::ui::EnvironmentSetupDialog dialog(QStringLiteral(PS_TEST_STUDIO));
    QSignalSpy ready(&dialog, &ps::ui::EnvironmentSetupDialog::environmentReady);
    dialog.start({"--python-env", dir.file("env"), "--requirements", requirements});
    ASSERT_TRUE(finishes(dialog)) << dialog.logText().toStdString();
    EXPECT_FALSE(dialog.succeeded());
    EXPECT_EQ(ready.count(), 0);
    EXPECT_TRUE(dialog.statusText().contains("could not be made: pip could not install"))
        << dialog.statusText().toStdString();
    EXPECT_FALSE(QFileInfo::exists(dir.file("env/.complete")));
}

TEST(UiEnvironmentSetup, TheWindowOffersToMakeAMissingEnvironmentAndThenRuns)
{
    TempDir dir;
    const QByteArray studioEnv = qgetenv("PS_PYTHON_ENV");
    qputenv("PS_PYTHON_ENV", dir.file("no-env-yet").toUtf8());
    ps::ui::MainWindow window(windowOptions(dir, /*prewarm=*/false));
    window.show();
    EXPECT_FALSE(window.worker()->launchError().isEmpty());
    EXPECT_TRUE(window.notice()->actionLabels().contains("Make the Environment…"))
        << window.notice()->actionLabels().join(", ").toStdString();

    // What the dialog's success does: the environment is there now, the worker is located again.
    if (studioEnv.isEmpty())
        qunsetenv("PS_PYTHON_ENV");
    else
        qputenv("PS_PYTHON_ENV", studioEnv);
    EXPECT_TRUE(window.worker()->relocate());
    EXPECT_TRUE(window.worker()->launchError().isEmpty()) << window.worker()->launchError().toStdString();
    ASSERT_TRUE(waitFor([&] { return !window.worker()->busy(); }, 10000));  // the new pipeline swapped in
    ASSERT_TRUE(window.openPath(dir.write("tiny.py", tinyScript())));
    const auto run = runAndWait(window, 300000);
    ASSERT_TRUE(run);
    EXPECT_EQ(run->report.status, ps::model::RunStatus::Ok) << run->report.message;
}
