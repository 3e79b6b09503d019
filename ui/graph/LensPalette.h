#pragma once

#include "ui/graph/GraphBoxItem.h"

#include <QPalette>
#include <QString>

#include <string>

namespace ps::ui {

/// The colours of a box under a lens: fixed hues for the categories every graph has (node
/// kinds, op kinds, dtype and layout changes), a stable hue per name for the rest (modules,
/// kernels), a neutral fill for "no category". Light and dark palettes both read well.
class LensPalette {
public:
    static GraphBoxItem::Colors colors(const std::string& category, const QPalette& palette);
    /// The fill alone, for the legend and the minimap.
    static QColor fill(const std::string& category, const QPalette& palette);
    /// A numeric lens's colour at `t` in 0..1 (MeasuredLens::position): a sequential ramp from
    /// pale yellow to deep red (ColorBrewer YlOrRd, readable with red-green colour blindness).
    static QColor ramp(double t);
    /// The colours of a box at `t` on the ramp (its text light where the fill is dark).
    static GraphBoxItem::Colors rampColors(double t, const QPalette& palette);
};

}  // namespace ps::ui
