#pragma once

#include <QString>

class QGraphicsScene;

namespace ps::ui {

/// Writes what a graph scene shows (the visible graph: collapsed modules as boxes) to a file,
/// labels drawn at full detail whatever the view's zoom.
class GraphExport {
public:
    /// False, with the reason in `error`, when the file cannot be written.
    static bool toSvg(QGraphicsScene* scene, const QString& path, const QString& title, QString* error);
    /// Scaled down so the longer side is at most `maxSide` pixels.
    static bool toPng(QGraphicsScene* scene, const QString& path, int maxSide, QString* error);
};

} // namespace ps::ui
