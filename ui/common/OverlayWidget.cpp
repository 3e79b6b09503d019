#include "ui/common/OverlayWidget.h"

#include <QEvent>

namespace ps::ui {

OverlayWidget::OverlayWidget(QWidget* target) : QWidget(target)
{
    setAttribute(Qt::WA_TransparentForMouseEvents);
    setAttribute(Qt::WA_NoSystemBackground);
    setFocusPolicy(Qt::NoFocus);
    setTarget(target);
}

void OverlayWidget::setTarget(QWidget* target)
{
    if (!target) {
        hide();  // over none: kept by its last target, which deletes it with itself
        return;
    }
    if (QWidget* old = parentWidget(); old && old != target)
        old->removeEventFilter(this);
    if (target != parentWidget())
        setParent(target);
    target->installEventFilter(this);
    setGeometry(target->rect());
    raise();
    show();
}

bool OverlayWidget::eventFilter(QObject* watched, QEvent* event)
{
    if (watched == parentWidget()) {
        if (event->type() == QEvent::Resize)
            setGeometry(parentWidget()->rect());
        else if (event->type() == QEvent::ChildAdded)
            raise();  // a widget added later would otherwise paint over the overlay
    }
    return QWidget::eventFilter(watched, event);
}

}  // namespace ps::ui
