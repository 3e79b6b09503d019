#include "ui/graph/GraphExport.h"
#include "ui/graph/ModuleRegionsItem.h"

#include <QDir>
#include <QFileDialog>
#include <QFileInfo>
#include <QGraphicsScene>
#include <QImage>
#include <QImageWriter>
#include <QMessageBox>
#include <QPainter>
#include <QPalette>
#include <QSaveFile>
#include <QSettings>
#include <QStandardPaths>
#include <QSvgGenerator>

namespace ps::ui {

namespace {

bool writable(const QString& path, QString* error)
{
    const QFileInfo dir(QFileInfo(path).absolutePath());
    if (dir.isDir() && dir.isWritable())
        return true;
    if (error)
        *error = QObject::tr("cannot write %1: the folder %2 is missing or read-only").arg(path, dir.filePath());
    return false;
}

/// What the graph's items cover, with a margin: the region headers' room beside the regions (a
/// margin in screen pixels, wide when zoomed out) is not part of the picture.
QRectF drawnRect(QGraphicsScene* scene)
{
    QRectF out;
    for (const QGraphicsItem* item : scene->items())
        if (item->type() != ModuleRegionsItem::Type)
            out = out.united(item->sceneBoundingRect());
    return out.adjusted(-20, -20, 20, 20);
}

}  // namespace

bool GraphExport::toSvg(QGraphicsScene* scene, const QString& path, const QString& title, QString* error)
{
    if (!writable(path, error))
        return false;
    const QRectF source = drawnRect(scene);
    QSaveFile file(path);
    if (!file.open(QIODevice::WriteOnly)) {
        if (error)
            *error = QObject::tr("cannot write %1: %2").arg(path, file.errorString());
        return false;
    }
    QSvgGenerator svg;
    svg.setOutputDevice(&file);
    svg.setSize(source.size().toSize());
    svg.setViewBox(QRectF(QPointF(0, 0), source.size()));
    svg.setTitle(title);
    svg.setDescription(QObject::tr("Exported by Precompile Studio"));
    QPainter painter;
    if (!painter.begin(&svg)) {
        if (error)
            *error = QObject::tr("cannot start an SVG painter for %1").arg(path);
        return false;
    }
    scene->render(&painter, QRectF(QPointF(0, 0), source.size()), source);
    painter.end();
    if (!file.commit()) {
        if (error)
            *error = QObject::tr("cannot write %1: %2").arg(path, file.errorString());
        return false;
    }
    return true;
}

bool GraphExport::toPng(QGraphicsScene* scene, const QString& path, int maxSide, QString* error)
{
    if (!writable(path, error))
        return false;
    const QRectF source = drawnRect(scene);
    const qreal scale = std::min<qreal>(1.0, maxSide / std::max(source.width(), source.height()));
    const QSize size = (source.size() * scale).toSize().expandedTo(QSize(1, 1));
    QImage image(size, QImage::Format_ARGB32_Premultiplied);
    if (image.isNull()) {
        if (error)
            *error
                = QObject::tr("the graph is too large for one image (%1 × %2 px)").arg(size.width()).arg(size.height());
        return false;
    }
    image.fill(scene->palette().color(QPalette::Base));
    QPainter painter(&image);
    painter.setRenderHint(QPainter::Antialiasing);
    painter.setRenderHint(QPainter::TextAntialiasing);
    scene->render(&painter, QRectF(QPointF(0, 0), size), source);
    painter.end();
    // Written beside and renamed into place: a failed export never leaves half a file.
    QSaveFile file(path);
    if (!file.open(QIODevice::WriteOnly)) {
        if (error)
            *error = QObject::tr("cannot write %1: %2").arg(path, file.errorString());
        return false;
    }
    QImageWriter writer(&file, "png");
    if (!writer.write(image)) {
        if (error)
            *error = QObject::tr("cannot write %1: %2").arg(path, writer.errorString());
        return false;
    }
    if (!file.commit()) {
        if (error)
            *error = QObject::tr("cannot write %1: %2").arg(path, file.errorString());
        return false;
    }
    return true;
}

void GraphExport::saveAs(QWidget* parent, QGraphicsScene* scene, const QString& title)
{
    const QString svgFilter = QObject::tr("SVG (*.svg)"), pngFilter = QObject::tr("PNG (*.png)");
    QString filter = svgFilter;
    // The folder last exported to, else the user's Documents: never the process's working folder.
    QString dir = QSettings().value(QStringLiteral("graph/exportDir")).toString();
    if (dir.isEmpty() || !QFileInfo(dir).isDir())
        dir = QStandardPaths::writableLocation(QStandardPaths::DocumentsLocation);
    if (dir.isEmpty() || !QFileInfo(dir).isDir())
        dir = QDir::homePath();
    QString path = QFileDialog::getSaveFileName(parent, QObject::tr("Export the visible graph"),
        dir + QStringLiteral("/graph.svg"), svgFilter + QStringLiteral(";;") + pngFilter, &filter);
    if (path.isEmpty())
        return;
    QSettings().setValue(QStringLiteral("graph/exportDir"), QFileInfo(path).absolutePath());
    // The name's suffix decides; a name without one takes the chosen type's.
    const QString suffix = QFileInfo(path).suffix().toLower();
    bool png = suffix == QLatin1String("png");
    if (suffix != QLatin1String("png") && suffix != QLatin1String("svg")) {
        png = filter == pngFilter;
        path += png ? QStringLiteral(".png") : QStringLiteral(".svg");
    }
    QString error;
    const bool ok = png ? toPng(scene, path, kPngSide, &error) : toSvg(scene, path, title, &error);
    if (!ok)
        QMessageBox::warning(parent, QObject::tr("Export failed"), error);
}

}  // namespace ps::ui
