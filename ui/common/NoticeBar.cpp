#include "ui/common/NoticeBar.h"

#include <QHBoxLayout>
#include <QLabel>
#include <QPushButton>
#include <QStyle>
#include <QToolButton>

namespace ps::ui {

NoticeBar::NoticeBar(QWidget* parent) : QFrame(parent)
{
    setFrameShape(StyledPanel);
    setAutoFillBackground(true);
    m_icon = new QLabel;
    m_text = new QLabel;
    m_text->setWordWrap(true);
    m_text->setTextInteractionFlags(Qt::TextSelectableByMouse);
    m_text->setTextFormat(Qt::PlainText);
    m_actions = new QHBoxLayout;
    auto* close = new QToolButton;
    close->setText(QStringLiteral("✕"));
    close->setToolTip(tr("Dismiss"));
    close->setAutoRaise(true);
    connect(close, &QToolButton::clicked, this, &NoticeBar::dismiss);
    auto* layout = new QHBoxLayout(this);
    layout->setContentsMargins(8, 4, 4, 4);
    layout->addWidget(m_icon);
    layout->addWidget(m_text, 1);
    layout->addLayout(m_actions);
    layout->addWidget(close, 0, Qt::AlignTop);
    hide();
}

void NoticeBar::showNotice(Level level, const QString& text, const std::vector<Action>& actions)
{
    m_level = level;
    m_text->setText(text);
    const QStyle::StandardPixmap icon = level == Level::Error ? QStyle::SP_MessageBoxCritical
        : level == Level::Warning                             ? QStyle::SP_MessageBoxWarning
                                                              : QStyle::SP_MessageBoxInformation;
    const int size = style()->pixelMetric(QStyle::PM_SmallIconSize);
    m_icon->setPixmap(style()->standardIcon(icon).pixmap(size, size));

    QPalette pal = parentWidget() ? parentWidget()->palette() : palette();
    const QColor base = pal.color(QPalette::Window);
    const QColor tint = level == Level::Error ? QColor(220, 50, 40)
        : level == Level::Warning             ? QColor(230, 160, 20)
                                              : pal.color(QPalette::Highlight);
    const qreal t = 0.18;
    pal.setColor(QPalette::Window,
        QColor::fromRgbF(base.redF() * (1 - t) + tint.redF() * t, base.greenF() * (1 - t) + tint.greenF() * t,
            base.blueF() * (1 - t) + tint.blueF() * t));
    setPalette(pal);

    while (auto* item = m_actions->takeAt(0)) {
        if (QWidget* w = item->widget()) {
            w->hide();
            w->deleteLater();  // the button pressed may be the one that called us
        }
        delete item;
    }
    for (const auto& [label, fn] : actions) {
        auto* b = new QPushButton(label);
        auto callback = fn;
        connect(b, &QPushButton::clicked, this, [callback]() { callback(); });
        m_actions->addWidget(b, 0, Qt::AlignTop);
    }
    show();
}

void NoticeBar::dismiss()
{
    hide();
}

QString NoticeBar::text() const
{
    return isHidden() ? QString() : m_text->text();
}

QStringList NoticeBar::actionLabels() const
{
    QStringList out;
    for (int i = 0; i < m_actions->count(); ++i)
        if (auto* b = qobject_cast<QPushButton*>(m_actions->itemAt(i)->widget()))
            out << b->text();
    return out;
}

bool NoticeBar::trigger(const QString& label)
{
    for (int i = 0; i < m_actions->count(); ++i)
        if (auto* b = qobject_cast<QPushButton*>(m_actions->itemAt(i)->widget()); b && b->text() == label) {
            b->click();
            return true;
        }
    return false;
}

}  // namespace ps::ui
