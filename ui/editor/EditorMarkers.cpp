#include "ui/editor/EditorMarkers.h"

#include "ui/common/StatusStyle.h"
#include "ui/editor/EditorTheme.h"

#include <Qsci/qsciscintilla.h>

#include <QEvent>
#include <QHelpEvent>
#include <QImage>
#include <QPainter>
#include <QPainterPath>
#include <QToolTip>

#include <algorithm>
#include <map>

namespace ps::ui {

namespace {

QColor errorColour()
{
    return StatusStyle::color(model::CaptureStatus::Error);
}

QColor warningColour()
{
    return StatusStyle::color(model::CaptureStatus::Mismatch);
}

/// A margin icon `side` pixels square: a circle (error) or a triangle (warning) with a "!".
QImage icon(int side, bool warning)
{
    QImage image(side, side, QImage::Format_ARGB32_Premultiplied);
    image.fill(Qt::transparent);
    QPainter p(&image);
    p.setRenderHint(QPainter::Antialiasing, true);
    const QRectF r(1, 1, side - 2, side - 2);
    p.setPen(Qt::NoPen);
    p.setBrush(warning ? warningColour() : errorColour());
    if (warning) {
        QPainterPath path;
        path.moveTo(r.center().x(), r.top());
        path.lineTo(r.right(), r.bottom());
        path.lineTo(r.left(), r.bottom());
        path.closeSubpath();
        p.drawPath(path);
    } else {
        p.drawEllipse(r);
    }
    QFont f = p.font();
    f.setBold(true);
    f.setPixelSize(std::max(6, side * 2 / 3));
    p.setFont(f);
    p.setPen(warning ? QColor(40, 30, 0) : QColor(Qt::white));
    p.drawText(r.adjusted(0, warning ? side / 6.0 : 0, 0, 0), Qt::AlignCenter, QStringLiteral("!"));
    return image;
}

}  // namespace

EditorMarkers::EditorMarkers(QsciScintilla* editor) : QObject(editor), m_editor(editor)
{
    defineStyles();
    editor->viewport()->installEventFilter(this);
}

void EditorMarkers::defineStyles()
{
    const int side = std::clamp(m_editor->fontMetrics().height() - 2, 10, 32);
    m_editor->markerDefine(icon(side, false), EditorTheme::kErrorMarker);
    m_editor->markerDefine(icon(side, true), EditorTheme::kWarningMarker);
    m_editor->setMarginType(kMargin, QsciScintilla::SymbolMargin);
    m_editor->setMarginWidth(kMargin, side + 4);
    m_editor->setMarginMarkerMask(kMargin, (1 << EditorTheme::kErrorMarker) | (1 << EditorTheme::kWarningMarker));
    m_editor->indicatorDefine(QsciScintilla::SquigglePixmapIndicator, EditorTheme::kErrorIndicator);
    m_editor->setIndicatorForegroundColor(errorColour(), EditorTheme::kErrorIndicator);
    m_editor->indicatorDefine(QsciScintilla::SquigglePixmapIndicator, EditorTheme::kWarningIndicator);
    m_editor->setIndicatorForegroundColor(warningColour(), EditorTheme::kWarningIndicator);
}

void EditorMarkers::clear()
{
    m_diagnostics.clear();
    m_editor->markerDeleteAll(EditorTheme::kErrorMarker);
    m_editor->markerDeleteAll(EditorTheme::kWarningMarker);
    const long length = m_editor->SendScintilla(QsciScintilla::SCI_GETLENGTH);
    for (int indicator : {EditorTheme::kErrorIndicator, EditorTheme::kWarningIndicator}) {
        m_editor->SendScintilla(QsciScintilla::SCI_SETINDICATORCURRENT, indicator);
        m_editor->SendScintilla(QsciScintilla::SCI_INDICATORCLEARRANGE, 0UL, length);
    }
}

void EditorMarkers::setDiagnostics(std::vector<Diagnostic> diagnostics)
{
    clear();
    const int lines = m_editor->lines();
    std::erase_if(diagnostics, [&](const Diagnostic& d) { return d.line < 1 || d.line > lines; });
    m_diagnostics = std::move(diagnostics);
    std::map<int, bool> worst;  // line -> has a violation or error
    for (const auto& d : m_diagnostics)
        worst[d.line] = worst[d.line] || !d.warning();
    for (const auto& [line, error] : worst) {
        m_editor->markerAdd(line - 1, error ? EditorTheme::kErrorMarker : EditorTheme::kWarningMarker);
        // The squiggle runs under the line's code: from its indentation to its last non-blank.
        const auto l = static_cast<unsigned long>(line - 1);
        const long start = m_editor->SendScintilla(QsciScintilla::SCI_GETLINEINDENTPOSITION, l);
        long end = m_editor->SendScintilla(QsciScintilla::SCI_GETLINEENDPOSITION, l);
        while (end > start) {
            const long c = m_editor->SendScintilla(QsciScintilla::SCI_GETCHARAT, static_cast<unsigned long>(end - 1));
            if (c != ' ' && c != '\t')
                break;
            --end;
        }
        if (end <= start)
            continue;
        m_editor->SendScintilla(QsciScintilla::SCI_SETINDICATORCURRENT,
            error ? EditorTheme::kErrorIndicator : EditorTheme::kWarningIndicator);
        m_editor->SendScintilla(QsciScintilla::SCI_INDICATORFILLRANGE, static_cast<unsigned long>(start), end - start);
    }
}

QList<int> EditorMarkers::markedLines(bool warning) const
{
    QList<int> out;
    const int marker = warning ? EditorTheme::kWarningMarker : EditorTheme::kErrorMarker;
    for (int line = m_editor->markerFindNext(0, 1 << marker); line >= 0;
         line = m_editor->markerFindNext(line + 1, 1 << marker))
        out << line + 1;
    return out;
}

bool EditorMarkers::hasSquiggle(int line, bool warning) const
{
    if (line < 1 || line > m_editor->lines())
        return false;
    const long pos
        = m_editor->SendScintilla(QsciScintilla::SCI_GETLINEINDENTPOSITION, static_cast<unsigned long>(line - 1));
    return m_editor->SendScintilla(QsciScintilla::SCI_INDICATORVALUEAT,
               static_cast<unsigned long>(warning ? EditorTheme::kWarningIndicator : EditorTheme::kErrorIndicator), pos)
        != 0;
}

QString EditorMarkers::hoverText(int line) const
{
    QStringList parts;
    for (const auto& d : m_diagnostics) {
        if (d.line != line)
            continue;
        auto esc = [](const QString& s) { return s.toHtmlEscaped(); };
        const QColor colour = d.warning() ? warningColour() : errorColour();
        QString head = d.invariant ? tr("Invariant %1 · ").arg(*d.invariant) : QString();
        const QString severity = StatusStyle::word(d.severity);
        head += d.rule.isEmpty() ? severity : d.rule;
        QString html = QStringLiteral("<b style='color:%1'>%2</b> <i>%3%4</i>")
                           .arg(colour.name(), esc(head), esc(severity),
                               d.capture.isEmpty() ? QString() : tr(" in %1").arg(esc(d.capture)));
        if (!d.summary.isEmpty())
            html += "<br>" + esc(d.summary);
        if (!d.guard.isEmpty())
            html += "<br><b>" + tr("Traced for:") + "</b> <code>" + esc(d.guard) + "</code>";
        if (!d.fix.isEmpty())
            html += "<br><b>" + tr("Fix:") + "</b> " + esc(d.fix);
        parts << html;
    }
    if (parts.isEmpty())
        return {};
    return "<p style='white-space:pre-wrap'>" + parts.join("<hr>") + "</p>";
}

int EditorMarkers::lineAt(const QPoint& pos) const
{
    auto* e = const_cast<QsciScintilla*>(m_editor);
    const long height = e->SendScintilla(QsciScintilla::SCI_TEXTHEIGHT, 0UL);
    if (pos.y() < 0 || height <= 0)
        return 0;
    const long visible = e->firstVisibleLine() + pos.y() / height;
    const long line = e->SendScintilla(QsciScintilla::SCI_DOCLINEFROMVISIBLE, static_cast<unsigned long>(visible));
    return line >= 0 && line < e->lines() ? static_cast<int>(line) + 1 : 0;
}

bool EditorMarkers::eventFilter(QObject* watched, QEvent* event)
{
    if (watched == m_editor->viewport() && event->type() == QEvent::ToolTip) {
        auto* help = static_cast<QHelpEvent*>(event);
        const QString text = m_diagnostics.empty() ? QString() : hoverText(lineAt(help->pos()));
        if (text.isEmpty())
            QToolTip::hideText();
        else
            QToolTip::showText(help->globalPos(), text, m_editor->viewport());
        return true;
    }
    return QObject::eventFilter(watched, event);
}

}  // namespace ps::ui
