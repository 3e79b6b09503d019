#include "GuiLauncher.h"

#include "ui/window/MainWindow.h"

#include <QApplication>
#include <QIcon>
#include <QTimer>

int runGui(int argc, char** argv, const std::string& fileToOpen, const std::string& libraryPath,
    const std::string& pythonEnv, const std::optional<ps::remote::RemoteTarget>& host)
{
    // Fractional scale factors as the desktop sets them (125 %, 150 %), not rounded to 1 or 2.
    QGuiApplication::setHighDpiScaleFactorRoundingPolicy(Qt::HighDpiScaleFactorRoundingPolicy::PassThrough);
    QApplication app(argc, argv);
    QApplication::setApplicationName(QStringLiteral("precompile-studio"));
    QApplication::setApplicationDisplayName(QStringLiteral("Precompile Studio"));
    QApplication::setOrganizationName(QStringLiteral("precompile-studio"));
    QApplication::setApplicationVersion(QStringLiteral("0.1.0"));
    QGuiApplication::setDesktopFileName(QStringLiteral("precompile-studio"));
    QApplication::setWindowIcon(QIcon(QStringLiteral(":/ps/icons/precompile-studio.svg")));

    ps::ui::MainWindowOptions options;
    options.libraryPath = QString::fromStdString(libraryPath);
    options.pythonEnv = QString::fromStdString(pythonEnv);
    options.host = host;
    options.restoreState = true;
    ps::ui::MainWindow window(options);
    if (!fileToOpen.empty())
        window.openPath(QString::fromStdString(fileToOpen));
    window.show();
    return app.exec();
}
