#include "ui/graph/LensPalette.h"
#include "ui/common/QtText.h"

#include "graph/LensCategory.h"

#include <QHash>

#include <algorithm>
#include <iterator>

namespace ps::ui {

namespace {

// A fixed category's hue on the colour wheel; -2: a neutral grey (other, unchanged); -1: a
// name (hashed onto the wheel); forward and constant have fills of their own.
int fixedHue(graph::LensCategory c)
{
    using C = graph::LensCategory;
    switch (c) {
    case C::Parameter:
        return 120;
    case C::Buffer:
        return 175;
    case C::Input:
        return 210;
    case C::Output:
        return 30;
    case C::Backward:
        return 280;
    case C::Matmul:
        return 0;
    case C::Convolution:
        return 20;
    case C::Normalization:
        return 300;
    case C::Reduction:
        return 260;
    case C::View:
        return 190;
    case C::Memory:
        return 45;
    case C::Random:
        return 330;
    case C::Elementwise:
        return 140;
    case C::DtypeChange:
        return 15;
    case C::LayoutChange:
        return 265;
    case C::Other:
    case C::Unchanged:
    case C::Forward:
    case C::Constant:
        return -2;
    }
    return -1;
}

}  // namespace

QColor LensPalette::fill(const std::string& category, const QPalette& palette)
{
    const bool dark = palette.color(QPalette::Base).lightness() < 128;
    const QColor base = palette.color(QPalette::Base);
    const QColor text = palette.color(QPalette::Text);
    const auto fixed = graph::lensCategoryFromString(category);
    if (category.empty() || fixed == graph::LensCategory::Forward)
        return mixed(base, text, dark ? 0.14 : 0.06);
    if (fixed == graph::LensCategory::Constant)
        return mixed(base, text, 0.2);
    int hue = fixed ? fixedHue(*fixed) : -1;
    if (hue == -2)
        return mixed(base, text, dark ? 0.22 : 0.12);
    if (hue < 0)  // a name: spread names over the wheel by a stable hash (golden angle)
        hue = static_cast<int>((qHash(QString::fromStdString(category), 7u) % 360u) * 137u % 360u);
    return dark ? QColor::fromHsl(hue, 70, 62) : QColor::fromHsl(hue, 120, 215);
}

GraphBoxItem::Colors LensPalette::colors(const std::string& category, const QPalette& palette)
{
    GraphBoxItem::Colors c;
    const QColor text = palette.color(QPalette::Text);
    c.fill = fill(category, palette);
    c.border = mixed(c.fill, text, 0.45);
    c.text = text;
    c.highlight = palette.color(QPalette::Highlight);
    const bool dark = palette.color(QPalette::Base).lightness() < 128;
    c.upstream = dark ? QColor(90, 170, 255) : QColor(20, 90, 220);
    c.downstream = dark ? QColor(255, 160, 70) : QColor(210, 100, 0);
    return c;
}

QColor LensPalette::ramp(double t)
{
    static const QColor stops[] = {QColor(0xff, 0xff, 0xcc), QColor(0xfe, 0xd9, 0x76), QColor(0xfd, 0x8d, 0x3c),
        QColor(0xe3, 0x1a, 0x1c), QColor(0x80, 0x00, 0x26)};
    constexpr int last = static_cast<int>(std::size(stops)) - 1;
    const double x = std::clamp(t, 0.0, 1.0) * last;
    const int k = std::min(static_cast<int>(x), last - 1);
    return mixed(stops[k], stops[k + 1], x - k);
}

GraphBoxItem::Colors LensPalette::rampColors(double t, const QPalette& palette)
{
    GraphBoxItem::Colors c = colors(std::string(), palette);
    c.fill = ramp(t);
    c.text = c.fill.lightness() < 110 ? QColor(Qt::white) : QColor(Qt::black);
    c.border = mixed(c.fill, QColor(Qt::black), 0.4);
    return c;
}

}  // namespace ps::ui
