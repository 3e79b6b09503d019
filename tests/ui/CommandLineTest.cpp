// Options given on the command line are for that window only: `--library X` opens X without
// making it the library of later launches, `--python-env` is not kept either, and `--host H`
// runs the session's scripts on H (Run > Run On) without adding H for later launches.
#include "UiTestSupport.h"

#include "ui/library/RunStore.h"
#include "ui/run/RunHostControl.h"
#include "ui/run/RunHostSetting.h"
#include "ui/run/WorkerClient.h"
#include "ui/window/MainWindow.h"

#include <QAction>
#include <QDir>
#include <QMenu>
#include <QSettings>

#include <gtest/gtest.h>

#include <cstdlib>

using namespace ps::uitest;

namespace {

class UiCommandLine : public ::testing::Test {
protected:
    void SetUp() override { QSettings().clear(); }
    void TearDown() override { QSettings().clear(); }
    TempDir dir;
};

/// The Run On menu's checked entries.
QStringList runOnChecked(const ps::ui::MainWindow& window)
{
    QStringList checked;
    for (QAction* a : window.hosts()->menu()->actions())
        if (a->isChecked())
            checked << a->text();
    return checked;
}

/// Every value QSettings keeps, as one text.
QString allSettings()
{
    QSettings settings;
    QString out;
    for (const QString& key : settings.allKeys())
        out += key + "=" + settings.value(key).toStringList().join(' ') + settings.value(key).toString() + "\n";
    return out;
}

TEST_F(UiCommandLine, ALibraryFromTheCommandLineIsNotRemembered)
{
    const QString usual = dir.file("usual.sqlite3");
    const QString once = dir.file("once.sqlite3");
    {
        ps::ui::RunStore store(usual);  // the library the user works in
        ASSERT_TRUE(store.isOpen());
    }
    QSettings().setValue("library/path", usual);
    {
        // What `precompile-studio --library once.sqlite3` makes (GuiLauncher).
        auto options = windowOptions(dir, /*prewarm=*/false);
        options.libraryPath = once;
        options.pythonEnv = dir.file("cli-venv");
        options.restoreState = true;
        ps::ui::MainWindow window(options);
        ASSERT_TRUE(window.store() && window.store()->isOpen());
        EXPECT_EQ(window.store()->path(), once);
        EXPECT_EQ(QSettings().value("library/path").toString(), usual);
        window.close();  // saves the window's settings
    }
    EXPECT_EQ(QSettings().value("library/path").toString(), usual);
    QSettings settings;
    for (const QString& key : settings.allKeys()) {
        const QString value = settings.value(key).toStringList().join(' ') + settings.value(key).toString();
        EXPECT_FALSE(value.contains("once.sqlite3") || value.contains("cli-venv"))
            << key.toStdString() << " keeps a command-line option: " << value.toStdString();
    }

    // The next plain launch opens the usual library; one the user opens is remembered.
    auto options = windowOptions(dir, /*prewarm=*/false);
    options.libraryPath.clear();
    ps::ui::MainWindow window(options);
    EXPECT_EQ(window.store()->path(), usual);
    ASSERT_TRUE(window.openLibrary(once));
    EXPECT_EQ(QSettings().value("library/path").toString(), once);
}

TEST_F(UiCommandLine, AHostFromTheCommandLineIsRunOnForTheSessionOnly)
{
    // No ssh for real: the worker there fails to start at once, which is not what is tested.
    struct NoSsh {
        NoSsh() { ::setenv("PS_SSH_COMMAND", "false", 1); }
        ~NoSsh() { ::unsetenv("PS_SSH_COMMAND"); }
    } noSsh;
    QDir().mkpath(dir.file("project"));
    const QString script = dir.write("project/model.py", "fn = None\n");
    // A host added earlier with the same destination lends what the command line leaves out.
    ps::ui::RunHostSetting().addHost({"gpu-box", "/opt/studio", "", "/srv/venv"});
    {
        // What `precompile-studio open model.py --host gpu-box --remote-dir ~/proj` makes (GuiLauncher).
        auto options = windowOptions(dir, /*prewarm=*/false);
        options.host = ps::remote::RemoteTarget{"gpu-box", "", "~/proj", ""};
        ps::ui::MainWindow window(options);
        ASSERT_TRUE(window.worker()->remoteTarget().has_value());
        EXPECT_EQ(window.worker()->remoteTarget()->host, "gpu-box");
        EXPECT_EQ(window.worker()->remoteTarget()->remoteDir, "~/proj");
        EXPECT_EQ(window.worker()->remoteTarget()->remoteStudio, "/opt/studio");
        EXPECT_EQ(window.worker()->remoteTarget()->pythonEnv, "/srv/venv");
        EXPECT_EQ(runOnChecked(window), QStringList{QStringLiteral("gpu-box")});
        EXPECT_TRUE(window.workerText().startsWith(QStringLiteral("worker: gpu-box")))
            << window.workerText().toStdString();

        // A script opened keeps it, whatever its folder would choose.
        ASSERT_TRUE(window.openPath(script));
        EXPECT_EQ(runOnChecked(window), QStringList{QStringLiteral("gpu-box")});
        EXPECT_EQ(window.worker()->remoteTarget()->remoteDir, "~/proj");

        // The user picks another place (once the worker for this one is in): it holds, and is
        // remembered for the folder as usual.
        ASSERT_TRUE(waitFor([&] { return !window.worker()->busy(); }, 10000));
        window.hosts()->choose(QString());
        EXPECT_FALSE(window.worker()->remoteTarget().has_value());
        EXPECT_EQ(runOnChecked(window), QStringList{QStringLiteral("This Computer")});
        // The session's host is still listed; picked again, it is the command line's.
        ASSERT_TRUE(waitFor([&] { return !window.worker()->busy(); }, 10000));
        EXPECT_TRUE(window.hosts()->menu()->actions().size() > 2);
        window.hosts()->choose(QStringLiteral("gpu-box"));
        ASSERT_TRUE(window.worker()->remoteTarget().has_value());
        EXPECT_EQ(window.worker()->remoteTarget()->remoteDir, "~/proj");
        ASSERT_TRUE(waitFor([&] { return !window.worker()->busy(); }, 10000));
        window.close();  // saves the window's settings
    }
    EXPECT_FALSE(allSettings().contains("~/proj")) << allSettings().toStdString();
    EXPECT_EQ(ps::ui::RunHostSetting().hosts().size(), 1);

    // A session without --host runs where the folder chose.
    ps::ui::MainWindow window(windowOptions(dir, /*prewarm=*/false));
    ASSERT_TRUE(window.openPath(script));
    EXPECT_FALSE(window.worker()->remoteTarget().has_value());
    EXPECT_EQ(runOnChecked(window), QStringList{QStringLiteral("This Computer")});
}

}  // namespace
