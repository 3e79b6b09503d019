// Bad input: binary files, a 50 MB script, a damaged library, a worker that cannot start.
#include "UiTestSupport.h"

#include "ui/common/NoticeBar.h"
#include "ui/editor/ScriptEditor.h"
#include "ui/library/LibraryView.h"
#include "ui/library/RunStore.h"
#include "ui/run/WorkerClient.h"

#include <QAction>
#include <QDir>
#include <QElapsedTimer>
#include <QFile>
#include <QSettings>
#include <QTest>

#include <gtest/gtest.h>

using namespace ps::uitest;

namespace {

class UiBadInput : public ::testing::Test {
protected:
    void SetUp() override { QSettings().clear(); }
    TempDir dir;
};

TEST_F(UiBadInput, ABinaryFileIsRefusedAndTheScriptShownStays)
{
    ps::ui::MainWindow window(windowOptions(dir, false));
    const QString good = dir.write("good.py", tinyScript());
    ASSERT_TRUE(window.openPath(good));
    QByteArray binary("\x7f"
                      "ELF\x02\x01\x01\0\0\0\0\0",
        12);
    binary += QByteArray(4096, '\0');
    const QString bad = dir.write("program.py", binary);
    EXPECT_FALSE(window.openPath(bad));
    EXPECT_TRUE(window.notice()->text().contains("binary")) << window.notice()->text().toStdString();
    EXPECT_EQ(window.notice()->level(), ps::ui::NoticeBar::Level::Error);
    EXPECT_EQ(window.editor()->filePath(), QFileInfo(good).absoluteFilePath());
    EXPECT_EQ(window.editor()->text().toUtf8(), tinyScript());
    EXPECT_FALSE(window.openPath(dir.file("missing.py")));
    EXPECT_TRUE(window.notice()->text().contains("does not exist"));
    EXPECT_FALSE(window.openPath(dir.path()));
}

TEST_F(UiBadInput, AFiftyMegabyteScriptOpensReadOnlyAtOnceWithAWarning)
{
    QByteArray big;
    big.reserve(50 * 1024 * 1024 + 100);
    const QByteArray line = "x = [1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12, 13, 14, 15, 16, 17, 18]  # padding\n";
    while (big.size() < 50 * 1024 * 1024)
        big += line;
    const QString path = dir.write("huge.py", big);
    ps::ui::MainWindow window(windowOptions(dir, false));
    window.show();
    QElapsedTimer clock;
    clock.start();
    ASSERT_TRUE(window.openPath(path));
    QCoreApplication::processEvents();
    EXPECT_LT(clock.elapsed(), 3000);
    EXPECT_TRUE(window.editor()->isPreview());
    EXPECT_TRUE(window.editor()->isReadOnly());
    EXPECT_LT(window.editor()->length(), 600 * 1024);
    EXPECT_EQ(window.notice()->level(), ps::ui::NoticeBar::Level::Warning);
    EXPECT_TRUE(window.notice()->text().contains("read-only")) << window.notice()->text().toStdString();
    // Saving cannot truncate the file to its preview.
    QString error;
    EXPECT_FALSE(window.editor()->save(&error));
    EXPECT_EQ(QFileInfo(path).size(), big.size());
}

TEST_F(UiBadInput, NotUtf8OpensReadOnly)
{
    ps::ui::MainWindow window(windowOptions(dir, false));
    ASSERT_TRUE(window.openPath(fixtureScript("not_utf8.py")));
    EXPECT_TRUE(window.editor()->isPreview());
    EXPECT_TRUE(window.notice()->text().contains("UTF-8"));
}

TEST_F(UiBadInput, ADamagedLibraryStillOpensTheWindowSaysSoAndOffersAnother)
{
    const QString damaged = dir.write("library.sqlite3", QByteArray("this is not a database\n").repeated(100));
    ps::ui::MainWindow window(windowOptions(dir, false));
    window.show();
    ASSERT_TRUE(QTest::qWaitForWindowExposed(&window));
    const QString notice = window.notice()->text();
    EXPECT_TRUE(notice.contains(damaged)) << notice.toStdString();
    EXPECT_TRUE(notice.contains("cannot be used")) << notice.toStdString();
    EXPECT_TRUE(window.notice()->actionLabels().contains("Open Another Library…"));
    EXPECT_TRUE(window.notice()->actionLabels().contains("Start a New Library…"));
    EXPECT_FALSE(window.libraryView()->problem().isEmpty());
    // The file is left as it was.
    QFile f(damaged);
    ASSERT_TRUE(f.open(QIODevice::ReadOnly));
    EXPECT_TRUE(f.readAll().startsWith("this is not a database"));

    const QString other = dir.file("other.sqlite3");
    EXPECT_TRUE(window.openLibrary(other));
    EXPECT_TRUE(window.libraryView()->problem().isEmpty());
    EXPECT_TRUE(window.notice()->text().isEmpty()) << window.notice()->text().toStdString();
    EXPECT_EQ(window.libraryView()->rowCount(), 0);
    // Going back to the damaged one is refused and the working one kept.
    EXPECT_FALSE(window.openLibrary(damaged));
    EXPECT_EQ(window.store()->path(), other);
}

TEST_F(UiBadInput, AWorkerThatCannotStartSaysWhichCommandMakesTheEnvironment)
{
    // The studio's own environment, missing and then half made.
    auto options = windowOptions(dir);
    qputenv("PS_PYTHON_ENV", dir.file("no-such-env").toUtf8());
    ps::ui::MainWindow window(options);
    window.show();
    EXPECT_FALSE(window.worker()->launchError().isEmpty());
    EXPECT_TRUE(window.notice()->text().contains("packaging/bootstrap.sh")) << window.notice()->text().toStdString();
    ASSERT_TRUE(window.openPath(dir.write("tiny.py", tinyScript())));
    window.notice()->dismiss();
    window.runAction()->trigger();
    EXPECT_FALSE(window.isRunning());
    EXPECT_TRUE(window.notice()->text().contains("packaging/bootstrap.sh"));

    QDir().mkpath(dir.file("half-env/bin"));
    QFile::link("/bin/true", dir.file("half-env/bin/python"));
    qputenv("PS_PYTHON_ENV", dir.file("half-env").toUtf8());
    ps::ui::MainWindow second(options);
    qunsetenv("PS_PYTHON_ENV");
    EXPECT_TRUE(second.notice()->text().contains("incomplete")) << second.notice()->text().toStdString();
    EXPECT_TRUE(second.notice()->text().contains("packaging/bootstrap.sh"));
}

TEST_F(UiBadInput, AUserEnvironmentThatCannotBeUsedIsNamedBeforeARun)
{
    auto options = windowOptions(dir);
    options.pythonEnv = dir.file("no-such-env");
    ps::ui::MainWindow window(options);
    window.show();
    EXPECT_TRUE(window.notice()->text().contains("no-such-env does not exist"))
        << window.notice()->text().toStdString();
    ASSERT_TRUE(window.openPath(dir.write("tiny.py", tinyScript())));
    window.notice()->dismiss();
    window.runAction()->trigger();
    EXPECT_FALSE(window.isRunning());
    EXPECT_TRUE(window.notice()->text().contains("does not exist")) << window.notice()->text().toStdString();
}

}  // namespace
