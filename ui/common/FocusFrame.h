#pragma once

#include "ui/common/OverlayWidget.h"

namespace ps::ui {

/// The mark of the pane that has the keyboard focus: a border in the highlight colour around
/// the pane, so that F6 / Ctrl+Tab (PaneCycler) visibly moves something. It moves with the
/// focus (setTarget) and draws nothing else.
///
/// Thread contract: GUI thread only.
class FocusFrame : public OverlayWidget {
    Q_OBJECT
public:
    static constexpr int kWidth = 3;  ///< seen at a glance, not a hairline

    FocusFrame();

protected:
    void paintEvent(QPaintEvent* event) override;
};

}  // namespace ps::ui
