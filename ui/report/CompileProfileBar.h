#pragma once

#include "model/CompileProfile.h"

#include <QColor>
#include <QRectF>
#include <QWidget>

#include <optional>
#include <vector>

class QLabel;

namespace ps::ui {

/// Where a capture's precompile time went (model::CompileProfile), as one stacked horizontal
/// bar: a segment per phase in the report's order (tracing, aot_autograd, inductor lowering,
/// code generation, cache, imports, studio, other), its width the phase's share, each with a
/// tooltip (seconds and %); a line above it says the total, how much is named and whether
/// inductor's FX graph cache hit, a legend under it names each colour with its seconds. Hidden
/// for a capture without a profile (a report of an older studio).
class CompileProfileBar : public QWidget {
    Q_OBJECT
public:
    struct Segment {
        model::CompilePhase phase = model::CompilePhase::Other;
        double seconds = 0;
        double share = 0;  ///< of the total, 0..1
        QColor colour;
        QRectF rect;  ///< where it is drawn, in the widget's coordinates
    };

    explicit CompileProfileBar(QWidget* parent = nullptr);

    /// nullopt (or a profile of no time): hidden.
    void setProfile(const std::optional<model::CompileProfile>& profile);
    bool hasProfile() const { return m_profile.has_value(); }

    /// The segments as drawn (empty phases left out); their rects are laid out for the current width.
    std::vector<Segment> segments() const;
    /// "code generation: 3.9 s (66 %)" for the segment under `pos`, "" elsewhere.
    QString toolTipAt(const QPoint& pos) const;
    /// The lines above and under the bar as plain text (tests read them).
    QString titleText() const;
    QString legendText() const;
    /// The legend as the label draws it (rich text).
    QString legendHtml() const;
    /// The colour of a phase, the same in the bar and its legend.
    static QColor colour(model::CompilePhase phase);

protected:
    bool event(QEvent* event) override;
    void paintEvent(QPaintEvent* event) override;

private:
    QRectF barRect() const;

    QLabel* m_title;
    QLabel* m_legend;
    std::optional<model::CompileProfile> m_profile;
};

}  // namespace ps::ui
