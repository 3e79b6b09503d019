#include "ui/common/FadeOverlay.h"

#include <QEvent>
#include <QPaintEvent>
#include <QPainter>

namespace ps::ui {

FadeOverlay::FadeOverlay(QWidget* target, qreal opacity) : QWidget(target), m_opacity(opacity)
{
    setObjectName(QStringLiteral("fadeOverlay"));
    setAttribute(Qt::WA_TransparentForMouseEvents);
    setAttribute(Qt::WA_NoSystemBackground);
    setFocusPolicy(Qt::NoFocus);
    target->installEventFilter(this);
    setGeometry(target->rect());
    raise();
    show();
}

bool FadeOverlay::eventFilter(QObject* watched, QEvent* event)
{
    if (watched == parentWidget()) {
        if (event->type() == QEvent::Resize)
            setGeometry(parentWidget()->rect());
        else if (event->type() == QEvent::ChildAdded)
            raise();  // a widget added later would otherwise paint over the veil
    }
    return QWidget::eventFilter(watched, event);
}

void FadeOverlay::paintEvent(QPaintEvent* event)
{
    QPainter p(this);
    QColor veil = palette().color(QPalette::Window);
    veil.setAlphaF(float(m_opacity));
    p.fillRect(event->rect(), veil);
}

}  // namespace ps::ui
