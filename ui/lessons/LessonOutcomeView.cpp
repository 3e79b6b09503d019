#include "ui/lessons/LessonOutcomeView.h"

#include <QLabel>
#include <QPlainTextEdit>
#include <QVBoxLayout>

namespace ps::ui {

LessonOutcomeView::LessonOutcomeView(const QString& scriptName, QWidget* parent) : QWidget(parent)
{
    m_verdict = new QLabel;
    m_verdict->setTextFormat(Qt::PlainText);
    m_verdict->setWordWrap(true);
    m_verdict->setTextInteractionFlags(Qt::TextSelectableByMouse);
    m_details = new QPlainTextEdit;
    m_details->setReadOnly(true);
    m_details->setPlaceholderText(tr("Run %1 to see what the studio reports for it").arg(scriptName));
    auto* layout = new QVBoxLayout(this);
    layout->setContentsMargins(0, 0, 0, 0);
    layout->setSpacing(2);
    layout->addWidget(m_verdict);
    layout->addWidget(m_details, 1);
}

void LessonOutcomeView::showOutcome(const std::optional<LessonOutcome>& outcome, double seconds)
{
    if (!outcome) {
        m_verdict->clear();
        m_verdict->setStyleSheet(QString());
        m_details->clear();
        return;
    }
    const LessonOutcome& o = *outcome;
    QString colour;
    if (o.matches())
        colour = QStringLiteral("#2e7d32");
    else if (!o.cancelled())
        colour = QStringLiteral("#c62828");
    m_verdict->setStyleSheet(colour.isEmpty() ? QStringLiteral("QLabel { font-weight: bold; }")
                                              : QStringLiteral("QLabel { color: %1; font-weight: bold; }").arg(colour));
    QString verdict = o.verdict();
    if (o.ran())
        verdict += tr(" (%1, %2 s)").arg(o.status()).arg(seconds, 0, 'f', 1);
    m_verdict->setText(verdict);

    QStringList lines;
    if (!o.differences().isEmpty()) {
        lines << tr("Differences from expect.json:");
        for (const QString& d : o.differences())
            lines << QStringLiteral("  ") + d;
        lines << QString();
    }
    lines << o.summary();
    m_details->setPlainText(lines.join(QLatin1Char('\n')));
}

void LessonOutcomeView::showRunning()
{
    m_verdict->setStyleSheet(QString());
    m_verdict->setText(tr("running…"));
    m_details->clear();
}

QString LessonOutcomeView::verdictText() const
{
    return m_verdict->text();
}

QString LessonOutcomeView::detailsText() const
{
    return m_details->toPlainText();
}

}  // namespace ps::ui
