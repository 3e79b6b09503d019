#include "ui/run/LogView.h"

#include "ui/editor/EditorTheme.h"

#include <QScrollBar>
#include <QTextBlock>
#include <QTextCursor>

namespace ps::ui {

namespace {
/// A line is judged by its beginning: enough for every prefix LogClassifier knows, and a
/// megabyte-long line costs no more than a short one.
constexpr qsizetype kJudgedChars = 512;
}  // namespace

LogView::LogView(QWidget* parent) : QPlainTextEdit(parent)
{
    setReadOnly(true);
    setMaximumBlockCount(kMaxBlocks);
    setLineWrapMode(NoWrap);
    setFont(EditorTheme::monospace());
    setPlaceholderText(tr("The script's output (stdout and stderr) appears here while it runs."));
}

void LogView::insert(const QString& text, const QColor& color, bool bold)
{
    QScrollBar* bar = verticalScrollBar();
    const bool atEnd = bar->value() >= bar->maximum() - 4;
    QTextCursor cursor(document());
    cursor.movePosition(QTextCursor::End);
    QTextCharFormat format;
    if (color.isValid())
        format.setForeground(color);
    if (bold)
        format.setFontWeight(QFont::Bold);
    cursor.insertText(text, format);
    m_tailStream = 0;  // the caller says when its line is still open at the end
    if (atEnd)
        bar->setValue(bar->maximum());
}

QColor LogView::severityColor(LogSeverity severity) const
{
    const bool dark = palette().color(QPalette::Base).lightness() < 128;
    switch (severity) {
    case LogSeverity::Error:
        return dark ? QColor(255, 140, 130) : QColor(170, 30, 20);
    case LogSeverity::Warning:
        return dark ? QColor(235, 190, 90) : QColor(150, 95, 0);
    case LogSeverity::Info:
        return palette().color(QPalette::PlaceholderText);
    case LogSeverity::Plain:
        break;
    }
    return {};
}

void LogView::beginRun(const QString& title)
{
    m_runChars = 0;
    m_droppedChars = 0;
    m_classifier.reset();
    m_openLine = {};
    const bool needsBreak = !document()->lastBlock().text().isEmpty();
    insert(
        (needsBreak ? "\n" : "") + QStringLiteral("── %1 ──\n").arg(title), palette().color(QPalette::Highlight), true);
}

void LogView::appendOutput(int stream, const QString& text)
{
    if (m_runChars >= kMaxRunChars) {
        m_droppedChars += text.size();
        return;
    }
    QString t = text;
    if (m_runChars + t.size() > kMaxRunChars) {
        m_droppedChars += t.size() - (kMaxRunChars - m_runChars);
        t.truncate(static_cast<qsizetype>(kMaxRunChars - m_runChars));
    }
    m_runChars += t.size();
    QString& open = m_openLine[stream == 1 || stream == 2 ? stream : 0];
    qsizetype from = 0;
    while (from < t.size()) {
        const qsizetype end = t.indexOf(u'\n', from);
        if (end < 0) {
            // A line not ended yet: shown now, coloured as its beginning reads (judged on a copy,
            // so the line is judged once more, whole, when its end comes).
            const QString part = t.mid(from);
            LogClassifier peek = m_classifier;
            const qsizetype shown = m_tailStream == stream ? m_tailChars : 0;
            open = (open + part).left(kJudgedChars);
            insert(part, severityColor(peek.classify(stream, open)), false);
            m_tailStream = stream;
            m_tailChars = shown + part.size();
            break;
        }
        const QString part = t.mid(from, end - from + 1);
        const QString line = (open + part.chopped(1)).left(kJudgedChars);
        const QColor color = severityColor(m_classifier.classify(stream, line));
        if (!open.isEmpty() && m_tailStream == stream) {
            // The line's beginning, shown before its end came, takes the colour of the whole.
            QTextCursor head(document());
            head.movePosition(QTextCursor::End);
            head.movePosition(QTextCursor::PreviousCharacter, QTextCursor::KeepAnchor, static_cast<int>(m_tailChars));
            QTextCharFormat format;
            if (color.isValid())
                format.setForeground(color);
            head.setCharFormat(format);  // replaces: a plain line has no colour of its own
        }
        insert(part, color, false);
        open.clear();
        from = end + 1;
    }
    if (m_runChars >= kMaxRunChars)
        insert(
            tr("\n[the log shows the first %1 characters of a run's output; the rest is counted]\n").arg(kMaxRunChars),
            palette().color(QPalette::PlaceholderText), true);
}

void LogView::appendNote(const QString& text)
{
    QString line = text;
    m_openLine = {};
    if (m_droppedChars > 0) {
        line = tr("(%1 characters of output not shown) ").arg(m_droppedChars) + line;
        m_droppedChars = 0;
    }
    const bool needsBreak = !document()->lastBlock().text().isEmpty();
    insert((needsBreak ? "\n" : "") + line + "\n", palette().color(QPalette::Highlight), false);
}

}  // namespace ps::ui
