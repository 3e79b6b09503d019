#pragma once

#include <QSize>

class QWidget;

namespace ps::ui {

/// Where a window of its own (Compare, Lessons) opens: the size it wants, within the screen it
/// opens on less room for the window manager's frame, and centred there, never at the
/// top-left corner of a large screen nor taller than a small one.
class WindowPlacement {
public:
    /// The frame a window manager adds around a window (title bar, borders), kept free.
    static constexpr int kFrameAllowance = 64;

    static void fitAndCentre(QWidget* window, QSize wanted);
};

}  // namespace ps::ui
