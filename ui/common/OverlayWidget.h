#pragma once

#include <QWidget>

namespace ps::ui {

/// A widget drawn over the whole of another (its target, which is its parent): it follows the
/// target's size, stays above the target's other children, lets the mouse through and never
/// takes the focus. Subclasses paint (FadeOverlay's veil, FocusFrame's border).
///
/// Thread contract: GUI thread only.
class OverlayWidget : public QWidget {
    Q_OBJECT
public:
    /// Over `target` at once (hidden when null, until setTarget).
    explicit OverlayWidget(QWidget* target);

    /// Moves over another widget, shown; null hides it (it stays the last target's child).
    void setTarget(QWidget* target);
    /// The widget it is over (or was, while hidden).
    QWidget* target() const { return parentWidget(); }

protected:
    bool eventFilter(QObject* watched, QEvent* event) override;
};

}  // namespace ps::ui
