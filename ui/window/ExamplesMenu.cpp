#include "ui/window/ExamplesMenu.h"

#include "ui/editor/ScriptFile.h"
#include "ui/editor/ScriptLocations.h"

#include <QDir>
#include <QFile>
#include <QFileInfo>

namespace ps::ui {

ExamplesMenu::ExamplesMenu(const QString& dir, QWidget* parent)
    : QMenu(tr("&Examples"), parent), m_dir(dir.isEmpty() ? ScriptLocations::examplesDir() : dir)
{
    setToolTipsVisible(true);
    connect(this, &QMenu::aboutToShow, this, &ExamplesMenu::rebuild);
    rebuild();
}

void ExamplesMenu::rebuild()
{
    clear();
    const QFileInfoList files
        = QDir(m_dir).entryInfoList({QStringLiteral("*.py")}, QDir::Files | QDir::Readable, QDir::Name);
    for (const QFileInfo& info : files) {
        const QString path = info.absoluteFilePath();
        QAction* a = addAction(info.fileName());
        const QString summary = summaryOf(path);
        a->setToolTip(summary.isEmpty() ? path : summary);
        a->setStatusTip(summary.isEmpty() ? path : summary);
        a->setData(path);
        connect(a, &QAction::triggered, this, [this, path]() {
            const ScriptFile file = ScriptFile::read(path);
            if (file.status == ScriptFile::Status::Editable)
                emit exampleChosen(path, file.text);
            else
                emit exampleFailed(file.message.isEmpty() ? tr("%1 cannot be opened.").arg(path) : file.message);
        });
    }
    if (files.isEmpty())
        addAction(tr("(no examples in %1; set PS_RESOURCES_DIR to the folder that holds examples/)").arg(m_dir))
            ->setEnabled(false);
}

QString ExamplesMenu::summaryOf(const QString& path)
{
    QFile file(path);
    if (!file.open(QIODevice::ReadOnly))
        return QString();
    for (int i = 0; i < 5 && !file.atEnd(); ++i) {
        const QString line = QString::fromUtf8(file.readLine(4096)).trimmed();
        if (line.startsWith(QLatin1String("\"\"\"")))
            return line.mid(3).remove(QLatin1String("\"\"\"")).trimmed();
        if (!line.isEmpty() && !line.startsWith('#'))
            return QString();
    }
    return QString();
}

}  // namespace ps::ui
