// One QApplication for every test of the window (Qt allows one per process), on the offscreen
// platform unless the environment says otherwise, with settings in a folder of their own.
#include <QApplication>
#include <QSettings>
#include <QTemporaryDir>

#include <gtest/gtest.h>

#include <cstring>

int main(int argc, char** argv)
{
    ::testing::InitGoogleTest(&argc, argv);
    for (int i = 1; i < argc; ++i)
        if (std::strcmp(argv[i], "--gtest_list_tests") == 0)
            return RUN_ALL_TESTS();  // test discovery at build time: no display needed
    if (qEnvironmentVariableIsEmpty("QT_QPA_PLATFORM"))
        qputenv("QT_QPA_PLATFORM", "offscreen");
    QTemporaryDir home(QDir::tempPath() + QStringLiteral("/ps-ui-tests-XXXXXX"));
    qputenv("XDG_DATA_HOME", home.filePath(QStringLiteral("data")).toUtf8());
    QSettings::setDefaultFormat(QSettings::IniFormat);
    QSettings::setPath(QSettings::IniFormat, QSettings::UserScope, home.filePath(QStringLiteral("config")));
    QApplication app(argc, argv);
    QApplication::setOrganizationName(QStringLiteral("precompile-studio-tests"));
    QApplication::setApplicationName(QStringLiteral("ui_tests"));
    return RUN_ALL_TESTS();
}
