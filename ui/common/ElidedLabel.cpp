#include "ui/common/ElidedLabel.h"
#include "ui/common/QtText.h"

#include <QResizeEvent>

namespace ps::ui {

ElidedLabel::ElidedLabel(QWidget* parent) : QLabel(parent)
{
    setTextFormat(Qt::PlainText);
    setWordWrap(false);
    setSizePolicy(QSizePolicy::Ignored, QSizePolicy::Fixed);
}

void ElidedLabel::setFullText(const QString& text)
{
    m_full = text;
    setToolTip(plainTip(text));
    elide();
}

QSize ElidedLabel::minimumSizeHint() const
{
    return {0, QLabel::minimumSizeHint().height()};
}

QSize ElidedLabel::sizeHint() const
{
    const QMargins m = contentsMargins();
    return {fontMetrics().horizontalAdvance(m_full) + m.left() + m.right() + 2 * margin(), QLabel::sizeHint().height()};
}

void ElidedLabel::resizeEvent(QResizeEvent* event)
{
    QLabel::resizeEvent(event);
    elide();
}

void ElidedLabel::elide()
{
    const int room = contentsRect().width() - 2 * margin();
    // Newlines would make a second line: a message is one line whatever it was given.
    const QString line = QString(m_full).replace('\n', ' ');
    QLabel::setText(fontMetrics().elidedText(line, Qt::ElideMiddle, std::max(room, 0)));
}

}  // namespace ps::ui
