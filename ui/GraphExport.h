#pragma once

#include <QString>

class QGraphicsScene;

namespace ps::ui {

/// Writes what a graph scene shows (the visible graph: collapsed modules as boxes) to a file,
/// whatever the view's zoom: SVG at full size, every label in it; PNG scaled to fit, so a very
/// big graph becomes an overview (below half of full size, boxes without labels; below 6 %,
/// without edges).
/// Both are written beside the file and renamed into place: a failure leaves no half file.
class GraphExport {
public:
    /// False, with the reason in `error`, when the file cannot be written.
    static bool toSvg(QGraphicsScene* scene, const QString& path, const QString& title, QString* error);
    /// Scaled down so the longer side is at most `maxSide` pixels.
    static bool toPng(QGraphicsScene* scene, const QString& path, int maxSide, QString* error);
};

}  // namespace ps::ui
