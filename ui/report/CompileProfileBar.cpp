#include "ui/report/CompileProfileBar.h"
#include "ui/common/QtText.h"

#include <QHelpEvent>
#include <QLabel>
#include <QPainter>
#include <QTextDocument>
#include <QToolTip>
#include <QVBoxLayout>

#include <cmath>

namespace ps::ui {

namespace {

using model::CompilePhase;

constexpr int kBarHeight = 16;

/// 3.9 s, 0.42 s, 12 ms, 0.4 ms
QString seconds(double s)
{
    if (s >= 10)
        return QStringLiteral("%1 s").arg(s, 0, 'f', 0);
    if (s >= 0.1)
        return QStringLiteral("%1 s").arg(s, 0, 'f', 1);
    if (s >= 0.001)
        return QStringLiteral("%1 ms").arg(s * 1000, 0, 'g', 2);
    return QStringLiteral("%1 ms").arg(s * 1000, 0, 'f', 2);
}

QString percent(double share)
{
    return QStringLiteral("%1 %").arg(share * 100, 0, 'f', share < 0.1 ? 1 : 0);
}

QString phaseName(CompilePhase phase)
{
    return QString::fromUtf8(model::label(phase).data(), static_cast<int>(model::label(phase).size()));
}

}  // namespace

QColor CompileProfileBar::colour(CompilePhase phase)
{
    switch (phase) {
    case CompilePhase::Tracing:
        return QColor(66, 133, 244);
    case CompilePhase::AotAutograd:
        return QColor(142, 87, 196);
    case CompilePhase::InductorLowering:
        return QColor(242, 153, 0);
    case CompilePhase::CodeGeneration:
        return QColor(214, 69, 65);
    case CompilePhase::Cache:
        return QColor(0, 150, 136);
    case CompilePhase::Imports:
        return QColor(141, 110, 99);
    case CompilePhase::Studio:
        return QColor(233, 30, 140);
    case CompilePhase::Other:
        return QColor(170, 170, 170);
    }
    return QColor(170, 170, 170);
}

CompileProfileBar::CompileProfileBar(QWidget* parent) : QWidget(parent)
{
    setObjectName(QStringLiteral("compileProfileBar"));
    m_title = new QLabel;
    m_title->setTextFormat(Qt::RichText);
    m_title->setWordWrap(true);  // the notes after the total wrap in a narrow report
    m_legend = new QLabel;
    m_legend->setTextFormat(Qt::RichText);
    m_legend->setWordWrap(true);
    auto* layout = new QVBoxLayout(this);
    layout->setContentsMargins(0, 2, 0, 2);
    layout->setSpacing(3);
    layout->addWidget(m_title);
    layout->addSpacing(kBarHeight);  // the bar is painted here
    layout->addWidget(m_legend);
    setMouseTracking(true);
    setVisible(false);
}

void CompileProfileBar::setProfile(const std::optional<model::CompileProfile>& profile)
{
    m_profile = profile && profile->total() > 0 ? profile : std::nullopt;
    if (!m_profile) {
        m_title->clear();
        m_legend->clear();
        setVisible(false);
        return;
    }
    const auto& p = *m_profile;
    QString title = tr("<b>Compile</b> %1").arg(seconds(p.total()));
    if (const auto c = p.coverage())
        title += tr(" · %1 named").arg(QStringLiteral("%1 %").arg(std::floor(*c * 100 + 1e-9), 0, 'f', 0));
    if (p.cacheMisses && *p.cacheMisses > 0)
        title += tr(" · FX graph cache miss (kernels generated)");
    else if (p.cacheHits && *p.cacheHits > 0)
        title += tr(" · FX graph cache hit");
    if (!p.torchEvents)
        title += tr(" · torch's compile-time events are not available: only the studio's own spans are named");
    m_title->setText(title);
    QStringList legend;
    for (const auto& s : segments())
        // One entry never breaks ("1.0" at a line's end, "s" on the next): its spaces do not.
        legend << QStringLiteral("<span style=\"color:%1\">■</span>&nbsp;%2")
                      .arg(s.colour.name(),
                          QStringLiteral("%1 %2")
                              .arg(phaseName(s.phase), seconds(s.seconds))
                              .toHtmlEscaped()
                              .replace(' ', QStringLiteral("&nbsp;")));
    m_legend->setText(legend.join(QStringLiteral(" &nbsp; ")));
    setVisible(true);
    update();
}

QRectF CompileProfileBar::barRect() const
{
    const int top = m_title->geometry().bottom() + 1 + layout()->spacing();
    return QRectF(0, top, width(), kBarHeight);
}

std::vector<CompileProfileBar::Segment> CompileProfileBar::segments() const
{
    std::vector<Segment> out;
    if (!m_profile)
        return out;
    const double total = m_profile->total();
    const QRectF bar = barRect();
    double x = bar.left();
    for (const auto& p : m_profile->phases) {
        if (p.seconds <= 0)
            continue;
        Segment s;
        s.phase = p.phase;
        s.seconds = p.seconds;
        s.share = p.seconds / total;
        s.colour = colour(p.phase);
        const double w = bar.width() * s.share;
        s.rect = QRectF(x, bar.top(), w, bar.height());
        x += w;
        out.push_back(s);
    }
    return out;
}

QString CompileProfileBar::toolTipAt(const QPoint& pos) const
{
    for (const auto& s : segments())
        if (s.rect.adjusted(0, 0, 0.5, 0).contains(pos))
            return tr("%1: %2 (%3 of the precompile time)")
                .arg(phaseName(s.phase), seconds(s.seconds), percent(s.share));
    return {};
}

QString CompileProfileBar::titleText() const
{
    return plainOf(m_title->text());
}

QString CompileProfileBar::legendText() const
{
    return plainOf(m_legend->text());
}

QString CompileProfileBar::legendHtml() const
{
    return m_legend->text();
}

bool CompileProfileBar::event(QEvent* event)
{
    if (event->type() == QEvent::ToolTip) {
        auto* help = static_cast<QHelpEvent*>(event);
        const QString tip = toolTipAt(help->pos());
        if (tip.isEmpty())
            QToolTip::hideText();
        else
            QToolTip::showText(help->globalPos(), tip, this);
        return true;
    }
    return QWidget::event(event);
}

void CompileProfileBar::paintEvent(QPaintEvent* event)
{
    QWidget::paintEvent(event);
    if (!m_profile)
        return;
    QPainter painter(this);
    painter.setRenderHint(QPainter::Antialiasing, false);
    const bool enabled = isEnabled();
    for (const auto& s : segments()) {
        QColor c = s.colour;
        if (!enabled)  // greyed with the rows beside it (a report of another script)
            c = QColor::fromHsv(c.hue(), c.saturation() / 4, std::min(255, c.value() + 40));
        painter.fillRect(s.rect, c);
    }
    painter.setPen(palette().color(QPalette::Mid));
    painter.drawRect(barRect().adjusted(0, 0, -1, -1));
}

}  // namespace ps::ui
