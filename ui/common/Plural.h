#pragma once

#include <QString>

namespace ps::ui {

/// "1 input", "3 inputs": a count with its noun in the right number. The studio ships no
/// translations, so Qt's "%n node(s)" would stay "1 node(s)" on screen.
inline QString counted(qint64 n, const QString& one, const QString& many)
{
    return QStringLiteral("%1 %2").arg(n).arg(n == 1 ? one : many);
}

}  // namespace ps::ui
