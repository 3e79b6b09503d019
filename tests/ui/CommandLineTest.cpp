// Options given on the command line are for that window only: `--library X` opens X without
// making it the library of later launches, and `--python-env` is not kept either.
#include "UiTestSupport.h"

#include "ui/library/RunStore.h"

#include <QSettings>

#include <gtest/gtest.h>

using namespace ps::uitest;

namespace {

class UiCommandLine : public ::testing::Test {
protected:
    void SetUp() override { QSettings().clear(); }
    TempDir dir;
};

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

}  // namespace
