#pragma once

#include "compare/Change.h"

#include <QColor>

namespace ps::ui {

/// The Compare view's colours, the same in the graphs, the tables and the section list: added
/// green (on side B), removed red (on side A), changed amber (on both). Light fills, so that a
/// box's title stays readable on them; unchanged things keep the plain colours.
struct DiffColours {
    static QColor added() { return QColor(0xa5, 0xd6, 0xa7); }
    static QColor removed() { return QColor(0xef, 0x9a, 0x9a); }
    static QColor changed() { return QColor(0xff, 0xcc, 0x80); }
    /// The colour of a change; invalid for Same.
    static QColor of(compare::Change change)
    {
        switch (change) {
        case compare::Change::Added:
            return added();
        case compare::Change::Removed:
            return removed();
        case compare::Change::Changed:
        case compare::Change::Refused:
            return changed();
        case compare::Change::Same:
            break;
        }
        return QColor();
    }
};

}  // namespace ps::ui
