#include "ui/common/WindowPlacement.h"

#include <QGuiApplication>
#include <QScreen>
#include <QWidget>

namespace ps::ui {

void WindowPlacement::fitAndCentre(QWidget* window, QSize wanted)
{
    const QScreen* screen = window->screen() ? window->screen() : QGuiApplication::primaryScreen();
    if (!screen) {
        window->resize(wanted);
        return;
    }
    const QRect available = screen->availableGeometry();
    const QSize room(available.width() - kFrameAllowance / 2, available.height() - kFrameAllowance);
    const QSize size = wanted.boundedTo(room).expandedTo(window->minimumSize());
    window->resize(size);
    window->move(available.center() - QPoint(size.width() / 2, size.height() / 2 + kFrameAllowance / 4));
}

}  // namespace ps::ui
