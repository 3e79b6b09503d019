#pragma once

#include <QColor>
#include <QString>
#include <QTextDocument>

#include <string>

namespace ps::ui {

/// The engine's UTF-8 text as a QString.
inline QString q(const std::string& s)
{
    return QString::fromStdString(s);
}

/// The engine's text escaped for a rich-text label.
inline QString escaped(const std::string& s)
{
    return QString::fromStdString(s).toHtmlEscaped();
}

/// Text of any origin (a run's names, messages and paths, a host's words) for a tooltip or a
/// message box, where Qt decides on its own whether text is markup: text that could pass for
/// markup is escaped, other text is left as it is (and reads the same).
inline QString plainTip(const QString& s)
{
    return Qt::mightBeRichText(s) ? Qt::convertFromPlainText(s, Qt::WhiteSpaceNormal) : s;
}

/// What a rich-text string reads as without its markup (an accessible name, a tooltip's text).
inline QString plainOf(const QString& html)
{
    QTextDocument doc;
    doc.setHtml(html);
    return doc.toPlainText();
}

/// `a` moved toward `b` by `t` (0: a, 1: b), channel by channel.
inline QColor mixed(const QColor& a, const QColor& b, qreal t)
{
    return QColor::fromRgbF(
        a.redF() * (1 - t) + b.redF() * t, a.greenF() * (1 - t) + b.greenF() * t, a.blueF() * (1 - t) + b.blueF() * t);
}

}  // namespace ps::ui
