#pragma once

#include <QString>

class QGraphicsScene;
class QWidget;

namespace ps::ui {

/// Writes what a graph scene shows (the visible graph: collapsed modules as boxes) to a file,
/// whatever the view's zoom: SVG at full size, every label in it; PNG scaled to fit, so a very
/// big graph becomes an overview (drawn as the canvas draws it zoomed out: boxes with their
/// titles only, then the modules as named regions; below 6 %, without edges).
/// Both are written beside the file and renamed into place: a failure leaves no half file.
class GraphExport {
public:
    /// The longer side of an exported PNG, at most.
    static constexpr int kPngSide = 16384;
    /// False, with the reason in `error`, when the file cannot be written.
    static bool toSvg(QGraphicsScene* scene, const QString& path, const QString& title, QString* error);
    /// Scaled down so the longer side is at most `maxSide` pixels.
    static bool toPng(QGraphicsScene* scene, const QString& path, int maxSide, QString* error);
    /// Asks where to save (SVG or PNG, the name's suffix deciding) and saves there; says why
    /// in a message box when it cannot.
    static void saveAs(QWidget* parent, QGraphicsScene* scene, const QString& title);
};

}  // namespace ps::ui
