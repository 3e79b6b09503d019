#include "ui/report/ColdStartBars.h"

#include "model/VisibleText.h"
#include "ui/common/QtText.h"

#include <QLabel>
#include <QPainter>
#include <QSpacerItem>
#include <QVBoxLayout>

#include <algorithm>

namespace ps::ui {

namespace {

constexpr int kStartRowHeight = 18;
constexpr int kStartBarHeight = 12;
constexpr int kStartValueWidth = 170;  ///< "20.4 s · 12 kernels compiled" beside the longest bar

/// 21 s, 4.8 s, 0.42 s, 12 ms
QString startSeconds(double s)
{
    if (s >= 10)
        return QStringLiteral("%1 s").arg(s, 0, 'f', 0);
    if (s >= 0.1)
        return QStringLiteral("%1 s").arg(s, 0, 'f', s >= 1 ? 1 : 2);
    return QStringLiteral("%1 ms").arg(s * 1000, 0, 'g', 2);
}

/// Text of a run (another user's, perhaps): its controls shown as escapes.
QString shown(const std::string& text)
{
    return q(model::VisibleText::of(text));
}

}  // namespace

QColor ColdStartBars::colour(model::ColdStart::Step step)
{
    switch (step) {
    case model::ColdStart::Step::Precompiled:
        return QColor(0, 150, 136);
    case model::ColdStart::Step::PrecompiledNoCache:
        return QColor(128, 203, 196);
    case model::ColdStart::Step::CompileCold:
    case model::ColdStart::Step::CompileWarm:
        return QColor(242, 153, 0);
    case model::ColdStart::Step::Eager:
        return QColor(150, 150, 150);
    }
    return QColor(150, 150, 150);
}

ColdStartBars::ColdStartBars(QWidget* parent) : QWidget(parent)
{
    setObjectName(QStringLiteral("coldStartBars"));
    m_title = new QLabel;
    m_title->setWordWrap(true);
    m_title->setTextFormat(Qt::PlainText);  // a run's words, never markup
    auto* layout = new QVBoxLayout(this);
    layout->setContentsMargins(0, 2, 0, 2);
    layout->addWidget(m_title);
    m_rowsRoom = new QSpacerItem(0, 0, QSizePolicy::Minimum, QSizePolicy::Fixed);
    layout->addItem(m_rowsRoom);
    setSizePolicy(QSizePolicy::Preferred, QSizePolicy::Fixed);
    hide();
}

void ColdStartBars::setLedger(const std::optional<model::ColdStart>& ledger)
{
    m_ledger = ledger;
    m_rows.clear();
    if (!ledger) {
        hide();
        return;
    }
    if (!ledger->ran) {
        m_title->setText(tr("Cold start: %1").arg(shown(ledger->reason)));
    } else {
        QString title = tr("Cold start, each in a fresh process: %1").arg(shown(ledger->message));
        if (ledger->importS)
            title += tr(" (import torch %1 apart)").arg(startSeconds(*ledger->importS));
        m_title->setText(title);
        for (const auto& m : ledger->steps) {
            Row row;
            row.step = m.step;
            row.label = q(std::string(model::ColdStart::words(m.step)));
            row.seconds = m.firstCallS;
            if (!m.error.empty())
                row.note = tr("failed: %1").arg(shown(m.error));
            else if (m.kernelsCompiled && *m.kernelsCompiled > 0)
                row.note = *m.kernelsCompiled == 1 ? tr("1 kernel compiled")
                                                   : tr("%1 kernels compiled").arg(*m.kernelsCompiled);
            m_rows.push_back(row);
        }
    }
    m_title->setToolTip(tr("Each step started a new Python process, imported torch, ran the script to build the "
                           "model and inputs, then timed the first call: eager fn; torch.compile with an empty, then "
                           "a warm Inductor cache; the precompiled pair loaded with its cache, and without it (JIT). "
                           "(Run > Measure Cold Start, run --cold-start)"));
    m_rowsRoom->changeSize(0, m_rows.empty() ? 0 : 4 + static_cast<int>(m_rows.size()) * kStartRowHeight,
        QSizePolicy::Minimum, QSizePolicy::Fixed);
    layout()->invalidate();
    show();
    update();
}

QString ColdStartBars::titleText() const
{
    return m_title->text();
}

int ColdStartBars::barsTop() const
{
    return m_title->geometry().bottom() + 4;
}

int ColdStartBars::labelWidth() const
{
    int w = 0;
    for (const auto& r : m_rows)
        w = std::max(w, fontMetrics().horizontalAdvance(r.label));
    return w + 10;
}

void ColdStartBars::paintEvent(QPaintEvent*)
{
    if (m_rows.empty())
        return;
    QPainter p(this);
    p.setRenderHint(QPainter::Antialiasing, true);
    double longest = 0;
    for (const auto& r : m_rows)
        longest = std::max(longest, r.seconds.value_or(0));
    const int left = labelWidth();
    const int room = std::max(20, width() - left - kStartValueWidth);
    const QColor text = palette().color(isEnabled() ? QPalette::Active : QPalette::Disabled, QPalette::WindowText);
    int y = barsTop();
    for (const auto& r : m_rows) {
        p.setPen(text);
        p.drawText(QRect(0, y, left - 6, kStartRowHeight), Qt::AlignRight | Qt::AlignVCenter, r.label);
        int end = left;
        if (r.seconds && longest > 0) {
            const int w = std::max(2, static_cast<int>(room * (*r.seconds / longest)));
            QColor c = colour(r.step);
            if (!isEnabled())
                c = QColor(190, 190, 190);
            p.fillRect(QRect(left, y + (kStartRowHeight - kStartBarHeight) / 2, w, kStartBarHeight), c);
            end = left + w;
        }
        QString value = r.seconds ? startSeconds(*r.seconds) : QString();
        if (!r.note.isEmpty())
            value += (value.isEmpty() ? QString() : QStringLiteral(" \u00b7 ")) + r.note;
        if (value.isEmpty())
            value = QStringLiteral("-");
        p.setPen(text);
        p.drawText(QRect(end + 6, y, width() - end - 6, kStartRowHeight), Qt::AlignLeft | Qt::AlignVCenter,
            fontMetrics().elidedText(value, Qt::ElideRight, std::max(0, width() - end - 6)));
        y += kStartRowHeight;
    }
}

}  // namespace ps::ui
