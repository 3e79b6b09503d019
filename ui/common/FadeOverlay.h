#pragma once

#include "ui/common/OverlayWidget.h"

namespace ps::ui {

/// A veil over a widget that is out of date (a report of another script): it paints the
/// window's background colour at part opacity over the whole widget, coloured boxes and all.
/// It is a child on top (OverlayWidget), not a QGraphicsEffect: an effect renders its widget
/// through a cached pixmap, and a scroll area inside it then blits old pixels in place
/// (doubled, offset copies of boxes and rows) instead of repainting.
///
/// Thread contract: GUI thread only.
class FadeOverlay : public OverlayWidget {
    Q_OBJECT
public:
    /// Veils `target` (its parent) at once; deleting the overlay lifts the veil.
    explicit FadeOverlay(QWidget* target, qreal opacity = 0.55);

    qreal opacity() const { return m_opacity; }

protected:
    void paintEvent(QPaintEvent* event) override;

private:
    qreal m_opacity;
};

}  // namespace ps::ui
