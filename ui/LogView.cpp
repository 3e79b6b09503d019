#include "ui/LogView.h"

#include "ui/EditorTheme.h"

#include <QScrollBar>
#include <QTextBlock>
#include <QTextCursor>

namespace ps::ui {

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
    if (atEnd)
        bar->setValue(bar->maximum());
}

void LogView::beginRun(const QString& title)
{
    m_runChars = 0;
    m_droppedChars = 0;
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
    const QColor err = palette().color(QPalette::Base).lightness() < 128 ? QColor(255, 140, 130) : QColor(170, 30, 20);
    insert(t, stream == 2 ? err : QColor(), false);
    if (m_runChars >= kMaxRunChars)
        insert(
            tr("\n[the log shows the first %1 characters of a run's output; the rest is counted]\n").arg(kMaxRunChars),
            palette().color(QPalette::PlaceholderText), true);
}

void LogView::appendNote(const QString& text)
{
    QString line = text;
    if (m_droppedChars > 0) {
        line = tr("(%1 characters of output not shown) ").arg(m_droppedChars) + line;
        m_droppedChars = 0;
    }
    const bool needsBreak = !document()->lastBlock().text().isEmpty();
    insert((needsBreak ? "\n" : "") + line + "\n", palette().color(QPalette::Highlight), false);
}

}  // namespace ps::ui
