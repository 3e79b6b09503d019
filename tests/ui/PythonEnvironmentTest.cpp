// The window's Python environment of the user's: remembered per script folder, a default, the
// command line over both; a script importing the environment's package runs unedited; while
// runs go to another host the status bar names the environment there, not this computer's.
#include "UiTestSupport.h"

#include "ui/run/PythonEnvironmentControl.h"
#include "ui/run/PythonEnvironmentDialog.h"
#include "ui/run/PythonEnvironmentSetting.h"
#include "ui/run/RunHostControl.h"
#include "ui/run/WorkerClient.h"
#include "ui/window/MainWindow.h"

#include "protocol/UserEnvironment.h"

#include <QDir>
#include <QLabel>
#include <QSettings>

#include <gtest/gtest.h>

#include <cstdlib>

using namespace ps::uitest;
using ps::ui::PythonEnvironmentSetting;

namespace {

class UiPythonEnvironment : public ::testing::Test {
protected:
    void SetUp() override { QSettings().clear(); }
    void TearDown() override { QSettings().clear(); }
    TempDir dir;

    /// A venv-shaped folder for the worker's Python holding the package studio_user_pkg.
    QString makeUserEnv() const
    {
        const QString site = QStringLiteral("venv/lib/python%1/site-packages")
                                 .arg(QString::fromStdString(ps::protocol::UserEnvironment::workerPythonVersion()));
        QDir().mkpath(dir.file(site + "/studio_user_pkg"));
        dir.write(site + "/studio_user_pkg/__init__.py", "SCALE = 3.0\n");
        return dir.file("venv");
    }
};

TEST_F(UiPythonEnvironment, AFolderChoiceBeatsTheDefaultAndTheCommandLineBeatsBoth)
{
    PythonEnvironmentSetting setting;
    const QString a = dir.file("project-a/model.py"), b = dir.file("project-b/model.py");
    EXPECT_EQ(setting.forScript(a), QString());
    EXPECT_EQ(setting.originFor(a), QStringLiteral("none chosen"));

    setting.setDefault("/envs/default");
    setting.setForFolder(dir.file("project-a"), "/envs/a");
    EXPECT_EQ(setting.forScript(a), QStringLiteral("/envs/a"));
    EXPECT_EQ(setting.originFor(a), QStringLiteral("this folder's choice"));
    EXPECT_EQ(setting.forScript(b), QStringLiteral("/envs/default"));
    EXPECT_EQ(setting.forScript(QString()), QStringLiteral("/envs/default"));

    // Remembered across windows (QSettings), forgotten on request.
    EXPECT_EQ(PythonEnvironmentSetting().forScript(a), QStringLiteral("/envs/a"));
    setting.setForFolder(dir.file("project-a"), QString());
    EXPECT_EQ(setting.forScript(a), QStringLiteral("/envs/default"));

    PythonEnvironmentSetting fixed("/envs/cli");
    EXPECT_TRUE(fixed.fixed());
    EXPECT_EQ(fixed.forScript(a), QStringLiteral("/envs/cli"));
}

TEST_F(UiPythonEnvironment, TheDialogChecksAsItIsTyped)
{
    ps::ui::PythonEnvironmentDialog dialog(dir.file("absent"), dir.path(), true);
    EXPECT_TRUE(dialog.refused());
    EXPECT_TRUE(dialog.verdict().contains("does not exist")) << dialog.verdict().toStdString();
    ps::ui::PythonEnvironmentDialog good(makeUserEnv(), dir.path(), true);
    EXPECT_FALSE(good.refused()) << good.verdict().toStdString();
    EXPECT_TRUE(good.verdict().contains("site-packages")) << good.verdict().toStdString();
    EXPECT_TRUE(good.forFolder());
}

TEST_F(UiPythonEnvironment, TheDialogSaysWhichWorkerTheEnvironmentsTorchPicks)
{
    const QString env = makeUserEnv();
    const QString site = QStringLiteral("venv/lib/python%1/site-packages")
                             .arg(QString::fromStdString(ps::protocol::UserEnvironment::workerPythonVersion()));
    ps::ui::PythonEnvironmentDialog none(env, dir.path(), true);
    EXPECT_TRUE(none.verdict().contains("it has no torch: scripts run on the studio's own"))
        << none.verdict().toStdString();

    // torch's own version.py, read as text: nothing is imported
    QDir().mkpath(dir.file(site + "/torch"));
    dir.write(site + "/torch/version.py", "__version__ = '2.14.1+cu130'\n");
    ps::ui::PythonEnvironmentDialog older(env, dir.path(), true);
    EXPECT_FALSE(older.refused()) << older.verdict().toStdString();
    EXPECT_TRUE(older.verdict().contains("its torch 2.14.1+cu130 runs on the studio's torch 2.14 worker"))
        << older.verdict().toStdString();

    dir.write(site + "/torch/version.py", "__version__ = '2.13.0'\n");
    ps::ui::PythonEnvironmentDialog unsupported(env, dir.path(), true);
    EXPECT_TRUE(unsupported.refused());
    EXPECT_TRUE(unsupported.verdict().contains("Its torch 2.13.0 is one the studio has no worker for: the studio "
                                               "runs torch 2.14 and 2.15"))
        << unsupported.verdict().toStdString();
}

TEST_F(UiPythonEnvironment, AScriptRunsWithItsFoldersEnvironmentUnedited)
{
    const QString env = makeUserEnv();
    QDir().mkpath(dir.file("project"));
    const QString script = dir.write("project/uses_pkg.py",
        "import torch\nimport studio_user_pkg\n\n\ndef fn(x):\n    return x * studio_user_pkg.SCALE\n\n\n"
        "def example_inputs():\n    return (torch.ones(4),)\n\n\nbackend = 'eager'\n");
    PythonEnvironmentSetting().setForFolder(dir.file("project"), env);

    ps::ui::MainWindow window(windowOptions(dir));
    window.show();
    ASSERT_TRUE(window.openPath(script));
    EXPECT_EQ(window.worker()->userEnvironment(), env);
    ASSERT_TRUE(waitFor([&]() { return !window.isRunning(); }, 30000));
    auto run = runAndWait(window);
    ASSERT_TRUE(run);
    EXPECT_EQ(run->report.status, ps::model::RunStatus::Ok) << run->report.message;
    const auto hello = window.worker()->hello();
    ASSERT_TRUE(hello.has_value());
    EXPECT_EQ(hello->value("/environment/path"_json_pointer, std::string()), env.toStdString()) << hello->dump();

    // Another folder, no choice: the studio's packages only, and the import fails.
    QDir().mkpath(dir.file("other"));
    const QString elsewhere = dir.file("other/uses_pkg.py");
    QFile::copy(script, elsewhere);
    ASSERT_TRUE(window.openPath(elsewhere));
    EXPECT_EQ(window.worker()->userEnvironment(), QString());
    ASSERT_TRUE(waitFor([&]() { return !window.isRunning(); }, 30000));
    auto failed = runAndWait(window);
    ASSERT_TRUE(failed);
    EXPECT_NE(failed->report.status, ps::model::RunStatus::Ok);
    EXPECT_NE(failed->report.message.find("studio_user_pkg"), std::string::npos) << failed->report.message;
}

// Not a worker suite: no run, and no ssh for real (a host's worker fails to start at once).
class UiEnvironmentLabel : public ::testing::Test {
protected:
    void SetUp() override
    {
        QSettings().clear();
        ::setenv("PS_SSH_COMMAND", "false", 1);
    }
    void TearDown() override
    {
        ::unsetenv("PS_SSH_COMMAND");
        QSettings().clear();
    }
    TempDir dir;
};

TEST_F(UiEnvironmentLabel, OnAHostTheStatusBarNamesTheEnvironmentThere)
{
    // This computer's environment is one of the user's own (the command line's, here).
    auto options = windowOptions(dir, /*prewarm=*/false);
    options.pythonEnv = dir.file("local-venv");
    ps::ui::MainWindow window(options);
    const QLabel* label = window.environment()->statusLabel();
    EXPECT_EQ(label->text(), QStringLiteral("env: local-venv"));

    // A host with an environment named there: that one, and where.
    window.hosts()->addHost({"gpu-box", "", "", "/srv/envs/torch-extra"});
    ASSERT_TRUE(window.worker()->remoteTarget().has_value());
    EXPECT_EQ(label->text(), QStringLiteral("env: torch-extra on gpu-box"));
    EXPECT_TRUE(label->toolTip().contains(QStringLiteral("/srv/envs/torch-extra"))) << label->toolTip().toStdString();
    EXPECT_FALSE(label->text().contains(QStringLiteral("local-venv")));

    // A host with none: the studio's packages there, not this computer's environment.
    ASSERT_TRUE(waitFor([&] { return !window.worker()->busy(); }, 10000));
    window.hosts()->addHost({"cpu-box", "", "", ""});
    EXPECT_EQ(label->text(), QStringLiteral("env: studio's on cpu-box"));
    EXPECT_TRUE(label->toolTip().contains(QStringLiteral("cpu-box"))) << label->toolTip().toStdString();

    // Back here: this computer's again.
    ASSERT_TRUE(waitFor([&] { return !window.worker()->busy(); }, 10000));
    window.hosts()->choose(QString());
    EXPECT_FALSE(window.worker()->remoteTarget().has_value());
    EXPECT_EQ(label->text(), QStringLiteral("env: local-venv"));
    ASSERT_TRUE(waitFor([&] { return !window.worker()->busy(); }, 10000));
}

}  // namespace
